"""The rankings workbook (openpyxl): one sheet per competition, the long-format "Spiele" sheet
for pivot tables and the entrants — every sheet with a bold, frozen header, an autofilter,
column widths and number formats.

openpyxl builds the workbook: sheets, header rows, styles, frozen panes, filters, widths. The
data rows — 10,800 of them for 300 entrants with all games — are then written in the very cell
XML openpyxl itself writes in write-only mode (``<c r="A2" t="n"><v>…</v></c>``, strings as
inline strings), spliced into each sheet's ``<sheetData>``. One Python object per cell made
openpyxl take 1.4 s for the games alone; this way the whole workbook takes a fraction of that.
The tests read every value and number format back with openpyxl.

Text is written the way the format wants it (ECMA-376): characters XML 1.0 cannot hold are
left out, a literal ``_xHHHH_`` is escaped as ``_x005F_xHHHH_`` (else Excel would read it as an
escaped character), and a carriage return as ``&#13;`` (a raw one would be read as a line
feed). A value of a type the workbook does not hold is an error, not silently text."""

from __future__ import annotations

import io
import math
import re
import zipfile
from collections.abc import Sequence
from xml.sax.saxutils import escape

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
# characters XML 1.0 does not allow (openpyxl refuses the control characters too); lone
# surrogates cannot even be encoded as UTF-8
ILLEGAL_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
# text that a reader would take for an escaped character, "_x0041_" (ST_Xstring)
OOXML_ESCAPE = re.compile(r"_(x[0-9A-Fa-f]{4}_)")
SHEET_DATA_END = b"</sheetData>"


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


def _text_xml(text: str) -> str:
    """An inline string's ``<is>`` element (see the module's docstring)."""
    text = ILLEGAL_XML.sub("", text)
    space = ' xml:space="preserve"' if text != text.strip() else ""
    if "_x" in text:
        text = OOXML_ESCAPE.sub(r"_x005F_\1", text)
    text = escape(text)
    if "\r" in text:
        text = text.replace("\r", "&#13;")
    return f"<is><t{space}>{text}</t></is>"


def _number_xml(value: float) -> str:
    if not math.isfinite(value):
        raise ValueError(f"a workbook cell cannot hold {value!r}")
    return repr(value)


def rows_xml(rows: Sequence[Sequence[Value]], styles: Sequence[int | None], first: int) -> str:
    """``<row>`` elements for ``rows`` (numbered from ``first``), as openpyxl writes them:
    numbers (with the column's style id when it has a number format), booleans, inline
    strings; empty cells are left out. Any other type (Decimal, date …) is a ``TypeError``:
    the rows hold plain values only."""
    letters = [get_column_letter(i) for i in range(1, len(styles) + 1)]
    number_attrs = [f' s="{s}"' if s else "" for s in styles]
    texts: dict[str, str] = {}  # names and kinds repeat: escape each once
    out: list[str] = []
    append = out.append
    for r, row in enumerate(rows, start=first):
        append(f'<row r="{r}">')
        for letter, attrs, value in zip(letters, number_attrs, row, strict=True):
            if value is None or value == "":
                continue
            if isinstance(value, bool):
                append(f'<c r="{letter}{r}" t="b"><v>{int(value)}</v></c>')
            elif isinstance(value, int):
                append(f'<c r="{letter}{r}" t="n"{attrs}><v>{int(value)}</v></c>')
            elif isinstance(value, str):
                xml = texts.get(value)
                if xml is None:
                    xml = texts[value] = _text_xml(value)
                append(f'<c r="{letter}{r}" t="inlineStr">{xml}</c>')
            elif isinstance(value, float):
                append(f'<c r="{letter}{r}" t="n"{attrs}><v>{_number_xml(value)}</v></c>')
            else:
                raise TypeError(
                    f"cell {letter}{r}: a workbook row holds text, numbers and booleans, "
                    f"not {type(value).__name__}"
                )
        append("</row>")
    return "".join(out)


def _start_sheet(
    workbook: Workbook, table: RowTable, taken: set[str]
) -> tuple[WriteOnlyWorksheet, list[int | None]]:
    """Create the sheet with its header, widths, frozen header and filter; returns it with
    the style id of each column's number format."""
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
    styles: list[int | None] = []
    for column in table.columns:
        if column.number_format:
            cell = WriteOnlyCell(ws)
            cell.number_format = column.number_format
            styles.append(cell.style_id)  # registers the format in the workbook's styles
        else:
            styles.append(None)
    return ws, styles


def workbook_bytes(tables: Sequence[RowTable]) -> bytes:
    workbook = Workbook(write_only=True)
    taken: set[str] = set()
    sheets = []
    for table in tables:
        ws, styles = _start_sheet(workbook, table, taken)
        sheets.append((ws, rows_xml(table.rows, styles, first=2).encode()))
    skeleton = io.BytesIO()
    workbook.save(skeleton)
    # a sheet's part name is known once the workbook is saved
    data = {ws.path.lstrip("/"): rows for ws, rows in sheets}
    out = io.BytesIO()
    with (
        zipfile.ZipFile(skeleton) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for info in source.infolist():
            content = source.read(info.filename)
            if info.filename in data:
                assert content.count(SHEET_DATA_END) == 1, info.filename
                content = content.replace(SHEET_DATA_END, data[info.filename] + SHEET_DATA_END)
            target.writestr(info, content, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


class RankingsWorkbookExporter(BaseExporter):
    """Rankings of every competition, all games and the entrants in one .xlsx file."""

    identifier = "rangliste"
    verbose_name = _lazy("Ranglisten und Spiele (Excel)")
    extension = "xlsx"
    content_type = XLSX_CONTENT_TYPE

    def render(self, options: ExportOptions | None = None) -> ExportFile:
        options = options or ExportOptions()
        number = self.round_number(options)
        tables = workbook_tables(self.tournament, number)
        suffix = f"nach-d{number}" if number else ""
        return ExportFile(self.filename(suffix), self.content_type, workbook_bytes(tables))
