"""Seating plans and table cards.

The seating plan of a round has three parts: the tables (who sits where, who deals first, who
keeps the score sheet), and the "Wo sitze ich?" lists for the door — by start number and by
name (surname first). When the tournament's public pages are on, every page carries a QR code
to the public "Wo sitze ich?" page — if the address is one a phone can reach (see
``where_url``). Table cards: one landscape page per table and round, large."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ...services.server.public_links import draw_qr, where_url
from ..base import ExportOptions
from .base import (
    GREY,
    LANDSCAPE,
    LIGHT,
    MARGIN,
    PORTRAIT,
    TINT,
    PdfExporter,
    Style,
    _draw_footer,
    _draw_text,
    mode_title,
    round_title,
    table_link,
    tournament_line,
)
from .data import Player, TablePlan, load_tables, table_plan
from .fonts import fonts

# page header
TITLE = Style("bold", 22)
SUBTITLE = Style(size=10, color=GREY)
URL_LINE = Style(size=10)
QR_CAPTION = Style("bold", 9, align="center")
HEADER_HEIGHT = 20 * mm
QR_SIZE = 30 * mm
QR_HEADER_HEIGHT = 36 * mm
BOTTOM = MARGIN + 6 * mm  # above the footer
# table blocks (two columns, filled top to bottom)
COLUMNS = 2
COLUMN_GAP = 8 * mm
BLOCK_GAP = 5 * mm
BLOCK_HEAD = 9.5 * mm
BLOCK_PAD = 2.5 * mm
BLOCK_INSET = 2.5 * mm
SEAT_LINE = 6.8 * mm
NUMBER_WIDTH = 13 * mm
ROLE_WIDTH = 22 * mm
TABLE_LABEL = Style("bold", 17)
TABLE_KIND = Style(size=9, color=GREY, align="right")
CHAIR = Style(size=10, color=GREY)
START_NUMBER = Style("bold", 13, align="right")
NAME = Style(size=13, minimum=8)
ROLE = Style(size=9, color=GREY, align="right")
# lists for the door
LIST_HEAD = 7 * mm
LIST_LINE = 7 * mm
LIST_NEXT_LINE = 5.6 * mm  # a pair's second name
LIST_TABLE_WIDTH = 18 * mm
LIST_SEAT_WIDTH = 15 * mm
LIST_HEAD_STYLE = Style("bold", 10)
LIST_NUMBER = Style(size=13, align="right")
LIST_NAME = Style(size=13, minimum=8)
LIST_TABLE = Style("bold", 15, align="center")
LIST_SEAT = Style(size=13, align="center")
# table cards (landscape)
CARD_INSET = 20 * mm
CARD_TOURNAMENT = Style(size=14, color=GREY, align="center")
CARD_TABLE = Style("bold", 150, align="center", minimum=60)
CARD_SUBTITLE = Style(size=20, align="center")
CARD_FIRST_SEAT = 100 * mm  # below the top margin
CARD_SEAT_LINE = 16 * mm
CARD_CHAIR = Style(size=26, color=GREY)
CARD_NUMBER = Style("bold", 26, align="right")
CARD_NAME = Style(size=26, minimum=12)
CARD_ROLE = Style(size=20, color=GREY, align="right")
CARD_QR = 40 * mm  # the table's own link: the phone that enters the games scans it
CARD_QR_CAPTION = Style(size=11, color=GREY, align="center")


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


def surname_key(name: str) -> tuple[str, str]:
    """Sort key for the list by name: the surname — the last word, or what comes before the
    comma of "Zeller, Yvonne" — then the first names; see ``name_key``."""
    if "," in name:
        surname, _sep, first = name.partition(",")
    else:
        *first_names, surname = name.split() or [""]
        first = " ".join(first_names)
    return name_key(surname.strip()), name_key(first.strip())


def column_width(page_width: float) -> float:
    return (page_width - 2 * MARGIN - (COLUMNS - 1) * COLUMN_GAP) / COLUMNS


def list_name_width(page_width: float) -> float:
    """The name's room in a "Wo sitze ich?" list: what number, table and seat leave."""
    return column_width(page_width) - NUMBER_WIDTH - LIST_TABLE_WIDTH - LIST_SEAT_WIDTH


def name_lines(name: str, width: float) -> list[str]:
    """A pair's names on two lines ("A /", "B") when they would have to shrink on one."""
    font = fonts().regular
    if " / " not in name or stringWidth(name, font, LIST_NAME.size * 0.85) <= width:
        return [name]
    first, second = name.split(" / ", 1)
    return [f"{first} /", second]


def role_text(player: Player) -> str:
    if player.deals_first:
        return _("gibt zuerst")
    if player.keeps_score:
        return _("schreibt")
    return ""


def door_rows(plans: Sequence[TablePlan], by_name: bool) -> list[ListRow]:
    """By start number: one row per entrant (a pair's two chairs as "1 + 3"). By name: one row
    per person, since everybody looks for their own name — by surname, then first name."""
    rows: list[ListRow] = []
    for plan in plans:
        if by_name:
            for p in plan.players:
                key = (*surname_key(p.name), p.start_number)
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


class _Pages:
    """Page bookkeeping for the seating plan's parts: the header (with the QR code when the
    public pages are on), the footer with the page number, the two columns' x positions."""

    def __init__(self, c: Canvas, exporter: PdfExporter, options: ExportOptions) -> None:
        self.c = c
        self.tournament = exporter.tournament
        self.pagesize = exporter.pagesize
        self.page = 0
        self.width, self.height = exporter.pagesize
        self.column_width = column_width(self.width)
        self.list_name_width = list_name_width(self.width)
        # no code at all rather than one a phone cannot open
        self.url = (
            where_url(self.tournament, options.base_url) if self.tournament.public_pages else None
        )

    def start(self, title: str) -> float:
        """Finish the previous page and draw the header; returns the y below it."""
        c = self.c
        if self.page:
            c.showPage()
        self.page += 1
        top = self.height - MARGIN
        url = self.url
        with_qr = url is not None
        text_width = self.width - 2 * MARGIN - (QR_SIZE + 4 * mm if with_qr else 0)
        _draw_text(c, MARGIN, top - 8 * mm, title, TITLE, text_width)
        _draw_text(c, MARGIN, top - 14 * mm, tournament_line(self.tournament), SUBTITLE, text_width)
        _draw_footer(c, self.pagesize, tournament_line(self.tournament), self.page)
        if url is None:
            return top - HEADER_HEIGHT
        x = self.width - MARGIN - QR_SIZE
        draw_qr(c, x, top - QR_SIZE, QR_SIZE, url)
        caption = _("Wo sitze ich?")
        _draw_text(c, x + QR_SIZE / 2, top - QR_SIZE - 3.5 * mm, caption, QR_CAPTION, QR_SIZE)
        online = _("Online nachsehen: %(url)s") % {"url": url}
        _draw_text(c, MARGIN, top - 20 * mm, online, URL_LINE, text_width)
        return top - QR_HEADER_HEIGHT

    def column_x(self, column: int) -> float:
        return MARGIN + column * (self.column_width + COLUMN_GAP)


def block_height(plan: TablePlan) -> float:
    return BLOCK_HEAD + len(plan.players) * SEAT_LINE + BLOCK_PAD


def _draw_table_block(c: Canvas, x: float, top: float, width: float, plan: TablePlan) -> None:
    """One table: number, kind, the chairs in order with start number, name and role."""
    height = block_height(plan)
    c.setStrokeColor(GREY)
    c.setLineWidth(0.6)
    c.setFillColor(TINT)
    c.roundRect(x, top - BLOCK_HEAD, width, BLOCK_HEAD, 1.5 * mm, stroke=0, fill=1)
    c.roundRect(x, top - height, width, height, 1.5 * mm, stroke=1, fill=0)
    base = top - BLOCK_HEAD + 2.6 * mm
    _draw_text(c, x + BLOCK_INSET, base, _("Tisch %(n)s") % {"n": plan.number}, TABLE_LABEL)
    kind = f"{plan.kind_label} · {mode_title(plan.mode)}"
    _draw_text(c, x + width - BLOCK_INSET, base, kind, TABLE_KIND, width / 2)
    number_right = x + 5 * mm + NUMBER_WIDTH
    name_x = number_right + 2 * mm
    name_width = x + width - ROLE_WIDTH - name_x
    y = top - BLOCK_HEAD - SEAT_LINE + 1.8 * mm
    for player in plan.players:
        _draw_text(c, x + BLOCK_INSET, y, f"{player.seat}.", CHAIR)
        _draw_text(c, number_right, y, str(player.start_number), START_NUMBER)
        _draw_text(c, name_x, y, player.name, NAME, name_width)
        role = role_text(player)
        if role:
            _draw_text(c, x + width - BLOCK_INSET, y, role, ROLE, ROLE_WIDTH - 3 * mm)
        y -= SEAT_LINE


class SeatingPlanExporter(PdfExporter):
    identifier = "seating"
    verbose_name = gettext_lazy("Tischplan (PDF)")
    file_stem = "tischplan"
    per_round = True
    pagesize = PORTRAIT

    def document_title(self, options: ExportOptions) -> str:
        return _("Tischplan")

    def draw(self, c: Canvas, options: ExportOptions) -> None:
        pages = _Pages(c, self, options)
        by_round: dict[int, list[TablePlan]] = {}
        for table in load_tables(self.rounds(options)):
            by_round.setdefault(table.round.number, []).append(table_plan(table))
        for number, plans in by_round.items():
            self._draw_tables(pages, number, plans)
            for by_name in (False, True):
                self._draw_door_list(pages, number, door_rows(plans, by_name), by_name)

    def _draw_tables(self, pages: _Pages, number: int, plans: list[TablePlan]) -> None:
        title = _("Tischplan – %(round)s") % {"round": round_title(number)}
        top = pages.start(title)
        column, y = 0, top
        for plan in plans:
            if y - block_height(plan) < BOTTOM:
                column, y = column + 1, top
                if column == COLUMNS:
                    top = pages.start(title)
                    column, y = 0, top
            _draw_table_block(pages.c, pages.column_x(column), y, pages.column_width, plan)
            y -= block_height(plan) + BLOCK_GAP

    def _draw_door_list(
        self, pages: _Pages, number: int, rows: list[ListRow], by_name: bool
    ) -> None:
        order = _("nach Name") if by_name else _("nach Startnummer")
        title = _("Wo sitze ich? – %(round)s, %(order)s") % {
            "round": round_title(number),
            "order": order,
        }
        c = pages.c
        top = pages.start(title)
        column, y = 0, top - LIST_HEAD
        self._draw_list_head(pages, column, top)
        for index, row in enumerate(rows):
            names = name_lines(row.name, pages.list_name_width)
            height = LIST_LINE + (len(names) - 1) * LIST_NEXT_LINE
            if y - height < BOTTOM:
                column += 1
                if column == COLUMNS:
                    top = pages.start(title)
                    column = 0
                y = top - LIST_HEAD
                self._draw_list_head(pages, column, top)
            x, width = pages.column_x(column), pages.column_width
            if index % 2 == 0:
                c.setFillColor(LIGHT)
                c.rect(x, y - height, width, height, stroke=0, fill=1)
            base = y - LIST_LINE + 2.1 * mm
            table_x = x + width - LIST_SEAT_WIDTH - LIST_TABLE_WIDTH / 2
            seat_x = x + width - LIST_SEAT_WIDTH / 2
            _draw_text(c, x + NUMBER_WIDTH - 2 * mm, base, str(row.start_number), LIST_NUMBER)
            for line, text in enumerate(names):
                line_y = base - line * LIST_NEXT_LINE
                _draw_text(c, x + NUMBER_WIDTH, line_y, text, LIST_NAME, pages.list_name_width)
            _draw_text(c, table_x, base, str(row.table), LIST_TABLE)
            _draw_text(c, seat_x, base, row.seats, LIST_SEAT, LIST_SEAT_WIDTH)
            y -= height

    def _draw_list_head(self, pages: _Pages, column: int, top: float) -> None:
        c = pages.c
        x, width = pages.column_x(column), pages.column_width
        base = top - 5 * mm
        centre = LIST_HEAD_STYLE.but(align="center")
        _draw_text(c, x + NUMBER_WIDTH - 2 * mm, base, _("Nr."), LIST_HEAD_STYLE.but(align="right"))
        _draw_text(c, x + NUMBER_WIDTH, base, _("Name"), LIST_HEAD_STYLE)
        table_x = x + width - LIST_SEAT_WIDTH - LIST_TABLE_WIDTH / 2
        _draw_text(c, table_x, base, _("Tisch"), centre)
        _draw_text(c, x + width - LIST_SEAT_WIDTH / 2, base, _("Platz"), centre)
        c.setStrokeColor(GREY)
        c.setLineWidth(0.6)
        c.line(x, top - 6.5 * mm, x + width, top - 6.5 * mm)


class TableCardsExporter(PdfExporter):
    """One landscape page per table and round: the table number as large as it goes, the
    round, the kind of table and the chairs in dealing order."""

    identifier = "tablecards"
    verbose_name = gettext_lazy("Tischkarten (PDF)")
    file_stem = "tischkarten"
    per_round = True
    pagesize = LANDSCAPE

    def document_title(self, options: ExportOptions) -> str:
        return _("Tischkarten")

    def draw(self, c: Canvas, options: ExportOptions) -> None:
        for index, table in enumerate(load_tables(self.rounds(options), options.tables)):
            if index:
                c.showPage()
            self._draw_card(c, table_plan(table), table_link(table, options.base_url))

    def _draw_card(self, c: Canvas, plan: TablePlan, link: str | None = None) -> None:
        width, height = self.pagesize
        inner = width - 2 * MARGIN - 2 * CARD_INSET
        top = height - MARGIN
        centre = width / 2
        c.setStrokeColor(GREY)
        c.setLineWidth(1.2)
        c.roundRect(MARGIN, MARGIN, width - 2 * MARGIN, height - 2 * MARGIN, 4 * mm)
        line = tournament_line(self.tournament)
        _draw_text(c, centre, top - 11 * mm, line, CARD_TOURNAMENT, inner)
        label = _("Tisch %(n)s") % {"n": plan.number}
        label_width = inner
        if link is not None:  # top right, the big table number keeps clear of it
            x = width - MARGIN - 6 * mm - CARD_QR
            draw_qr(c, x, top - 6 * mm - CARD_QR, CARD_QR, link)
            caption = _("Spiele am Handy eintragen")
            y = top - 10 * mm - CARD_QR
            _draw_text(c, x + CARD_QR / 2, y, caption, CARD_QR_CAPTION, CARD_QR)
            label_width = inner - 2 * (CARD_QR + 6 * mm)
        _draw_text(c, centre, top - 66 * mm, label, CARD_TABLE, label_width)
        sub = f"{round_title(plan.round_number)} · {plan.kind_label} · {mode_title(plan.mode)}"
        _draw_text(c, centre, top - 82 * mm, sub, CARD_SUBTITLE, inner)
        left = MARGIN + CARD_INSET
        y = top - CARD_FIRST_SEAT
        for player in plan.players:
            _draw_text(c, left, y, f"{player.seat}.", CARD_CHAIR)
            _draw_text(c, left + 38 * mm, y, str(player.start_number), CARD_NUMBER)
            _draw_text(c, left + 43 * mm, y, player.name, CARD_NAME, 140 * mm)
            role = role_text(player)
            if role:
                _draw_text(c, width - MARGIN - CARD_INSET, y, role, CARD_ROLE)
            y -= CARD_SEAT_LINE
