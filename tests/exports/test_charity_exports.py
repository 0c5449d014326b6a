"""The charity evening on paper and in the workbook, read back: donation slips (per entrant
and per table) with pdfplumber, the certificates' money line, the workbook's "Spenden" and
"Statistik" sheets with openpyxl, the export_pdf command's new kinds. One demo for the
module (13 Einzel, 4 pairs, round 1 scored), rolled back at the end."""

from __future__ import annotations

import io
from pathlib import Path

import openpyxl
import pytest
from django.core.management import call_command

from binokel_tournament.exports import PDF_EXPORTERS, ExportOptions, RankingsWorkbookExporter
from binokel_tournament.models import Game
from binokel_tournament.services.demo import create_demo
from binokel_tournament.services.money import charity
from charity.money import euro_text
from tests.support import rolled_back

from .reading import assert_fits_a4, lines, pdf_pages


@pytest.fixture(scope="module")
def evening(django_db_setup, django_db_blocker):
    with rolled_back(django_db_blocker):
        yield create_demo(13, 4, scored_rounds=1, slug="benefiz-export")[0]


def flat(text: str) -> str:
    return text.replace("\u00a0", " ")


def test_one_donation_slip_per_entrant_says_what_is_still_to_pay(evening, db):
    result = PDF_EXPORTERS["donations"](evening).render(ExportOptions())
    assert result.filename == "benefiz-export-spenden.pdf"
    assert_fits_a4(result, landscape=False)
    text = flat("\n".join(pdf_pages(result)))
    items = charity.statements(evening)
    assert len(pdf_pages(result)) == -(-len(items) // 10)  # ten slips a page
    for item in items:
        s = item.statement
        assert f"Nr. {s.start_number}" in text
        assert s.name in text
        assert f"{s.lost} verlorene Spiele" in text
    owed = [flat(euro_text(i.statement.open_cents)) for i in items]
    assert text.count("Noch zu zahlen") == len(items)
    assert all(amount in text for amount in owed)


def test_slips_per_table_list_the_entrants_of_each_table(evening, db):
    result = PDF_EXPORTERS["donations"](evening).render(ExportOptions(round_number=1))
    text = flat("\n".join(pdf_pages(result)))
    tables = evening.round_set.get(number=1).tables.order_by("number")
    for table in tables:
        assert f"Tisch {table.number} · 1. Durchgang" in text
        for seat in table.seats.select_related("entrant"):
            assert f"{seat.entrant.start_number} {seat.entrant.display_name}" in text
    assert text.count("Tisch zahlt noch") == tables.count()


def test_the_certificates_say_what_each_played_in_for_the_purpose(evening, db):
    result = PDF_EXPORTERS["certificates"](evening).render(ExportOptions())
    by_number = {i.entrant.display_name: i.statement for i in charity.statements(evening)}
    pages = [flat(p) for p in pdf_pages(result)]
    assert pages
    for page in pages:
        line = next(x for x in lines(page) if x.startswith("Sie haben"))
        assert "für die Jugendarbeit der Kirchengemeinde erspielt" in line
        name = next(n for n in by_number if n.split(" / ")[0] in page)
        assert flat(euro_text(by_number[name].total_cents)) in line


def test_the_workbook_has_the_donations_sheet(evening, db):
    content = RankingsWorkbookExporter(evening).render().content
    book = openpyxl.load_workbook(io.BytesIO(content))
    assert "Spenden" in book.sheetnames and "Statistik" in book.sheetnames
    sheet = book["Spenden"]
    rows = list(sheet.iter_rows(values_only=True))
    header = list(rows[0])
    assert header == [
        "Startnummer",
        "Name",
        "Wertung",
        "Startgeld",
        "Startgeld bezahlt",
        "verlorene Spiele",
        "Spende",
        "Spende bezahlt",
        "offen",
    ]
    items = charity.statements(evening)
    for item, row in zip(items, rows[1:], strict=False):
        s = item.statement
        assert row[0] == s.start_number and row[1] == s.name
        assert row[3] == pytest.approx(s.fee_cents / 100)
        assert row[4] is s.fee_paid and row[5] == s.lost
        assert row[6] == pytest.approx(s.donation_cents / 100)
        assert row[8] == pytest.approx(s.open_cents / 100)
    assert sheet.cell(row=2, column=4).number_format == '#,##0.00 "€"'
    extra = rows[1 + len(items)]
    assert extra[1] == "Kuchenverkauf" and extra[6] == pytest.approx(85.5)
    total = charity.evening(evening)
    last = rows[-1]
    assert last[1].startswith("Summe des Abends")
    assert last[6] == pytest.approx((total.donations_cents + total.extra_cents) / 100)


def test_export_pdf_writes_donation_slips(evening, db, tmp_path: Path):
    out = tmp_path / "spenden.pdf"
    call_command("export_pdf", "donations", "--tournament", evening.slug, "--out", str(out))
    assert "Noch zu zahlen" in pdf_pages(out.read_bytes())[0]


def test_the_statistics_sheet_after_a_round_counts_the_games_up_to_it(db):
    tournament, _created = create_demo(9, 0, scored_rounds=2, slug="benefiz-nach-runde")
    played = {
        n: Game.objects.filter(
            sheet__table__round__tournament=tournament, sheet__table__round__number__lte=n
        ).count()
        for n in (1, 2)
    }
    assert 0 < played[1] < played[2]
    for after, expected in ((1, played[1]), (None, played[2])):
        content = RankingsWorkbookExporter(tournament).render(ExportOptions(round_number=after))
        sheet = openpyxl.load_workbook(io.BytesIO(content.content))["Statistik"]
        figures = {row[0]: row[1] for row in sheet.iter_rows(min_row=2, values_only=True)}
        assert figures["Spiele"] == expected
