"""Seating plan (by table, and "Wo sitze ich?" by start number and by name, with a QR code to
the public page when the public pages are on) and table cards."""

from __future__ import annotations

import io
import re

import pdfplumber
import pytest
from reportlab.lib.pagesizes import A4

from binokel_tournament.exports import ExportError, ExportOptions
from binokel_tournament.exports.pdf import SeatingPlanExporter, TableCardsExporter
from binokel_tournament.exports.pdf.seating import list_name_width, name_key, name_lines
from binokel_tournament.models import Seat, Table, TableKind

from .reading import assert_fits_a4, column_text, lines, pdf_pages

pytestmark = pytest.mark.django_db

HALF = A4[0] / 2


def chairs(table: Table) -> list[tuple[int, str]]:
    """(start number, person) per chair in dealing order; a pair table's partners crosswise."""
    seats = [s.entrant for s in Seat.objects.filter(table=table).order_by("position")]
    if table.kind == TableKind.PAIRS:
        return [(e.start_number, e.name) for e in seats] + [
            (e.start_number, e.partner) for e in seats
        ]
    return [(e.start_number, e.name) for e in seats]


def test_the_plan_by_table_lists_every_chair_with_who_deals_and_who_writes(demo):
    result = SeatingPlanExporter(demo).render(ExportOptions(round_number=1))
    assert result.filename == f"{demo.slug}-tischplan-d1.pdf"
    pages = pdf_pages(result)
    assert len(pages) == 3  # by table, by start number, by name: one page each at this size
    assert pages[0].startswith("Tischplan – 1. Durchgang")
    text = column_text(result, 0, 0, HALF) + "\n" + column_text(result, 0, HALF, A4[0])
    found = lines(text)
    for table in Table.objects.filter(round__tournament=demo, round__number=1):
        assert f"Tisch {table.number}" in found
        people = chairs(table)
        for chair, (number, name) in enumerate(people, start=1):
            role = {1: " gibt zuerst", 3: " schreibt"}.get(chair, "")
            assert f"{chair}. {number} {name}{role}" in found, (table.number, chair)


def test_where_do_i_sit_lists_by_start_number_and_by_name(demo):
    exporter = SeatingPlanExporter(demo)
    result = exporter.render(ExportOptions(round_number=1))
    pages = pdf_pages(result)
    assert pages[1].startswith("Wo sitze ich? – 1. Durchgang, nach Startnummer")
    assert pages[2].startswith("Wo sitze ich? – 1. Durchgang, nach Name")
    seats = Seat.objects.filter(table__round__tournament=demo, table__round__number=1)
    seats = seats.select_related("entrant", "table")
    by_number = lines(pages[1])
    numbers, wrapped = [], 0
    for seat in seats:
        e, t = seat.entrant, seat.table
        chair = str(seat.position)
        if t.kind == TableKind.PAIRS:
            chair = f"{seat.position} + {seat.position + 2}"
        # a pair's names go on two lines exactly when they would have to shrink on one
        if len(name_lines(e.display_name, list_name_width(exporter.pagesize[0]))) == 1:
            assert f"{e.start_number} {e.display_name} {t.number} {chair}" in by_number
        else:
            assert f"{e.start_number} {e.name} / {t.number} {chair}" in by_number
            assert e.partner in by_number
            wrapped += 1
        numbers.append(e.start_number)
    listed = [int(m.group(1)) for m in map(re.compile(r"^(\d+) \D").match, by_number) if m]
    assert listed == sorted(numbers)
    assert wrapped  # the demo has pairs whose names need two lines

    by_name = [line for line in lines(pages[2]) if re.match(r"^\d+ \D.* \d+ \d$", line)]
    names = [re.match(r"^\d+ (.*) \d+ \d$", line).group(1) for line in by_name]
    people = [p for seat in seats for p in ([seat.entrant.name, seat.entrant.partner])]
    assert sorted(names) == sorted(p for p in people if p)
    assert names == sorted(names, key=lambda n: (name_key(n.split()[-1]), name_key(n)))


def test_where_do_i_sit_by_name_goes_by_surname_then_first_name(demo):
    """People look for their surname: Zeller after Abele, whatever their first names; the
    same surname by first name; umlauts with their vowel; a "Surname, First" entry too."""
    names = [
        "Zoe Abele",
        "Ägidius Bauer",
        "Bernd Öttinger",
        "Anna-Lena Zeller",
        "Xaver Zeller",
        "Zeller, Yvonne",
        "Anton Zügel",
    ]
    singles = Seat.objects.filter(
        table__round__tournament=demo, table__round__number=1, table__kind=TableKind.THREE
    ).select_related("entrant")
    for seat, name in zip(reversed(list(singles)), reversed(names), strict=False):
        seat.entrant.name = name
        seat.entrant.save()
    pages = pdf_pages(SeatingPlanExporter(demo).render(ExportOptions(round_number=1)))
    listed = [
        m.group(1)
        for m in map(re.compile(r"^\d+ (.*) \d+ \d$").match, lines(pages[2]))
        if m and m.group(1) in names
    ]
    assert listed == names


def test_a_qr_code_and_the_link_when_the_public_pages_are_on(demo, settings):
    settings.PUBLIC_BASE_URL = "https://binokel.example.org/"
    url = f"https://binokel.example.org/t/{demo.slug}/wo-sitze-ich/"
    result = SeatingPlanExporter(demo).render(ExportOptions(round_number=1))
    with pdfplumber.open(io.BytesIO(result.content)) as pdf:
        for page in pdf.pages:
            text = page.extract_text()
            assert f"Online nachsehen: {url}" in text and "Wo sitze ich?" in text
            corner = [r for r in page.rects if r["x0"] > A4[0] - 130 and r["top"] < 130]
            assert len(corner) > 100  # the QR code's dark modules
    demo.public_pages = False
    demo.save()
    result = SeatingPlanExporter(demo).render(ExportOptions(round_number=1))
    with pdfplumber.open(io.BytesIO(result.content)) as pdf:
        for page in pdf.pages:
            assert "Online nachsehen" not in page.extract_text()
            assert not [r for r in page.rects if r["x0"] > A4[0] - 130 and r["top"] < 130]


def test_the_plan_of_every_round_and_many_tables_over_several_pages(demo):
    result = SeatingPlanExporter(demo).render()
    pages = pdf_pages(result)
    assert [p.split("\n")[0] for p in pages] == [
        f"Tischplan – {n}. Durchgang" if kind == 0 else f"Wo sitze ich? – {n}. Durchgang, {o}"
        for n in (1, 2, 3)
        for kind, o in enumerate(["", "nach Startnummer", "nach Name"])
    ]
    assert_fits_a4(result, landscape=False)


def test_table_cards_one_page_per_table_with_a_large_number(demo):
    result = TableCardsExporter(demo).render(ExportOptions(round_number=2))
    tables = list(Table.objects.filter(round__tournament=demo, round__number=2).order_by("number"))
    pages = pdf_pages(result)
    assert len(pages) == len(tables)
    with pdfplumber.open(io.BytesIO(result.content)) as pdf:
        for table, page in zip(tables, pdf.pages, strict=True):
            found = lines(page.extract_text(y_tolerance=8))  # role and name share a baseline
            assert f"Tisch {table.number}" in found
            assert f"2. Durchgang · {table.get_kind_display()} · " in " ".join(found)
            for chair, (number, name) in enumerate(chairs(table), start=1):
                role = {1: " gibt zuerst", 3: " schreibt"}.get(chair, "")
                assert f"{chair}. {number} {name}{role}" in found
            biggest = max(c["size"] for c in page.chars)
            assert biggest > 100  # the table number, readable across the hall
    assert_fits_a4(result, landscape=True)


def test_no_seating_yet_is_a_message(db):
    from binokel_tournament.services.evening.registration import create_tournament

    tournament = create_tournament("Ohne Plan")
    with pytest.raises(ExportError, match="noch keinen Spielplan"):
        SeatingPlanExporter(tournament).render()
    with pytest.raises(ExportError):
        TableCardsExporter(tournament).render()
