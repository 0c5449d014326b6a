"""Pre-filled score sheets, one landscape A4 page per table, laid out like the desk's entry
screen (``templates/desk/sheet.html``) so that typing a sheet is reading it left to right:
game, dealer, declarer, bid, kind and a tick for "Spielmacher ohne Stich", then per party
Meldung, Stiche, a tick for "verworfen" and Punkte (the desk's "Liste") — plus the running
total ("Stand") the scorer keeps on paper. Each game row has that game's dealer printed (the
default rotation; after a Durch the scorer corrects it). At the foot: totals, a signature line
per party and a box with the tournament's scoring rules, generated from its rule set (as tall
as its rules need, so a longer rule set does not print smaller).

A row is never lower than ``MIN_ROW``: a sheet with more games than fit (preisbinokel's 20 at
a 4-table, or a custom rule) continues on further pages with the same head, the games spread
evenly, totals and signatures on the last page.

All sheets of a round come in one PDF in table order, followed by a blank sheet per kind of
table in the round for a spare table."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from reportlab.lib.colors import black
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from scoring import RuleSet
from scoring.tables import table_shape

from ...models import GAME_KIND_KEYS, GameKind, Table, TableKind
from ...services.server.public_links import draw_qr
from ...services.sheets.results import sheet_layout
from ..base import ExportOptions
from .base import (
    GREY,
    LANDSCAPE,
    LIGHT,
    TINT,
    PdfExporter,
    Style,
    _draw_once,
    _draw_text,
    mode_title,
    round_title,
    table_link,
    tournament_details,
)
from .data import load_tables
from .fonts import fonts

SHEET_MARGIN = 10 * mm
# top band
BAND_HEIGHT = 16 * mm
BAND_GAP = 1.5 * mm
TOURNAMENT = Style("bold", 14)
DETAILS = Style(size=9, color=GREY)
INFO = Style(size=9)
TABLE_NUMBER = Style("bold", 26, align="right")
SHEET_TITLE = Style("bold", 11, align="right")
# fixed columns, as on the desk's screen (the tick "ohne Stich" is in its second line there)
GAME_WIDTH = 9 * mm
DEALER_WIDTH = 38 * mm
DECLARER_WIDTH = 17 * mm
BID_WIDTH = 14 * mm
KIND_WIDTH = 15 * mm
NO_TRICK_WIDTH = 9 * mm
FIXED_WIDTHS = (GAME_WIDTH, DEALER_WIDTH, DECLARER_WIDTH, BID_WIDTH, KIND_WIDTH, NO_TRICK_WIDTH)
FIXED_WIDTH = sum(FIXED_WIDTHS)
# per party: Meldung, Stiche, v (verworfen: a tick, fixed width), Punkte, Stand
PARTY_SUBCOLUMNS = (1.0, 1.0, None, 1.1, 1.15)  # relative widths; None: REVOKE_WIDTH
REVOKE_WIDTH = 5.5 * mm
MELD, TRICKS, REVOKE, POINTS, STAND = range(5)
TICK = 3 * mm  # side of a tick box
# rows
HEAD_TOP = 10 * mm
HEAD_SUB = 5.5 * mm
MAX_ROW = 9 * mm
MIN_ROW = 6.5 * mm  # below this a sheet continues on another page
TOTAL_ROW = 7.5 * mm
SIGN_HEIGHT = 12 * mm  # signature lines under the totals
SIGN_LINE = 6 * mm  # below the totals
RULE_GAP = 1 * mm  # above the rule box
RULE_TEXT_TOP = 5.5 * mm  # the box's title, above the first line of rules
RULE_BOTTOM_PAD = 1.5 * mm
RULE_BOX_MIN = 20 * mm
RULE_BOX_MAX = 36 * mm
LEGEND_HEIGHT = 6.5 * mm  # two lines and a gap
# type
HEAD = Style("bold", 8, align="center", minimum=5.5)
SUBHEAD = Style(size=7.5, align="center", minimum=5)
SUBHEAD_LEGIBLE = 6.5  # below this a sub-column's head takes its short form
PARTY_NUMBER = Style("bold", 9.5, align="center")
PARTY_NAME = Style(size=9.5, align="center")
GAME_NUMBER = Style("bold", 11, align="center")
DEALER = Style(size=9, minimum=5.5)
HINT = Style(size=7.5, color=GREY, minimum=5)
HINT_CENTRE = HINT.but(align="center")
SIGN_LABEL = Style(size=7.5, color=GREY, minimum=6.5)
SIGN_NAME = SIGN_LABEL.but(minimum=5)
CONTINUED = Style("bold", 10, align="right")
TOTAL_LABEL = Style("bold", 11, align="right")
RULE_TITLE = Style("bold", 7.6)
RULE_SIZE = 6.8
RULE_MIN_SIZE = 5.2
LEADING = 1.2  # line height / font size
LEGEND = Style(size=6.5, color=GREY, minimum=5)
LEGEND_LINES = 2
THIN = 0.35
THICK = 1.1


@dataclass(frozen=True)
class SheetParty:
    number: int  # the party column, as the desk numbers it
    start_number: int | None
    name: str


@dataclass(frozen=True)
class SheetPlan:
    round_number: int
    table_number: int | None  # None: a blank sheet for a spare table
    kind: str
    kind_label: str
    mode: str
    parties: tuple[SheetParty, ...]
    players: tuple[str, ...]  # chairs in dealing order ("" on a blank sheet)
    games: int
    link: str | None = None  # the table's own link for phones (QR code in the band)

    def dealer(self, game: int) -> int:
        """The chair (1-based) that deals ``game`` in the printed rotation (the sheet engine's;
        after a Durch the scorer corrects it on paper)."""
        return table_shape(self.kind).rotation_dealer(game) + 1

    def sits_out(self, game: int) -> int | None:
        """At a 4-table the dealer sits out: the party column (1-based) scoring 0 in ``game``."""
        shape = table_shape(self.kind)
        column = shape.sitting_out(shape.rotation_dealer(game))
        return None if column is None else column + 1

    @property
    def scorer(self) -> str:
        """The player keeping the sheet (the engine's scorer seat), empty on a blank sheet."""
        seat = table_shape(self.kind).scorer_seat
        return self.players[seat] if seat < len(self.players) else ""


def sheet_plan(table: Table, rules: RuleSet, link: str | None = None) -> SheetPlan:
    layout = sheet_layout(table, rules)
    return SheetPlan(
        round_number=table.round.number,
        table_number=table.number,
        kind=table.kind,
        kind_label=str(table.get_kind_display()),
        mode=table.competition.mode,
        parties=tuple(
            SheetParty(c.number, c.entrant.start_number, c.entrant.display_name)
            for c in layout.columns
        ),
        players=layout.players,
        games=layout.games,
        link=link,
    )


def blank_plan(round_number: int, kind: str, mode: str, games: int) -> SheetPlan:
    shape = table_shape(kind)
    parties, players = shape.columns, shape.seats
    return SheetPlan(
        round_number=round_number,
        table_number=None,
        kind=kind,
        kind_label=str(TableKind(kind).label),
        mode=mode,
        parties=tuple(SheetParty(n, None, "") for n in range(1, parties + 1)),
        players=("",) * players,
        games=games,
    )


@dataclass(frozen=True)
class _Grid:
    """The x positions of one sheet, computed from the constants above."""

    left: float
    right: float
    party_left: tuple[float, ...]
    party_width: float
    sub_widths: tuple[float, ...]

    @classmethod
    def for_parties(cls, count: int, page_width: float) -> _Grid:
        left, right = SHEET_MARGIN, page_width - SHEET_MARGIN
        party_width = (right - left - FIXED_WIDTH) / count
        relative = [r for r in PARTY_SUBCOLUMNS if r is not None]
        unit = (party_width - REVOKE_WIDTH) / sum(relative)
        subs = tuple(REVOKE_WIDTH if r is None else unit * r for r in PARTY_SUBCOLUMNS)
        starts = tuple(left + FIXED_WIDTH + i * party_width for i in range(count))
        return cls(left, right, starts, party_width, subs)

    @property
    def fixed(self) -> tuple[float, ...]:
        """Left edges of Spiel, Geber, Spielmacher, Reizwert, Art, ohne Stich."""
        return tuple(self.left + sum(FIXED_WIDTHS[:i]) for i in range(len(FIXED_WIDTHS)))

    def sub_left(self, party: int, sub: int) -> float:
        return self.party_left[party] + sum(self.sub_widths[:sub])

    def sub_centre(self, party: int, sub: int) -> float:
        return self.sub_left(party, sub) + self.sub_widths[sub] / 2


@dataclass(frozen=True)
class _RuleBox:
    """The rule box, fitted once per document: its height (with the gap above it), the font
    size, the number of columns and the wrapped lines of each column."""

    height: float
    size: float
    count: int
    columns: list[list[str]]

    @classmethod
    def fit(cls, lines: Sequence[str], width: float) -> _RuleBox:
        font = fonts().regular
        inner = width - 4 * mm
        line = RULE_SIZE * LEADING
        rows = _rows_needed(lines, font, inner)
        pads = RULE_GAP + RULE_TEXT_TOP + RULE_BOTTOM_PAD
        height = min(RULE_BOX_MAX, max(RULE_BOX_MIN, pads + rows * line))
        size, count, columns = _fit_rules(lines, font, inner, height - pads)
        return cls(height, size, count, columns)


@dataclass(frozen=True)
class _Page:
    """One page of a sheet: its games, which page of how many, the row height."""

    games: range
    index: int
    pages: int
    row: float

    @property
    def last(self) -> bool:
        return self.index == self.pages


def sheet_pages(games: int, room: float) -> list[_Page]:
    """The games of a sheet spread over as few pages as keep every row at least ``MIN_ROW``
    high (``room``: the height the rows have on a page), evenly, the same row height on each."""
    per_page = max(1, int(room / MIN_ROW + 1e-9))
    pages = max(1, math.ceil(games / per_page))
    size = math.ceil(games / pages)
    row = min(MAX_ROW, room / size)
    return [
        _Page(range(first, min(first + size, games + 1)), index, pages, row)
        for index, first in enumerate(range(1, games + 1, size), start=1)
    ]


def _kind_letter(kind: str) -> str:
    """The letter the desk types for a kind of game (one map: ``GAME_KIND_KEYS``)."""
    return GAME_KIND_KEYS[kind]


def _draw_tick(c: Canvas, x_centre: float, y_centre: float) -> None:
    c.rect(x_centre - TICK / 2, y_centre - TICK / 2, TICK, TICK, stroke=1, fill=0)


class ScoreSheetsExporter(PdfExporter):
    identifier = "scoresheets"
    verbose_name = gettext_lazy("Spielzettel (PDF)")
    file_stem = "spielzettel"
    per_round = True
    pagesize = LANDSCAPE

    def document_title(self, options: ExportOptions) -> str:
        return _("Spielzettel")

    def draw(self, c: Canvas, options: ExportOptions) -> None:
        self.forms: set[str] = set()  # what every sheet repeats is drawn once (_draw_once)
        rules = self.rules = self.tournament.rules()
        rule_lines = list(rules.describe(lang=get_language() or "de"))
        rule_box = _RuleBox.fit(rule_lines, self.pagesize[0] - 2 * SHEET_MARGIN)
        by_round: dict[int, list[Table]] = {}
        for table in load_tables(self.rounds(options), options.tables):
            by_round.setdefault(table.round.number, []).append(table)
        first = True
        for number, tables in by_round.items():
            plans = [sheet_plan(t, rules, table_link(t, options.base_url)) for t in tables]
            modes: dict[str, str] = {}
            for plan in plans:
                modes.setdefault(plan.kind, plan.mode)
            spare = [k for k in TableKind.values if k in modes]
            plans += [blank_plan(number, k, modes[k], rules.games_for(k)) for k in spare]
            for plan in plans:
                for page in sheet_pages(plan.games, self._room(rule_box)):
                    if not first:
                        c.showPage()
                    first = False
                    self.draw_sheet(c, plan, page, rule_box)

    def _room(self, rule_box: _RuleBox) -> float:
        """The height the game rows have: the page less band, head, totals, signatures, rule
        box and legend."""
        height = self.pagesize[1]
        body_top = height - SHEET_MARGIN - BAND_HEIGHT - BAND_GAP - HEAD_TOP - HEAD_SUB
        bottom = SHEET_MARGIN + LEGEND_HEIGHT + rule_box.height + SIGN_HEIGHT + TOTAL_ROW
        return body_top - bottom

    def draw_sheet(self, c: Canvas, plan: SheetPlan, page: _Page, rule_box: _RuleBox) -> None:
        width, height = self.pagesize
        grid = _Grid.for_parties(len(plan.parties), width)
        top = height - SHEET_MARGIN
        head_top = top - BAND_HEIGHT - BAND_GAP
        body_top = head_top - HEAD_TOP - HEAD_SUB
        body_bottom = body_top - len(page.games) * page.row
        totals_bottom = body_bottom - TOTAL_ROW
        self._draw_band(c, plan, grid, top, page)
        self._draw_game_rows(c, plan, grid, body_top, page)
        self._draw_head(c, plan, grid, head_top)
        if page.last:
            self._draw_totals(c, plan, grid, body_bottom)
        self._draw_frame(c, plan, grid, head_top, body_bottom, page)
        self._draw_sitting_out(c, plan, grid, body_top, page)
        if page.last:
            self._draw_signatures(c, plan, grid, totals_bottom)
        else:
            self._draw_continued(c, grid, body_bottom, page)
        rule_top = SHEET_MARGIN + LEGEND_HEIGHT + rule_box.height - RULE_GAP

        def rules_and_legend() -> None:
            self._draw_rule_box(c, grid, rule_top, rule_box)
            self._draw_legend(c, grid)

        key = f"rules {grid.left} {grid.right} {rule_top}"
        _draw_once(c, self.forms, key, rules_and_legend)

    # --- pieces, top to bottom --------------------------------------------------------------

    def _draw_band(self, c: Canvas, plan: SheetPlan, grid: _Grid, top: float, page: _Page) -> None:
        half = (grid.right - grid.left) / 2
        right = grid.right
        if plan.link is not None:  # the table's link for its phone, at the band's right end
            draw_qr(c, right - BAND_HEIGHT, top - BAND_HEIGHT, BAND_HEIGHT, plan.link)
            right -= BAND_HEIGHT + 2 * mm
            half -= (BAND_HEIGHT + 2 * mm) / 2
        _draw_text(c, grid.left, top - 5 * mm, self.tournament.name, TOURNAMENT, half)
        details = tournament_details(self.tournament)
        _draw_text(c, grid.left, top - 9.6 * mm, details, DETAILS, half)
        games = _("%(n)s Spiele") % {"n": plan.games}
        kind = f"{plan.kind_label} · {mode_title(plan.mode)} · {games}"
        _draw_text(c, grid.left, top - 14.5 * mm, kind, INFO, half)
        if plan.table_number is not None:
            table = _("Tisch %(n)s") % {"n": plan.table_number}
        else:
            table = _("Tisch ____")
        _draw_text(c, right, top - 8.2 * mm, table, TABLE_NUMBER, half / 2)
        title = f"{_('Spielzettel')} · {round_title(plan.round_number)}"
        if page.pages > 1:
            title += " · " + _("Blatt %(n)s von %(pages)s") % {"n": page.index, "pages": page.pages}
        _draw_text(c, right, top - 14.5 * mm, title, SHEET_TITLE, half)
        scorer = _("Listenführer/in: %(name)s") % {"name": plan.scorer or "_" * 16}
        _draw_text(c, grid.left + half + 5 * mm, top - 14.5 * mm, scorer, INFO, half / 2 - 5 * mm)

    def _draw_head(self, c: Canvas, plan: SheetPlan, grid: _Grid, top: float) -> None:
        key = f"head {len(plan.parties)} {grid.left} {grid.right} {top}"
        _draw_once(c, self.forms, key, lambda: self._draw_head_labels(c, plan, grid, top))
        for i, party in enumerate(plan.parties):
            centre = grid.party_left[i] + grid.party_width / 2
            inner = grid.party_width - 2 * mm
            if party.start_number is not None:
                number = _("Nr. %(n)s") % {"n": party.start_number}
            else:
                number = _("Nr. ____")
            _draw_text(c, centre, top - 4.2 * mm, f"{party.number} · {number}", PARTY_NUMBER, inner)
            _draw_text(c, centre, top - 8.6 * mm, party.name or "_" * 24, PARTY_NAME, inner)

    def _draw_head_labels(self, c: Canvas, plan: SheetPlan, grid: _Grid, top: float) -> None:
        """What the head of every sheet with this many parties shows: the tint and the
        column labels."""
        bottom = top - HEAD_TOP - HEAD_SUB
        c.setFillColor(TINT)
        c.rect(grid.left, bottom, grid.right - grid.left, HEAD_TOP + HEAD_SUB, stroke=0, fill=1)
        labels: tuple[tuple[str, ...], ...] = (
            (_("Spiel"),),
            (_("Geber"),),
            (_("Spielmacher"),),
            (_("Reizwert"),),
            (_("Art"),),
            (_("ohne"), _("Stich")),  # the desk's "Spielmacher ohne Stich"
        )
        middle = bottom + (HEAD_TOP + HEAD_SUB) / 2 - 1.2 * mm
        for x, w, label in zip(grid.fixed, FIXED_WIDTHS, labels, strict=True):
            for line, text in enumerate(label):
                y = middle + (len(label) - 1) * 1.6 * mm - line * 3.4 * mm
                _draw_text(c, x + w / 2, y, text, HEAD, w - 1.5 * mm)
        subs = (_("Meldung"), _("Stiche"), _("v"), _("Punkte"), _("Stand"))
        short = {MELD: _("Meld.")}  # when the full word would print too small
        regular = fonts().regular
        for i in range(len(plan.parties)):
            for sub, word in enumerate(subs):
                sub_width = grid.sub_widths[sub] - 1 * mm
                if sub in short and stringWidth(word, regular, SUBHEAD_LEGIBLE) > sub_width:
                    word = short[sub]
                style = SUBHEAD.but(font="bold") if sub == REVOKE else SUBHEAD
                _draw_text(c, grid.sub_centre(i, sub), bottom + 1.8 * mm, word, style, sub_width)

    def _draw_game_rows(
        self, c: Canvas, plan: SheetPlan, grid: _Grid, top: float, page: _Page
    ) -> None:
        """The game rows: what every sheet of this kind and page repeats (the shading, game
        numbers, hints, tick boxes and the dealer's chair) once as a form for the whole
        document, then this table's dealers' names."""
        x_dealer = grid.fixed[1]
        row = page.row
        text_y = row / 2 - 1.3 * mm
        blank = not any(plan.players)
        parties = " ".join(str(p.number) for p in plan.parties)
        key = (
            f"rows {plan.kind} {parties} {blank} {page.games.start} {page.games.stop} {row} "
            f"{top} {grid.left} {grid.right}"
        )
        _draw_once(c, self.forms, key, lambda: self._draw_row_forms(c, plan, grid, top, page))
        if blank:
            return
        for line, game in enumerate(page.games, start=1):
            base = top - line * row + text_y
            label = plan.players[plan.dealer(game) - 1]
            _draw_text(c, x_dealer + 4.5 * mm, base, label, DEALER, DEALER_WIDTH - 5.5 * mm)

    def _draw_row_forms(
        self, c: Canvas, plan: SheetPlan, grid: _Grid, top: float, page: _Page
    ) -> None:
        x_game, x_dealer, x_declarer, _x_bid, x_kind, x_no_trick = grid.fixed
        parties = " ".join(str(p.number) for p in plan.parties)
        kinds = "  ".join(_kind_letter(k) for k in self.rules.game_kinds)
        row = page.row
        text_y = row / 2 - 1.3 * mm
        for line, game in enumerate(page.games, start=1):
            y = top - line * row
            base = y + text_y
            if game % 2 == 0:
                c.setFillColor(LIGHT)
                c.rect(grid.left, y, grid.right - grid.left, row, stroke=0, fill=1)
                c.setFillColor(black)
            _draw_text(c, x_game + GAME_WIDTH / 2, base, str(game), GAME_NUMBER)
            dealer = plan.dealer(game)
            if plan.players[dealer - 1]:
                _draw_text(c, x_dealer + 1.2 * mm, base, str(dealer), HINT)
            else:
                label = _("Platz %(n)s") % {"n": dealer}
                _draw_text(c, x_dealer + 4.5 * mm, base, label, DEALER, DEALER_WIDTH - 5.5 * mm)
            declarer_centre = x_declarer + DECLARER_WIDTH / 2
            _draw_text(c, declarer_centre, base, parties, HINT_CENTRE, DECLARER_WIDTH - 2 * mm)
            _draw_text(c, x_kind + KIND_WIDTH / 2, base, kinds, HINT_CENTRE, KIND_WIDTH - 2 * mm)
            self._draw_ticks(c, plan, grid, game, x_no_trick + NO_TRICK_WIDTH / 2, y + row / 2)

    def _draw_ticks(
        self, c: Canvas, plan: SheetPlan, grid: _Grid, game: int, no_trick_x: float, y: float
    ) -> None:
        """The tick boxes of a game: "ohne Stich", and "verworfen" for every party that plays."""
        c.setStrokeColor(GREY)
        c.setLineWidth(0.5)
        _draw_tick(c, no_trick_x, y)
        out = plan.sits_out(game)
        for i, party in enumerate(plan.parties):
            if party.number != out:
                _draw_tick(c, grid.sub_centre(i, REVOKE), y)
        c.setStrokeColor(black)

    def _draw_totals(self, c: Canvas, plan: SheetPlan, grid: _Grid, top: float) -> None:
        bottom = top - TOTAL_ROW
        label_x = grid.left + FIXED_WIDTH - 2 * mm
        _draw_text(c, label_x, bottom + TOTAL_ROW / 2 - 1.5 * mm, _("Summe"), TOTAL_LABEL)
        c.setLineWidth(THICK)
        for i in range(len(plan.parties)):
            c.setFillColor(LIGHT)
            shaded = grid.sub_left(i, POINTS) - grid.party_left[i]
            c.rect(grid.party_left[i], bottom, shaded, TOTAL_ROW, stroke=0, fill=1)
            written = grid.sub_widths[POINTS] + grid.sub_widths[STAND]
            c.rect(grid.sub_left(i, POINTS), bottom, written, TOTAL_ROW, stroke=1, fill=0)
        c.setFillColor(black)

    def _draw_frame(
        self, c: Canvas, plan: SheetPlan, grid: _Grid, top: float, body_bottom: float, page: _Page
    ) -> None:
        """Thin lines between columns and rows, thick ones around the parties and the table;
        down through the totals on a sheet's last page."""
        head_bottom = top - HEAD_TOP - HEAD_SUB
        bottom = body_bottom - TOTAL_ROW if page.last else body_bottom
        c.setStrokeColor(black)
        c.setLineWidth(THIN)
        for g in range(1, len(page.games)):
            c.line(grid.left, head_bottom - g * page.row, grid.right, head_bottom - g * page.row)
        for x in grid.fixed[1:]:
            c.line(x, top, x, body_bottom)
        for i, left in enumerate(grid.party_left):
            c.line(left, top - HEAD_TOP, left + grid.party_width, top - HEAD_TOP)
            for sub in range(1, len(PARTY_SUBCOLUMNS)):
                c.line(grid.sub_left(i, sub), top - HEAD_TOP, grid.sub_left(i, sub), bottom)
        c.setLineWidth(THICK)
        c.line(grid.left, head_bottom, grid.right, head_bottom)
        for x in grid.party_left:
            c.line(x, top, x, bottom)
        c.rect(grid.left, body_bottom, grid.right - grid.left, top - body_bottom, stroke=1, fill=0)
        if page.last:
            c.line(grid.right, body_bottom, grid.right, bottom)
            c.line(grid.party_left[0], bottom, grid.right, bottom)

    def _draw_sitting_out(
        self, c: Canvas, plan: SheetPlan, grid: _Grid, top: float, page: _Page
    ) -> None:
        """At a 4-table, the dealer's party cells of each game are greyed: it sits out."""
        inset = THICK / 2 + 0.3
        row = page.row
        for line, game in enumerate(page.games, start=1):
            out = plan.sits_out(game)
            if out is None:
                continue
            left, y = grid.party_left[out - 1], top - line * row
            c.setFillColor(LIGHT)
            c.rect(
                left + inset,
                y + inset,
                grid.party_width - 2 * inset,
                row - 2 * inset,
                stroke=0,
                fill=1,
            )
            base = y + row / 2 - 1.3 * mm
            _draw_text(c, left + grid.party_width / 2, base, _("setzt aus"), HINT_CENTRE)

    def _draw_signatures(self, c: Canvas, plan: SheetPlan, grid: _Grid, top: float) -> None:
        """A signature line under each party's total, labelled with the party's number, start
        number and name — on two lines when one would have to shrink below legibility; the
        desk notes entry and check."""
        y = top - SIGN_LINE
        c.setLineWidth(0.6)
        font = fonts().regular
        for i, party in enumerate(plan.parties):
            x, w = grid.party_left[i] + 3 * mm, grid.party_width - 6 * mm
            c.line(x, y, x + w, y)
            label = _("Unterschrift %(n)s") % {"n": party.number}
            if party.start_number is None:
                _draw_text(c, x, y - 3 * mm, label, SIGN_LABEL, w)
                continue
            label += f" · {party.start_number}"
            one_line = f"{label} {party.name}"
            if stringWidth(one_line, font, SIGN_LABEL.minimum) <= w:
                _draw_text(c, x, y - 3 * mm, one_line, SIGN_LABEL, w)
            else:
                _draw_text(c, x, y - 3 * mm, label, SIGN_LABEL, w)
                _draw_text(c, x, y - 5.9 * mm, party.name, SIGN_NAME, w)
        desk = _("Turnierleitung: eingegeben ______  geprüft ______")
        _draw_text(c, grid.left, y, desk, HINT, FIXED_WIDTH - 4 * mm)

    def _draw_continued(self, c: Canvas, grid: _Grid, body_bottom: float, page: _Page) -> None:
        """On every page of a sheet but the last: where its games go on."""
        text = _("weiter auf Blatt %(next)s (ab Spiel %(first)s)") % {
            "next": page.index + 1,
            "first": page.games[-1] + 1,
        }
        _draw_text(c, grid.right, body_bottom - 6 * mm, text, CONTINUED)

    def _draw_rule_box(self, c: Canvas, grid: _Grid, top: float, box: _RuleBox) -> None:
        """The tournament's scoring rules as its rule set states them, in up to three columns."""
        width = grid.right - grid.left
        height = box.height - RULE_GAP
        c.setLineWidth(0.6)
        c.setStrokeColor(GREY)
        c.roundRect(grid.left, top - height, width, height, 1.5 * mm, stroke=1, fill=0)
        c.setStrokeColor(black)
        title = _("Wertung (Regelwerk %(preset)s)") % {"preset": self.tournament.preset}
        inner = width - 4 * mm
        _draw_text(c, grid.left + 2 * mm, top - 3.8 * mm, title, RULE_TITLE, inner)
        style = Style(size=box.size, minimum=box.size)
        for col, texts in enumerate(box.columns):
            x = grid.left + 2 * mm + col * inner / box.count
            for line, text in enumerate(texts):
                y = top - RULE_TEXT_TOP - (line + 1) * box.size * LEADING
                _draw_text(c, x, y, text, style)

    def _draw_legend(self, c: Canvas, grid: _Grid) -> None:
        labels = dict(GameKind.choices)
        played = self.rules.game_kinds
        kinds = ", ".join(f"{_kind_letter(k)} = {labels[k]}" for k in played)
        text = _(
            "Spielmacher: Nummer der Partei einkreisen · Art: %(kinds)s · ohne Stich: "
            "ankreuzen, wenn der Spielmacher keinen Stich gemacht hat · v: ankreuzen, wenn die "
            "Partei verworfen hat · Punkte: wie sie der Listenführer ausrechnet · Stand: Summe "
            "der Punkte bis hier · Geber: vorgedruckt ist der übliche Wechsel, bitte "
            "berichtigen, wenn jemand anderes gibt"
        ) % {"kinds": kinds}
        width = grid.right - grid.left
        font = fonts().regular
        size = LEGEND.size
        while True:
            lines = simpleSplit(text, font, size, width)
            if len(lines) <= LEGEND_LINES or size <= LEGEND.minimum:
                break
            size -= 0.25
        step = size * LEADING
        for index, line in enumerate(lines[:LEGEND_LINES]):
            y = SHEET_MARGIN + (min(len(lines), LEGEND_LINES) - 1 - index) * step
            _draw_text(c, grid.left, y, line, LEGEND.but(size=size), width)


def _rows_needed(lines: Sequence[str], font: str, width: float) -> int:
    """How many lines of ``RULE_SIZE`` the rules take in three columns (no rule split)."""
    column_width = width / 3 - 2 * mm
    rules = [simpleSplit(f"• {line}", font, RULE_SIZE, column_width) for line in lines]
    rows = max((len(r) for r in rules), default=1)
    while _pack(rules, rows, 3) is None:
        rows += 1
    return rows


def _fit_rules(
    lines: Sequence[str], font: str, width: float, height: float
) -> tuple[float, int, list[list[str]]]:
    """Font size, column count and columns of wrapped lines so that the rule lines fit the
    box: the largest size at which one, two or three columns hold them, a rule never split
    between columns. At the smallest size, rules that do not fit are left out rather than
    printed over the legend."""
    size = RULE_SIZE
    while True:
        rows = int(height / (size * LEADING) + 1e-9)
        for count in (1, 2, 3):
            column_width = width / count - (2 * mm if count > 1 else 0)
            rules = [simpleSplit(f"• {line}", font, size, column_width) for line in lines]
            columns = _pack(rules, rows, count)
            if columns is not None:
                return size, count, columns
        if size <= RULE_MIN_SIZE:
            return size, count, _pack(rules, rows, count, keep_going=False) or []
        size = max(RULE_MIN_SIZE, size - 0.3)


def _pack(
    rules: Sequence[list[str]], rows: int, count: int, keep_going: bool = True
) -> list[list[str]] | None:
    """Fill ``count`` columns of ``rows`` lines with whole rules, in order. ``None`` when they
    do not fit (unless ``keep_going`` is false: then what fits)."""
    columns: list[list[str]] = [[]]
    for rule in rules:
        if len(columns[-1]) + len(rule) > rows:
            if len(columns) == count or len(rule) > rows:
                return None if keep_going else columns
            columns.append([])
        columns[-1].extend(rule)
    return columns
