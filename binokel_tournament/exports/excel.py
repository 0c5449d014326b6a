"""The rankings workbook (openpyxl): one sheet per competition, the long-format "Spiele" sheet
for pivot tables and the entrants — every sheet with a bold, frozen header, an autofilter,
column widths and number formats. Written in openpyxl's write-only mode, so 10,000 game rows
stay fast."""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence

from django.utils.translation import gettext_lazy as _lazy
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet

from .base import BaseExporter, ExportFile, ExportOptions
from .rows import RowTable, Value, workbook_tables

XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill("solid", fgColor="E7F0EA")
HEADER_ALIGNMENT = Alignment(vertical="center", wrap_text=True)
MAX_WIDTH = 45
INVALID_TITLE_CHARS = str.maketrans({c: "-" for c in "[]:*?/\\"})


def sheet_title(title: str, taken: set[str]) -> str:
    """An Excel sheet name: at most 31 characters, none of []:*?/\\, unique in the workbook."""
    base = title.translate(INVALID_TITLE_CHARS)[:31] or "Tabelle"
    candidate, n = base, 1
    while candidate.lower() in taken:
        n += 1
        candidate = f"{base[: 31 - len(str(n)) - 1]} {n}"
    taken.add(candidate.lower())
    return candidate


def fitted_widths(table: RowTable, sample: int = 2000) -> list[float]:
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


def _styled_cells(ws: WriteOnlyWorksheet, table: RowTable) -> list[WriteOnlyCell | None]:
    """One reusable cell per column that carries a number format (write-only mode writes a
    row as soon as it is appended, so a cell can be refilled for the next row)."""
    cells: list[WriteOnlyCell | None] = []
    for column in table.columns:
        if column.number_format:
            cell = WriteOnlyCell(ws)
            cell.number_format = column.number_format
            cells.append(cell)
        else:
            cells.append(None)
    return cells


def _row_cells(row: Sequence[Value], styled: Sequence[WriteOnlyCell | None]) -> Iterable[object]:
    for value, cell in zip(row, styled, strict=True):
        if cell is None or not isinstance(value, int) or isinstance(value, bool):
            yield value
        else:
            cell.value = value
            yield cell


def write_sheet(workbook: Workbook, table: RowTable, taken: set[str]) -> None:
    ws = workbook.create_sheet(sheet_title(table.title, taken))
    for index, width in enumerate(fitted_widths(table), start=1):
        ws.column_dimensions[get_column_letter(index)].width = width
    ws.freeze_panes = "A2"
    last = get_column_letter(len(table.columns))
    ws.auto_filter.ref = f"A1:{last}{len(table.rows) + 1}"
    header = []
    for label in table.header:
        cell = WriteOnlyCell(ws, value=label)
        cell.font = HEADER_FONT
        cell.fill = HEADER_FILL
        cell.alignment = HEADER_ALIGNMENT
        header.append(cell)
    ws.append(header)
    styled = _styled_cells(ws, table)
    for row in table.rows:
        ws.append(list(_row_cells(row, styled)))


def workbook_bytes(tables: Sequence[RowTable]) -> bytes:
    workbook = Workbook(write_only=True)
    taken: set[str] = set()
    for table in tables:
        write_sheet(workbook, table, taken)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


class RankingsWorkbookExporter(BaseExporter):
    """Rankings of every competition, all games and the entrants in one .xlsx file."""

    identifier = "rangliste"
    verbose_name = _lazy("Ranglisten und Spiele (Excel)")
    extension = "xlsx"
    content_type = XLSX_CONTENT_TYPE

    def render(self, options: ExportOptions | None = None) -> ExportFile:
        options = options or ExportOptions()
        tables = workbook_tables(self.tournament, options.round_number)
        suffix = f"nach-d{options.round_number}" if options.round_number else ""
        return ExportFile(self.filename(suffix), self.content_type, workbook_bytes(tables))
