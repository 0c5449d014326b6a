"""A plain list layout for the charity evening's PDFs (sub-rankings, the Pressebericht):
titled blocks of rows on A4 portrait pages, a new page when a block does not fit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from .base import GREY, LIGHT, MARGIN, TINT, Style, _draw_footer, _draw_text

BLOCK_TITLE = Style("bold", 14)
HEAD = Style("bold", 9)
CELL = Style(size=10)
ROW = 6 * mm


@dataclass(frozen=True)
class ListColumn:
    label: str
    share: float  # of the page's inner width
    align: str = "left"


class ListPages:
    """Draws blocks one below the other, with footers and page breaks."""

    def __init__(self, c: Canvas, pagesize: tuple[float, float], footer: str) -> None:
        self.c, self.pagesize, self.footer = c, pagesize, footer
        self.page = 0
        self.y = 0.0
        self.inner = pagesize[0] - 2 * MARGIN
        self._new_page()

    def _new_page(self) -> None:
        if self.page:
            self.c.showPage()
        self.page += 1
        _draw_footer(self.c, self.pagesize, self.footer, self.page)
        self.y = self.pagesize[1] - MARGIN

    def room(self, height: float) -> None:
        if self.y - height < MARGIN + 8 * mm:
            self._new_page()

    def text(self, text: str, style: Style, gap: float = 7 * mm) -> None:
        self.room(gap)
        _draw_text(self.c, MARGIN, self.y - gap + 2 * mm, text, style, self.inner)
        self.y -= gap

    def block(
        self, title: str, columns: Sequence[ListColumn], rows: Sequence[Sequence[str]]
    ) -> None:
        self.room(12 * mm + ROW * min(len(rows), 3))
        self.text(title, BLOCK_TITLE, 9 * mm)
        self._head(columns)
        for index, row in enumerate(rows):
            if self.y - ROW < MARGIN + 8 * mm:
                self._new_page()
                self._head(columns)
            if index % 2:
                self.c.setFillColor(LIGHT)
                self.c.rect(MARGIN, self.y - ROW, self.inner, ROW, stroke=0, fill=1)
            self._cells(columns, row, CELL)
            self.y -= ROW
        self.y -= 4 * mm

    def _head(self, columns: Sequence[ListColumn]) -> None:
        self.c.setFillColor(TINT)
        self.c.rect(MARGIN, self.y - ROW, self.inner, ROW, stroke=0, fill=1)
        self._cells(columns, [c.label for c in columns], HEAD)
        self.c.setStrokeColor(GREY)
        self.c.line(MARGIN, self.y - ROW, MARGIN + self.inner, self.y - ROW)
        self.y -= ROW

    def _cells(self, columns: Sequence[ListColumn], values: Sequence[str], style: Style) -> None:
        x = MARGIN
        base = self.y - ROW + 1.8 * mm
        for column, value in zip(columns, values, strict=True):
            width = column.share * self.inner
            pad = 1.5 * mm
            if column.align == "right":
                _draw_text(
                    self.c, x + width - pad, base, value, style.but(align="right"), width - 2 * pad
                )
            else:
                _draw_text(self.c, x + pad, base, value, style, width - 2 * pad)
            x += width
