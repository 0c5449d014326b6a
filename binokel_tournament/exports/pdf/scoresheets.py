"""Pre-filled score sheets, one landscape A4 page per table, laid out like the desk's entry
screen (``templates/desk/sheet.html``) so that typing a sheet is reading it left to right:
game, dealer, declarer, bid, kind, then per party Meldung, Stiche, Punkte — plus the running
total ("Stand") the scorer keeps on paper. Each game row has that game's dealer printed (the
default rotation; after a Durch the scorer corrects it). At the foot: totals, a signature line
per party and a box with the tournament's scoring rules, generated from its rule set.

All sheets of a round come in one PDF in table order, followed by a blank sheet per kind of
table in the round for a spare table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from reportlab.lib.colors import black
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from scoring import RuleSet

from ...models import GameKind, Table, TableKind
from ...services.results import sheet_layout
from ..base import ExportOptions
from .base import (
    GREY,
    LANDSCAPE,
    LIGHT,
    TINT,
    PdfExporter,
    Style,
    _draw_text,
    mode_title,
    round_title,
    tournament_details,
)
from .data import load_tables
from .fonts import fonts

SHEET_MARGIN = 10 * mm
# top band
BAND_HEIGHT = 19 * mm
BAND_GAP = 3 * mm
TOURNAMENT = Style("bold", 14)
DETAILS = Style(size=9, color=GREY)
INFO = Style(size=9)
TABLE_NUMBER = Style("bold", 26, align="right")
SHEET_TITLE = Style("bold", 11, align="right")
# fixed columns, as on the desk's screen
GAME_WIDTH = 10 * mm
DEALER_WIDTH = 40 * mm
DECLARER_WIDTH = 19 * mm
BID_WIDTH = 15 * mm
KIND_WIDTH = 18 * mm
FIXED_WIDTHS = (GAME_WIDTH, DEALER_WIDTH, DECLARER_WIDTH, BID_WIDTH, KIND_WIDTH)
FIXED_WIDTH = sum(FIXED_WIDTHS)
# per party: Meldung, Stiche, Punkte, Stand (relative widths)
PARTY_SUBCOLUMNS = (1.0, 1.0, 1.1, 1.15)
# rows
HEAD_TOP = 11 * mm
HEAD_SUB = 6 * mm
MAX_ROW = 9 * mm
TOTAL_ROW = 9 * mm
SIGN_HEIGHT = 15 * mm  # signature lines under the totals
RULE_BOX_HEIGHT = 25 * mm  # full width, above the legend
LEGEND_HEIGHT = 4 * mm
# type
HEAD = Style("bold", 8, align="center", minimum=5.5)
SUBHEAD = Style(size=7.5, align="center", minimum=5)
PARTY_NUMBER = Style("bold", 9.5, align="center")
PARTY_NAME = Style(size=9.5, align="center")
GAME_NUMBER = Style("bold", 11, align="center")
DEALER = Style(size=9, minimum=5.5)
HINT = Style(size=7.5, color=GREY, minimum=5)
HINT_CENTRE = HINT.but(align="center")
TOTAL_LABEL = Style("bold", 11, align="right")
RULE_TITLE = Style("bold", 7.6)
RULE_SIZE = 6.8
RULE_MIN_SIZE = 5.2
LEADING = 1.2  # line height / font size
LEGEND = Style(size=6.5, color=GREY, minimum=5)
THIN = 0.35
THICK = 1.1

SEATS_BY_KIND = {TableKind.THREE: (3, 3), TableKind.PAIRS: (2, 4), TableKind.FOUR_SITOUT: (4, 4)}


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

    def dealer(self, game: int) -> int:
        """The chair that deals ``game`` in the default rotation: ((g − 1) mod players) + 1."""
        return (game - 1) % len(self.players) + 1

    def sits_out(self, game: int) -> int | None:
        """At a 4-table the dealer sits out: the party column that scores 0 in ``game``."""
        return self.dealer(game) if self.kind == TableKind.FOUR_SITOUT else None

    @property
    def scorer(self) -> str:
        return self.players[2] if len(self.players) > 2 else ""


def sheet_plan(table: Table, rules: RuleSet) -> SheetPlan:
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
    )


def blank_plan(round_number: int, kind: str, mode: str, games: int) -> SheetPlan:
    parties, players = SEATS_BY_KIND[TableKind(kind)]
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
        unit = party_width / sum(PARTY_SUBCOLUMNS)
        starts = tuple(left + FIXED_WIDTH + i * party_width for i in range(count))
        return cls(left, right, starts, party_width, tuple(unit * r for r in PARTY_SUBCOLUMNS))

    @property
    def fixed(self) -> tuple[float, ...]:
        """Left edges of Spiel, Geber, Spielmacher, Reizwert, Art."""
        return tuple(self.left + sum(FIXED_WIDTHS[:i]) for i in range(len(FIXED_WIDTHS)))

    def sub_left(self, party: int, sub: int) -> float:
        return self.party_left[party] + sum(self.sub_widths[:sub])


def _kind_letter(kind: str) -> str:
    return {"played": _("g"), "conceded": _("a"), "durch": _("D")}.get(kind, kind[:1])


class ScoreSheetsExporter(PdfExporter):
    identifier = "spielzettel"
    verbose_name = _lazy("Spielzettel (PDF)")
    pagesize = LANDSCAPE

    def document_title(self, options: ExportOptions) -> str:
        return _("Spielzettel")

    def draw(self, c: Canvas, options: ExportOptions) -> None:
        rules = self.tournament.rules()
        rule_lines = list(rules.describe(lang=get_language() or "de"))
        by_round: dict[int, list[Table]] = {}
        for table in load_tables(self.rounds(options)):
            by_round.setdefault(table.round.number, []).append(table)
        first = True
        for number, tables in by_round.items():
            plans = [sheet_plan(t, rules) for t in tables]
            modes: dict[str, str] = {}
            for plan in plans:
                modes.setdefault(plan.kind, plan.mode)
            spare = [k for k in TableKind.values if k in modes]
            plans += [blank_plan(number, k, modes[k], rules.games_for(k)) for k in spare]
            for plan in plans:
                if not first:
                    c.showPage()
                first = False
                self.draw_sheet(c, plan, rule_lines)

    def draw_sheet(self, c: Canvas, plan: SheetPlan, rule_lines: Sequence[str]) -> None:
        width, height = self.pagesize
        grid = _Grid.for_parties(len(plan.parties), width)
        top = height - SHEET_MARGIN
        head_top = top - BAND_HEIGHT - BAND_GAP
        body_top = head_top - HEAD_TOP - HEAD_SUB
        rule_top = SHEET_MARGIN + LEGEND_HEIGHT + RULE_BOX_HEIGHT
        room = body_top - TOTAL_ROW - SIGN_HEIGHT - rule_top
        row = min(MAX_ROW, room / plan.games)
        body_bottom = body_top - plan.games * row
        totals_bottom = body_bottom - TOTAL_ROW
        self._draw_band(c, plan, grid, top)
        self._draw_game_rows(c, plan, grid, body_top, row)
        self._draw_head(c, plan, grid, head_top)
        self._draw_totals(c, plan, grid, body_bottom)
        self._draw_frame(c, plan, grid, head_top, totals_bottom)
        self._draw_sitting_out(c, plan, grid, body_top, row)
        self._draw_signatures(c, plan, grid, totals_bottom)
        self._draw_rule_box(c, grid, rule_top, rule_lines)
        self._draw_legend(c, grid)

    # --- pieces, top to bottom --------------------------------------------------------------

    def _draw_band(self, c: Canvas, plan: SheetPlan, grid: _Grid, top: float) -> None:
        half = (grid.right - grid.left) / 2
        _draw_text(c, grid.left, top - 5.5 * mm, self.tournament.name, TOURNAMENT, half)
        details = tournament_details(self.tournament)
        _draw_text(c, grid.left, top - 11 * mm, details, DETAILS, half)
        games = _("%(n)s Spiele") % {"n": plan.games}
        kind = f"{plan.kind_label} · {mode_title(plan.mode)} · {games}"
        _draw_text(c, grid.left, top - 16.5 * mm, kind, INFO, half)
        if plan.table_number is not None:
            table = _("Tisch %(n)s") % {"n": plan.table_number}
        else:
            table = _("Tisch ____")
        _draw_text(c, grid.right, top - 9 * mm, table, TABLE_NUMBER, half / 2)
        title = f"{_('Spielzettel')} · {round_title(plan.round_number)}"
        _draw_text(c, grid.right, top - 16.5 * mm, title, SHEET_TITLE, half)
        scorer = _("Listenführer/in: %(name)s") % {"name": plan.scorer or "_" * 16}
        _draw_text(c, grid.left + half + 5 * mm, top - 16.5 * mm, scorer, INFO, half / 2 - 5 * mm)

    def _draw_head(self, c: Canvas, plan: SheetPlan, grid: _Grid, top: float) -> None:
        bottom = top - HEAD_TOP - HEAD_SUB
        c.setFillColor(TINT)
        c.rect(grid.left, bottom, grid.right - grid.left, HEAD_TOP + HEAD_SUB, stroke=0, fill=1)
        labels = (_("Spiel"), _("Geber"), _("Spielmacher"), _("Reizwert"), _("Art"))
        middle = bottom + (HEAD_TOP + HEAD_SUB) / 2 - 1.2 * mm
        for x, w, label in zip(grid.fixed, FIXED_WIDTHS, labels, strict=True):
            _draw_text(c, x + w / 2, middle, label, HEAD, w - 1.5 * mm)
        subs = (_("Meldung"), _("Stiche"), _("Punkte"), _("Stand"))
        for i, party in enumerate(plan.parties):
            centre = grid.party_left[i] + grid.party_width / 2
            inner = grid.party_width - 2 * mm
            if party.start_number is not None:
                number = _("Nr. %(n)s") % {"n": party.start_number}
            else:
                number = _("Nr. ____")
            _draw_text(c, centre, top - 4.2 * mm, f"{party.number} · {number}", PARTY_NUMBER, inner)
            _draw_text(c, centre, top - 8.8 * mm, party.name or "_" * 24, PARTY_NAME, inner)
            for s, label in enumerate(subs):
                sub_centre = grid.sub_left(i, s) + grid.sub_widths[s] / 2
                sub_width = grid.sub_widths[s] - 1 * mm
                _draw_text(c, sub_centre, bottom + 1.9 * mm, label, SUBHEAD, sub_width)

    def _draw_game_rows(
        self, c: Canvas, plan: SheetPlan, grid: _Grid, top: float, row: float
    ) -> None:
        x_game, x_dealer, x_declarer, _x_bid, x_kind = grid.fixed
        parties = " ".join(str(p.number) for p in plan.parties)
        kinds = "  ".join(_kind_letter(k) for k in GameKind.values)
        text_y = row / 2 - 1.3 * mm
        for game in range(1, plan.games + 1):
            y = top - game * row
            base = y + text_y
            if game % 2 == 0:
                c.setFillColor(LIGHT)
                c.rect(grid.left, y, grid.right - grid.left, row, stroke=0, fill=1)
            _draw_text(c, x_game + GAME_WIDTH / 2, base, str(game), GAME_NUMBER)
            dealer = plan.dealer(game)
            if plan.players[dealer - 1]:
                _draw_text(c, x_dealer + 1.2 * mm, base, str(dealer), HINT)
                label = plan.players[dealer - 1]
            else:
                label = _("Platz %(n)s") % {"n": dealer}
            _draw_text(c, x_dealer + 4.5 * mm, base, label, DEALER, DEALER_WIDTH - 5.5 * mm)
            declarer_centre = x_declarer + DECLARER_WIDTH / 2
            _draw_text(c, declarer_centre, base, parties, HINT_CENTRE, DECLARER_WIDTH - 2 * mm)
            _draw_text(c, x_kind + KIND_WIDTH / 2, base, kinds, HINT_CENTRE, KIND_WIDTH - 2 * mm)

    def _draw_totals(self, c: Canvas, plan: SheetPlan, grid: _Grid, top: float) -> None:
        bottom = top - TOTAL_ROW
        label_x = grid.left + FIXED_WIDTH - 2 * mm
        _draw_text(c, label_x, bottom + TOTAL_ROW / 2 - 1.5 * mm, _("Summe"), TOTAL_LABEL)
        c.setLineWidth(THICK)
        for i in range(len(plan.parties)):
            c.setFillColor(LIGHT)
            shaded = grid.sub_widths[0] + grid.sub_widths[1]
            c.rect(grid.party_left[i], bottom, shaded, TOTAL_ROW, stroke=0, fill=1)
            written = grid.sub_widths[2] + grid.sub_widths[3]
            c.rect(grid.sub_left(i, 2), bottom, written, TOTAL_ROW, stroke=1, fill=0)
        c.setFillColor(black)

    def _draw_frame(
        self, c: Canvas, plan: SheetPlan, grid: _Grid, top: float, bottom: float
    ) -> None:
        """Thin lines between columns and rows, thick ones around the parties and the table."""
        head_bottom = top - HEAD_TOP - HEAD_SUB
        body_bottom = bottom + TOTAL_ROW
        row = (head_bottom - body_bottom) / plan.games
        c.setStrokeColor(black)
        c.setLineWidth(THIN)
        for g in range(1, plan.games):
            c.line(grid.left, head_bottom - g * row, grid.right, head_bottom - g * row)
        for x in grid.fixed[1:]:
            c.line(x, top, x, body_bottom)
        for i, left in enumerate(grid.party_left):
            c.line(left, top - HEAD_TOP, left + grid.party_width, top - HEAD_TOP)
            for s in range(1, len(PARTY_SUBCOLUMNS)):
                c.line(grid.sub_left(i, s), top - HEAD_TOP, grid.sub_left(i, s), bottom)
        c.setLineWidth(THICK)
        c.line(grid.left, head_bottom, grid.right, head_bottom)
        for x in grid.party_left:
            c.line(x, top, x, bottom)
        c.rect(grid.left, body_bottom, grid.right - grid.left, top - body_bottom, stroke=1, fill=0)
        c.line(grid.right, body_bottom, grid.right, bottom)
        c.line(grid.party_left[0], bottom, grid.right, bottom)

    def _draw_sitting_out(
        self, c: Canvas, plan: SheetPlan, grid: _Grid, top: float, row: float
    ) -> None:
        """At a 4-table, the dealer's party cells of each game are greyed: it sits out."""
        inset = THICK / 2 + 0.3
        for game in range(1, plan.games + 1):
            out = plan.sits_out(game)
            if out is None:
                continue
            left, y = grid.party_left[out - 1], top - game * row
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
        """A signature line under each party's total; the desk notes entry and check."""
        y = top - SIGN_HEIGHT + 5.5 * mm
        c.setLineWidth(0.6)
        for i, party in enumerate(plan.parties):
            x, w = grid.party_left[i] + 3 * mm, grid.party_width - 6 * mm
            c.line(x, y, x + w, y)
            label = _("Unterschrift %(n)s") % {"n": party.number}
            if party.start_number is not None:
                label += f" · {party.start_number} {party.name}"
            _draw_text(c, x, y - 3.5 * mm, label, HINT, w)
        desk = _("Turnierleitung: eingegeben ______  geprüft ______")
        _draw_text(c, grid.left, y, desk, HINT, FIXED_WIDTH - 4 * mm)

    def _draw_rule_box(self, c: Canvas, grid: _Grid, top: float, lines: Sequence[str]) -> None:
        """The tournament's scoring rules as its rule set states them, in up to three columns."""
        width = grid.right - grid.left
        height = RULE_BOX_HEIGHT - 1.5 * mm
        c.setLineWidth(0.6)
        c.setStrokeColor(GREY)
        c.roundRect(grid.left, top - height, width, height, 1.5 * mm, stroke=1, fill=0)
        c.setStrokeColor(black)
        title = _("Wertung (Regelwerk %(preset)s)") % {"preset": self.tournament.preset}
        inner = width - 4 * mm
        _draw_text(c, grid.left + 2 * mm, top - 3.8 * mm, title, RULE_TITLE, inner)
        size, count, columns = _fit_rules(lines, fonts().regular, inner, height - 6 * mm)
        style = Style(size=size, minimum=size)
        for col, texts in enumerate(columns):
            x = grid.left + 2 * mm + col * inner / count
            for line, text in enumerate(texts):
                _draw_text(c, x, top - 5.5 * mm - (line + 1) * size * LEADING, text, style)

    def _draw_legend(self, c: Canvas, grid: _Grid) -> None:
        kinds = ", ".join(f"{_kind_letter(k)} = {label}" for k, label in GameKind.choices)
        text = _(
            "Spielmacher: Nummer der Partei einkreisen · Art: %(kinds)s · Stand: Summe der "
            "Punkte bis hier · Geber: vorgedruckt ist der übliche Wechsel, bitte berichtigen, "
            "wenn jemand anderes gibt"
        ) % {"kinds": kinds}
        _draw_text(c, grid.left, SHEET_MARGIN, text, LEGEND, grid.right - grid.left)


def _fit_rules(
    lines: Sequence[str], font: str, width: float, height: float
) -> tuple[float, int, list[list[str]]]:
    """Font size, column count and columns of wrapped lines so that the rule lines fit the
    box: the largest size at which one, two or three columns hold them, a rule never split
    between columns. At the smallest size, rules that do not fit are left out rather than
    printed over the legend."""
    size = RULE_SIZE
    while True:
        rows = int(height // (size * LEADING))
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
