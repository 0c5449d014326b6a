"""The rankings workbook (XlsxWriter): one sheet per competition, the long-format "Spiele" sheet
for pivot tables and the entrants — every sheet with a bold, frozen header, an autofilter,
column widths and number formats. The tests read every value and number format back with
openpyxl.

Only XlsxWriter's public API: a column's number format is set once on the column
(``set_column``), which XlsxWriter applies to every cell written without a format of its own,
so the 10,800 rows of "Spiele" for 300 entrants are written with one call per cell and no
format objects. Text is written as text (``write_string``: a name like ``=HYPERLINK(…)`` never
becomes a formula, ``http://…`` never a link), numbers as numbers, booleans as booleans; empty
cells are left out.

Text: characters XML 1.0 cannot hold are left out (lone surrogates cannot even be encoded as
UTF-8); XlsxWriter writes the rest the way the format wants it (ECMA-376 ``ST_Xstring``): a
literal ``_xHHHH_`` as ``_x005F_xHHHH_``, a carriage return as ``_x000D_``, and keeps leading
and trailing spaces. A value of a type the workbook does not hold (Decimal, date …, NaN or an
infinite float) is an error, not silently text."""

from __future__ import annotations

import gc
import io
import math
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import xlsxwriter
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from xlsxwriter.format import Format
from xlsxwriter.worksheet import Worksheet

from ..models import Competition, Mode, Tournament
from ..services.evening.standings import compute_standings
from .base import BaseExporter, ExportFile, ExportOptions, Offer
from .charity_rows import charity_tables
from .rows import entrants_rows, games_rows, standings_rows
from .table import RowTable, Value

XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
HEADER_STYLE = {
    "bold": True,
    "pattern": 1,
    "bg_color": "#E7F0EA",
    "valign": "vcenter",
    "text_wrap": True,
}
# text stays text, an infinite float is an error: never guessed numbers, formulas or links
WORKBOOK_OPTIONS = {
    "in_memory": True,
    "strings_to_numbers": False,
    "strings_to_formulas": False,
    "strings_to_urls": False,
    "nan_inf_to_errors": False,
}
MAX_WIDTH = 45
WIDTH_SAMPLE = 2000  # rows looked at to fit a column's width
INVALID_TITLE_CHARS = str.maketrans({c: "-" for c in "[]:*?/\\"})
# characters XML 1.0 does not allow; lone surrogates cannot even be encoded as UTF-8
ILLEGAL_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def sheet_title(title: str, taken: set[str]) -> str:
    """An Excel sheet name: at most 31 characters, none of []:*?/\\, not starting or ending
    with an apostrophe, unique in the workbook (Excel compares names case-insensitively)."""
    base = title.translate(INVALID_TITLE_CHARS)[:31].strip("'") or "Tabelle"
    candidate, n = base, 1
    while candidate.lower() in taken:
        n += 1
        candidate = f"{base[: 31 - len(str(n)) - 1]} {n}"
    taken.add(candidate.lower())
    return candidate


def fitted_widths(table: RowTable, sample: int = WIDTH_SAMPLE) -> list[float]:
    """Each column's width: the given one, or the longest text among header and rows."""
    widths = []
    for index, column in enumerate(table.columns):
        if column.width is not None:
            widths.append(column.width)
            continue
        longest = len(column.label)
        for row in table.rows[:sample]:
            value = row[index]
            if value is not None:
                longest = max(longest, len(str(value)))
        widths.append(min(longest + 2, MAX_WIDTH))
    return widths


def cell_text(text: str) -> str:
    """``text`` without the characters XML cannot hold (XlsxWriter escapes the rest)."""
    return ILLEGAL_XML.sub("", text)


def write_rows(ws: Worksheet, rows: Sequence[Sequence[Value]], first: int) -> None:
    """Write ``rows`` from row ``first`` (0-based) on: text, numbers and booleans; empty cells
    are left out. Any other type (Decimal, date …) is a ``TypeError``, a NaN or infinite
    float a ``ValueError``: the rows hold plain values only. The common types are tested
    inline, in the order of their frequency: this loop runs once per cell (162,000 cells in
    the workbook of 300 entrants)."""
    write_number, write_string, write_boolean = ws.write_number, ws.write_string, ws.write_boolean
    texts: dict[str, str] = {}  # names and kinds repeat: clean each once
    for r, row in enumerate(rows, start=first):
        for c, value in enumerate(row):
            kind = type(value)
            if kind is int:
                write_number(r, c, value)
            elif kind is str:
                if value:
                    cleaned = texts.get(value)  # type: ignore[arg-type]
                    if cleaned is None:
                        cleaned = texts[value] = cell_text(value)  # type: ignore[index,arg-type]
                    write_string(r, c, cleaned)
            elif kind is bool:
                write_boolean(r, c, value)
            elif value is not None:
                _write_other(ws, r, c, value)


def _write_other(ws: Worksheet, r: int, c: int, value: object) -> None:
    """A float (finite only), or a subclass of str, int or float (an IntEnum, say);
    anything else is a ``TypeError``."""
    if isinstance(value, bool):
        ws.write_boolean(r, c, value)
    elif isinstance(value, str):
        if value:
            ws.write_string(r, c, cell_text(value))
    elif isinstance(value, int | float):
        if not math.isfinite(value):
            raise ValueError(f"a workbook cell cannot hold {value!r}")
        ws.write_number(r, c, value)
    else:
        raise TypeError(
            f"cell {r + 1}/{c + 1}: a workbook row holds text, numbers and booleans, "
            f"not {type(value).__name__}"
        )


def _add_sheet(
    workbook: xlsxwriter.Workbook,
    table: RowTable,
    taken: set[str],
    header: Format,
    formats: dict[str, Format],
) -> None:
    """One sheet: widths and number formats per column, the header row (bold, filled,
    frozen, with an autofilter over every row), then the rows."""
    ws = workbook.add_worksheet(sheet_title(table.title, taken))
    for index, (column, width) in enumerate(zip(table.columns, fitted_widths(table), strict=True)):
        number_format = None
        if column.number_format:
            number_format = formats.get(column.number_format)
            if number_format is None:
                number_format = formats[column.number_format] = workbook.add_format(
                    {"num_format": column.number_format}
                )
        ws.set_column(index, index, width, number_format)
    for index, label in enumerate(table.header):
        ws.write_string(0, index, cell_text(label), header)
    ws.freeze_panes(1, 0)
    ws.autofilter(0, 0, len(table.rows), len(table.columns) - 1)
    write_rows(ws, table.rows, first=1)


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while a workbook is built: the rows and
    XlsxWriter's cells are some 400,000 small objects without cycles, and the collections
    they would set off (each walking every object of the process) took a fifth of the
    workbook's time (``benchmarks/exports.py``). Reference counting still frees everything;
    the collector runs again at once afterwards, also after an error."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def workbook_bytes(tables: Sequence[RowTable]) -> bytes:
    out = io.BytesIO()
    workbook = xlsxwriter.Workbook(out, WORKBOOK_OPTIONS)
    header = workbook.add_format(HEADER_STYLE)
    formats: dict[str, Format] = {}
    taken: set[str] = set()
    try:
        for table in tables:
            _add_sheet(workbook, table, taken, header, formats)
    finally:
        workbook.close()
    return out.getvalue()


class RankingsWorkbookExporter(BaseExporter):
    """Rankings of every competition, all games and the entrants in one .xlsx file."""

    identifier = "workbook"
    verbose_name = gettext_lazy("Ranglisten und Spiele (Excel)")
    file_stem = "rangliste"
    extension = "xlsx"
    content_type = XLSX_CONTENT_TYPE

    @classmethod
    def offers(cls, competitions: Sequence[Competition]) -> list[Offer]:
        return [Offer(_("Ranglisten, Spiele, Teilnehmer"))]

    def render(self, options: ExportOptions | None = None) -> ExportFile:
        options = options or ExportOptions()
        number = self.round_number(options)
        with collector_paused():
            content = workbook_bytes(workbook_tables(self.tournament, number))
        suffix = f"nach-d{number}" if number else ""
        return ExportFile(self.filename(suffix), self.content_type, content)


def workbook_tables(tournament: Tournament, after_round: int | None = None) -> list[RowTable]:
    """The rankings workbook's sheets: one per competition, then "Spiele", then the entrants;
    after a round: the standings after it and the games up to it."""
    competitions = sorted(tournament.competitions.all(), key=lambda c: c.mode != Mode.SINGLES)
    computed = {c.pk: compute_standings(c, after_round) for c in competitions}
    tables = [standings_rows(c, after_round, computed[c.pk]) for c in competitions]
    tables.append(games_rows(tournament, after_round))
    tables.append(entrants_rows(tournament))
    tables += charity_tables(tournament, after_round, computed)
    return tables
