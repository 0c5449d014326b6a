"""The rankings workbook (one sheet per competition, "Spiele" in long format, the entrants)
read back with openpyxl, and the CSV files made from the same rows."""

from __future__ import annotations

import csv
import io
from collections import defaultdict

import pytest
from openpyxl import load_workbook

from binokel_tournament.exports import CsvExporter, ExportError
from binokel_tournament.exports import RankingsWorkbookExporter as Workbook
from binokel_tournament.exports.rows import POINTS_FORMAT, games_rows, standings_rows
from binokel_tournament.models import Mode, PartyResult, SheetStatus
from binokel_tournament.services.registration import read_table_file, rows_to_import
from binokel_tournament.services.standings import compute_standings

pytestmark = pytest.mark.django_db


def open_workbook(demo):
    result = Workbook(demo).render()
    assert result.filename == f"{demo.slug}-rangliste.xlsx"
    assert result.content_type.startswith("application/vnd.openxmlformats")
    return load_workbook(io.BytesIO(result.content))


def sheet_dicts(ws) -> list[dict[str, object]]:
    rows = list(ws.iter_rows(values_only=True))
    return [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]


def test_one_sheet_per_competition_then_games_then_entrants(demo):
    wb = open_workbook(demo)
    assert wb.sheetnames == ["Einzel", "Paare", "Spiele", "Teilnehmer"]
    for ws in wb.worksheets:
        assert ws.freeze_panes == "A2"
        assert ws.auto_filter.ref == f"A1:{ws.cell(1, ws.max_column).column_letter}{ws.max_row}"
        assert all(cell.font.b for cell in ws[1])
        assert all(ws.column_dimensions[c.column_letter].width >= 7 for c in ws[1])


def test_a_competition_sheet_holds_the_ranking_with_tie_breaks(demo):
    wb = open_workbook(demo)
    singles = compute_standings(demo.competitions.get(mode=Mode.SINGLES), 1)
    ws = wb["Einzel"]
    header = [c.value for c in ws[1]]
    assert header == [
        "Platz",
        "Startnummer",
        "Name",
        "Verein",
        "1. Durchgang",
        "Gesamt",
        "gew. Spiele",
        "bester Durchgang",
    ]
    rows = sheet_dicts(ws)
    assert len(rows) == len(singles.rows) == 13
    for got, row in zip(rows, singles.rows, strict=True):
        assert got["Platz"] == row.place
        assert got["Startnummer"] == row.entrant.start_number
        assert got["Name"] == row.entrant.name
        assert (got["Verein"] or "") == row.entrant.club
        assert got["1. Durchgang"] == row.round_points[0]
        assert got["Gesamt"] == row.total
        assert got["gew. Spiele"] == row.declarer_wins
        assert got["bester Durchgang"] == row.best_round
    assert ws["F2"].number_format == POINTS_FORMAT
    assert ws["B2"].number_format == "0"
    assert isinstance(ws["F2"].value, int)

    pairs = sheet_dicts(wb["Paare"])
    pair_rows = compute_standings(demo.competitions.get(mode=Mode.PAIRS), 1).rows
    assert [(r["Name"], r["Partner/in"], r["Gesamt"]) for r in pairs] == [
        (r.entrant.name, r.entrant.partner, r.total) for r in pair_rows
    ]


def test_the_games_sheet_has_one_row_per_party_per_game(demo):
    rows = sheet_dicts(open_workbook(demo)["Spiele"])
    results = PartyResult.objects.filter(
        game__sheet__table__round__tournament=demo, game__sheet__status=SheetStatus.CONFIRMED
    )
    assert len(rows) == results.count() > 100
    assert list(rows[0]) == [
        "Wertung",
        "Durchgang",
        "Tisch",
        "Spiel",
        "Startnummer",
        "Name",
        "Spielmacher",
        "Art",
        "Reizwert",
        "Meldung",
        "Stiche",
        "Punkte",
        "gewonnen",
        "verworfen",
        "setzt aus",
    ]
    # every game once per party, one declarer each, the points add up to the standings
    games = defaultdict(list)
    for r in rows:
        games[(r["Durchgang"], r["Tisch"], r["Spiel"])].append(r)
    for parties in games.values():
        assert len(parties) in (2, 3, 4)
        assert sum(1 for p in parties if p["Spielmacher"]) == 1
        assert len({p["Art"] for p in parties}) == 1
    points = defaultdict(int)
    for r in rows:
        points[r["Startnummer"]] += r["Punkte"]
    for mode in Mode.values:
        for row in compute_standings(demo.competitions.get(mode=mode), 1).rows:
            assert points[row.entrant.start_number] == row.total
    sitting_out = [r for r in rows if r["setzt aus"]]
    assert sitting_out and all(r["Punkte"] == 0 and r["Meldung"] is None for r in sitting_out)
    assert {r["Art"] for r in rows} <= {"gespielt", "abgeschrieben", "Durch"}


def test_the_entrants_sheet_reads_back_through_the_registration_import(demo):
    wb_bytes = Workbook(demo).render().content
    wb = load_workbook(io.BytesIO(wb_bytes))
    entrants = sheet_dicts(wb["Teilnehmer"])
    assert [e["Startnummer"] for e in entrants] == list(range(1, 18))
    # the .xlsx import shares the CSV import's column mapping: our headers are understood
    sheet = wb["Teilnehmer"]
    out = io.BytesIO()
    wb.move_sheet(sheet, offset=-wb.index(sheet))
    wb.save(out)
    imported = rows_to_import(read_table_file("teilnehmer.xlsx", out.getvalue()))
    expected = demo.entrants.order_by("start_number")
    assert [(r.start_number, r.name, r.partner, r.club) for r in imported] == [
        (e.start_number, e.name, e.partner, e.club) for e in expected
    ]


def test_csv_comes_from_the_same_rows_as_the_workbook(demo):
    wb = open_workbook(demo)
    for table, sheet in (
        (Mode.SINGLES, "Einzel"),
        (Mode.PAIRS, "Paare"),
        ("spiele", "Spiele"),
        ("teilnehmer", "Teilnehmer"),
    ):
        result = CsvExporter(demo, table).render()
        assert result.content.startswith("\ufeff".encode())
        assert result.content_type.startswith("text/csv")
        text = result.content.decode("utf-8-sig")
        csv_rows = list(csv.reader(io.StringIO(text), delimiter=";"))
        xlsx_rows = list(wb[sheet].iter_rows(values_only=True))
        assert len(csv_rows) == len(xlsx_rows)
        for got, want in zip(csv_rows, xlsx_rows, strict=True):
            assert got == [_as_csv(v) for v in want]


def _as_csv(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def test_csv_of_the_entrants_imports_back(demo):
    data = CsvExporter(demo, "teilnehmer").render().content
    imported = rows_to_import(read_table_file("teilnehmer.csv", data))
    assert [r.name for r in imported] == list(
        demo.entrants.order_by("start_number").values_list("name", flat=True)
    )


def test_rows_can_be_taken_after_a_round(demo):
    singles = demo.competitions.get(mode=Mode.SINGLES)
    table = standings_rows(singles, after_round=3)
    assert [c.label for c in table.columns][4:7] == ["1. Durchgang", "2. Durchgang", "3. Durchgang"]
    assert table.column("total") == [r.total for r in compute_standings(singles).rows]
    assert games_rows(demo).title == "Spiele"


def test_an_unknown_csv_table_is_refused(demo):
    with pytest.raises(ExportError):
        CsvExporter(demo, "kasse")


def test_awkward_text_survives_the_workbook(demo):
    entrant = demo.entrants.order_by("start_number").first()
    entrant.name = " Anna <Müller> & Söhne\x07 "
    entrant.club = 'Verein "1. FC" – Köngen'
    entrant.save()
    wb = open_workbook(demo)
    first = sheet_dicts(wb["Teilnehmer"])[0]
    assert first["Name"] == " Anna <Müller> & Söhne "  # the bell character XML cannot hold
    assert first["Verein"] == 'Verein "1. FC" – Köngen'
