"""Seating plans and table cards.

The seating plan of a round has three parts: the tables (who sits where, who deals first, who
keeps the score sheet), and the "Wo sitze ich?" lists for the door — by start number and by
name. When the tournament's public pages are on, every page carries a QR code to the public
"Wo sitze ich?" page. Table cards: one landscape page per table and round, large."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ...models import Tournament
from ..base import ExportOptions
from .base import (
    GREY,
    LANDSCAPE,
    LIGHT,
    MARGIN,
    PORTRAIT,
    TINT,
    PdfExporter,
    _draw_footer,
    _draw_qr,
    _draw_text,
    mode_title,
    round_title,
    tournament_line,
    where_url,
)
from .data import Player, TablePlan, load_tables, table_plan
from .fonts import fonts

# page header
TITLE_SIZE = 22
SUBTITLE_SIZE = 10
HEADER_HEIGHT = 20 * mm
QR_SIZE = 30 * mm
QR_HEADER_HEIGHT = 36 * mm
# table blocks (two columns, filled top to bottom)
COLUMNS = 2
COLUMN_GAP = 8 * mm
BLOCK_GAP = 5 * mm
BLOCK_HEAD = 9.5 * mm
SEAT_LINE = 6.8 * mm
BLOCK_PAD = 2.5 * mm
TABLE_SIZE = 17
SEAT_SIZE = 13
ROLE_SIZE = 9
NUMBER_WIDTH = 13 * mm
ROLE_WIDTH = 22 * mm
# lists for the door
LIST_LINE = 7 * mm
LIST_SIZE = 13
LIST_TABLE_WIDTH = 18 * mm
LIST_SEAT_WIDTH = 15 * mm
# table cards
CARD_TABLE_SIZE = 150
CARD_SEAT_SIZE = 26
CARD_SEAT_LINE = 16 * mm


@dataclass(frozen=True)
class ListRow:
    start_number: int
    name: str
    table: int
    seats: str
    sort_key: tuple[object, ...]


def name_key(name: str) -> str:
    """Sort key for names: case and accents ignored (Ä with A, ß as ss)."""
    decomposed = unicodedata.normalize("NFKD", name.casefold().replace("ß", "ss"))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def role_text(player: Player) -> str:
    if player.deals_first:
        return _("gibt zuerst")
    if player.keeps_score:
        return _("schreibt")
    return ""


def door_rows(plans: Sequence[TablePlan], by_name: bool) -> list[ListRow]:
    """By start number: one row per entrant (a pair's two chairs as "1 + 3"). By name: one row
    per person, since everybody looks for their own name."""
    rows: list[ListRow] = []
    for plan in plans:
        if by_name:
            for p in plan.players:
                key = (name_key(p.name), p.start_number)
                rows.append(ListRow(p.start_number, p.name, plan.number, str(p.seat), key))
            continue
        chairs: dict[int, list[Player]] = {}
        for p in plan.players:
            chairs.setdefault(p.start_number, []).append(p)
        for start_number, people in chairs.items():
            seats = " + ".join(str(p.seat) for p in people)
            row = ListRow(start_number, people[0].entrant_name, plan.number, seats, (start_number,))
            rows.append(row)
    rows.sort(key=lambda r: r.sort_key)
    return rows


class _PagedDrawing:
    """Page bookkeeping shared by the seating plan's parts: header (with the QR code when the
    public pages are on), footer with the page number, the y cursor of two columns."""

    def __init__(self, c: Canvas, exporter: PdfExporter) -> None:
        self.c = c
        self.exporter = exporter
        self.tournament: Tournament = exporter.tournament
        self.page = 0
        self.width, self.height = exporter.pagesize
        self.column_width = (self.width - 2 * MARGIN - (COLUMNS - 1) * COLUMN_GAP) / COLUMNS

    @property
    def with_qr(self) -> bool:
        return self.tournament.public_pages

    def start_page(self, title: str, subtitle: str) -> float:
        """Finish the previous page, draw the header; returns the y below it."""
        if self.page:
            self.c.showPage()
        self.page += 1
        f = self.exporter.fonts
        top = self.height - MARGIN
        text_width = self.width - 2 * MARGIN - (QR_SIZE + 4 * mm if self.with_qr else 0)
        _draw_text(self.c, MARGIN, top - 8 * mm, title, f.bold, TITLE_SIZE, text_width)
        _draw_text(
            self.c,
            MARGIN,
            top - 14 * mm,
            subtitle,
            f.regular,
            SUBTITLE_SIZE,
            text_width,
            color=GREY,
        )
        header = HEADER_HEIGHT
        if self.with_qr:
            url = where_url(self.tournament)
            x = self.width - MARGIN - QR_SIZE
            _draw_qr(self.c, x, top - QR_SIZE, QR_SIZE, url)
            _draw_text(
                self.c,
                x + QR_SIZE / 2,
                top - QR_SIZE - 3.5 * mm,
                _("Wo sitze ich?"),
                f.bold,
                9,
                QR_SIZE + 6 * mm,
                align="center",
            )
            _draw_text(
                self.c,
                MARGIN,
                top - 20 * mm,
                _("Online nachsehen: %(url)s") % {"url": url},
                f.regular,
                SUBTITLE_SIZE,
                text_width,
            )
            header = QR_HEADER_HEIGHT
        _draw_footer(self.c, self.exporter.pagesize, tournament_line(self.tournament), self.page)
        return top - header

    def column_x(self, column: int) -> float:
        return MARGIN + column * (self.column_width + COLUMN_GAP)


def _draw_table_block(c: Canvas, x: float, top: float, width: float, plan: TablePlan) -> float:
    """One table: number, kind, the chairs in order with start number, name and role.
    Returns the block's height."""
    f = fonts()
    height = BLOCK_HEAD + len(plan.players) * SEAT_LINE + BLOCK_PAD
    c.setStrokeColor(GREY)
    c.setLineWidth(0.6)
    c.setFillColor(TINT)
    c.roundRect(x, top - BLOCK_HEAD, width, BLOCK_HEAD, 1.5 * mm, stroke=0, fill=1)
    c.roundRect(x, top - height, width, height, 1.5 * mm, stroke=1, fill=0)
    base = top - BLOCK_HEAD + 2.6 * mm
    label = _("Tisch %(n)s") % {"n": plan.number}
    _draw_text(c, x + 2.5 * mm, base, label, f.bold, TABLE_SIZE)
    kind = f"{plan.kind_label} · {mode_title(plan.mode)}"
    _draw_text(
        c,
        x + width - 2.5 * mm,
        base,
        kind,
        f.regular,
        ROLE_SIZE,
        width / 2,
        align="right",
        color=GREY,
    )
    y = top - BLOCK_HEAD - SEAT_LINE + 1.8 * mm
    for player in plan.players:
        _draw_text(c, x + 2.5 * mm, y, f"{player.seat}.", f.regular, ROLE_SIZE + 1, color=GREY)
        _draw_text(
            c,
            x + 7 * mm + NUMBER_WIDTH - 2 * mm,
            y,
            str(player.start_number),
            f.bold,
            SEAT_SIZE,
            align="right",
        )
        name_x = x + 7 * mm + NUMBER_WIDTH
        name_width = width - (name_x - x) - ROLE_WIDTH
        _draw_text(c, name_x, y, player.name, f.regular, SEAT_SIZE, name_width, minimum=8)
        role = role_text(player)
        if role:
            _draw_text(
                c,
                x + width - 2.5 * mm,
                y,
                role,
                f.regular,
                ROLE_SIZE,
                ROLE_WIDTH - 3 * mm,
                align="right",
                color=GREY,
            )
        y -= SEAT_LINE
    return height


class SeatingPlanExporter(PdfExporter):
    identifier = "tischplan"
    verbose_name = _lazy("Tischplan (PDF)")
    pagesize = PORTRAIT

    def document_title(self, options: ExportOptions) -> str:
        return _("Tischplan")

    def draw(self, c: Canvas, options: ExportOptions) -> None:
        pages = _PagedDrawing(c, self)
        tables = load_tables(self.rounds(options))
        by_round: dict[int, list[TablePlan]] = {}
        for table in tables:
            by_round.setdefault(table.round.number, []).append(table_plan(table))
        for number, plans in by_round.items():
            self._draw_tables(pages, number, plans)
            for by_name in (False, True):
                self._draw_door_list(pages, number, door_rows(plans, by_name), by_name)

    def _subtitle(self) -> str:
        return tournament_line(self.tournament)

    def _draw_tables(self, pages: _PagedDrawing, number: int, plans: list[TablePlan]) -> None:
        title = _("Tischplan – %(round)s") % {"round": round_title(number)}
        bottom = MARGIN + 6 * mm
        top = pages.start_page(title, self._subtitle())
        column, y = 0, top
        for plan in plans:
            needed = BLOCK_HEAD + len(plan.players) * SEAT_LINE + BLOCK_PAD
            if y - needed < bottom:
                column += 1
                y = top
                if column == COLUMNS:
                    top = pages.start_page(title, self._subtitle())
                    column, y = 0, top
            y -= _draw_table_block(pages.c, pages.column_x(column), y, pages.column_width, plan)
            y -= BLOCK_GAP

    def _draw_door_list(
        self, pages: _PagedDrawing, number: int, rows: list[ListRow], by_name: bool
    ) -> None:
        order = _("nach Name") if by_name else _("nach Startnummer")
        title = _("Wo sitze ich? – %(round)s, %(order)s") % {
            "round": round_title(number),
            "order": order,
        }
        f = self.fonts
        c = pages.c
        bottom = MARGIN + 6 * mm
        top = pages.start_page(title, self._subtitle())
        column, y = 0, top - 7 * mm
        self._draw_list_head(pages, column, top)
        for index, row in enumerate(rows):
            if y - LIST_LINE < bottom:
                column += 1
                if column == COLUMNS:
                    top = pages.start_page(title, self._subtitle())
                    column = 0
                y = top - 7 * mm
                self._draw_list_head(pages, column, top)
            x = pages.column_x(column)
            width = pages.column_width
            if index % 2 == 0:
                c.setFillColor(LIGHT)
                c.rect(x, y - LIST_LINE, width, LIST_LINE, stroke=0, fill=1)
            base = y - LIST_LINE + 2.1 * mm
            _draw_text(
                c,
                x + NUMBER_WIDTH - 2 * mm,
                base,
                str(row.start_number),
                f.regular,
                LIST_SIZE,
                align="right",
            )
            name_width = width - NUMBER_WIDTH - LIST_TABLE_WIDTH - LIST_SEAT_WIDTH
            _draw_text(
                c, x + NUMBER_WIDTH, base, row.name, f.regular, LIST_SIZE, name_width, minimum=8
            )
            table_x = x + width - LIST_SEAT_WIDTH - LIST_TABLE_WIDTH / 2
            _draw_text(c, table_x, base, str(row.table), f.bold, LIST_SIZE + 2, align="center")
            _draw_text(
                c,
                x + width - LIST_SEAT_WIDTH / 2,
                base,
                row.seats,
                f.regular,
                LIST_SIZE,
                LIST_SEAT_WIDTH,
                align="center",
            )
            y -= LIST_LINE

    def _draw_list_head(self, pages: _PagedDrawing, column: int, top: float) -> None:
        f = self.fonts
        c = pages.c
        x = pages.column_x(column)
        width = pages.column_width
        base = top - 5 * mm
        _draw_text(c, x + NUMBER_WIDTH - 2 * mm, base, _("Nr."), f.bold, 10, align="right")
        _draw_text(c, x + NUMBER_WIDTH, base, _("Name"), f.bold, 10)
        _draw_text(
            c,
            x + width - LIST_SEAT_WIDTH - LIST_TABLE_WIDTH / 2,
            base,
            _("Tisch"),
            f.bold,
            10,
            align="center",
        )
        _draw_text(c, x + width - LIST_SEAT_WIDTH / 2, base, _("Platz"), f.bold, 10, align="center")
        c.setStrokeColor(GREY)
        c.setLineWidth(0.6)
        c.line(x, top - 6.5 * mm, x + width, top - 6.5 * mm)


class TableCardsExporter(PdfExporter):
    """One landscape page per table and round: the table number as large as it goes, the
    round, the kind of table and the chairs in dealing order."""

    identifier = "tischkarten"
    verbose_name = _lazy("Tischkarten (PDF)")
    pagesize = LANDSCAPE

    def document_title(self, options: ExportOptions) -> str:
        return _("Tischkarten")

    def draw(self, c: Canvas, options: ExportOptions) -> None:
        tables = load_tables(self.rounds(options))
        for index, table in enumerate(tables):
            if index:
                c.showPage()
            self._draw_card(c, table_plan(table))

    def _draw_card(self, c: Canvas, plan: TablePlan) -> None:
        f = self.fonts
        width, height = self.pagesize
        inner = width - 2 * MARGIN
        c.setStrokeColor(GREY)
        c.setLineWidth(1.2)
        c.roundRect(MARGIN, MARGIN, inner, height - 2 * MARGIN, 4 * mm, stroke=1, fill=0)
        _draw_text(
            c,
            width / 2,
            height - MARGIN - 11 * mm,
            tournament_line(self.tournament),
            f.regular,
            14,
            inner - 20 * mm,
            align="center",
            color=GREY,
        )
        label = _("Tisch %(n)s") % {"n": plan.number}
        _draw_text(
            c,
            width / 2,
            height - MARGIN - 66 * mm,
            label,
            f.bold,
            CARD_TABLE_SIZE,
            inner - 20 * mm,
            align="center",
            minimum=60,
        )
        sub = f"{round_title(plan.round_number)} · {plan.kind_label} · {mode_title(plan.mode)}"
        _draw_text(
            c,
            width / 2,
            height - MARGIN - 82 * mm,
            sub,
            f.regular,
            20,
            inner - 20 * mm,
            align="center",
        )
        y = height - MARGIN - 100 * mm
        left = MARGIN + 25 * mm
        for player in plan.players:
            _draw_text(c, left, y, f"{player.seat}.", f.regular, CARD_SEAT_SIZE, color=GREY)
            _draw_text(
                c,
                left + 40 * mm,
                y,
                str(player.start_number),
                f.bold,
                CARD_SEAT_SIZE,
                align="right",
            )
            _draw_text(
                c, left + 45 * mm, y, player.name, f.regular, CARD_SEAT_SIZE, 130 * mm, minimum=12
            )
            role = role_text(player)
            if role:
                _draw_text(
                    c,
                    width - MARGIN - 20 * mm,
                    y,
                    role,
                    f.regular,
                    CARD_SEAT_SIZE - 6,
                    align="right",
                    color=GREY,
                )
            y -= CARD_SEAT_LINE
