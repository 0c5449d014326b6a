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

from ...models import GameKind, Table, TableKind
from ...services.results import sheet_layout
from ..base import ExportOptions
from .base import (
    GREY,
    LANDSCAPE,
    LIGHT,
    TINT,
    PdfExporter,
    _draw_text,
    mode_title,
    round_title,
    tournament_line,
)
from .data import load_tables
from .fonts import fonts

SHEET_MARGIN = 10 * mm
# top band
BAND_HEIGHT = 19 * mm
BAND_GAP = 3 * mm
# fixed columns, as on the desk's screen
GAME_WIDTH = 10 * mm
DEALER_WIDTH = 42 * mm
DECLARER_WIDTH = 17 * mm
BID_WIDTH = 15 * mm
KIND_WIDTH = 18 * mm
FIXED_WIDTH = GAME_WIDTH + DEALER_WIDTH + DECLARER_WIDTH + BID_WIDTH + KIND_WIDTH
# per party: Meldung, Stiche, Punkte, Stand (relative widths)
PARTY_SUBCOLUMNS = (1.0, 1.0, 1.1, 1.15)
# rows
HEAD_TOP = 11 * mm
HEAD_SUB = 6 * mm
MAX_ROW = 9 * mm
TOTAL_ROW = 9 * mm
FOOT_HEIGHT = 31 * mm
LEGEND_HEIGHT = 4 * mm
# type
GAME_SIZE = 11
DEALER_SIZE = 9
HINT_SIZE = 7.5
HEAD_SIZE = 8
PARTY_SIZE = 9.5
RULE_SIZE = 6.8
RULE_MIN_SIZE = 5.2
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


def sheet_plan(table: Table, games: int | None = None) -> SheetPlan:
    rules = table.round.tournament.rules()
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
        games=games if games is not None else layout.games,
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
    """Column x positions of one sheet (left edges), computed from the constants above."""

    left: float
    party_left: tuple[float, ...]
    sub_widths: tuple[float, ...]
    party_width: float
    right: float

    @classmethod
    def for_parties(cls, count: int, page_width: float) -> _Grid:
        left = SHEET_MARGIN
        right = page_width - SHEET_MARGIN
        party_width = (right - left - FIXED_WIDTH) / count
        unit = party_width / sum(PARTY_SUBCOLUMNS)
        subs = tuple(unit * r for r in PARTY_SUBCOLUMNS)
        starts = tuple(left + FIXED_WIDTH + i * party_width for i in range(count))
        return cls(left, starts, subs, party_width, right)

    @property
    def fixed(self) -> tuple[float, ...]:
        """Left edges of Spiel, Geber, Spielmacher, Reizwert, Art."""
        x = self.left
        out = []
        for w in (GAME_WIDTH, DEALER_WIDTH, DECLARER_WIDTH, BID_WIDTH, KIND_WIDTH):
            out.append(x)
            x += w
        return tuple(out)

    def sub_left(self, party: int, sub: int) -> float:
        return self.party_left[party] + sum(self.sub_widths[:sub])


class ScoreSheetsExporter(PdfExporter):
    identifier = "spielzettel"
    verbose_name = _lazy("Spielzettel (PDF)")
    pagesize = LANDSCAPE

    def document_title(self, options: ExportOptions) -> str:
        return _("Spielzettel")

    def draw(self, c: Canvas, options: ExportOptions) -> None:
        rules = self.tournament.rules()
        lang = get_language() or "de"
        rule_lines = list(rules.describe(lang=lang))
        tables = load_tables(self.rounds(options))
        first = True
        by_round: dict[int, list[Table]] = {}
        for table in tables:
            by_round.setdefault(table.round.number, []).append(table)
        for number, round_tables in by_round.items():
            plans = [sheet_plan(t) for t in round_tables]
            kinds: dict[str, str] = {}
            for plan in plans:
                kinds.setdefault(plan.kind, plan.mode)
            order = [k for k in TableKind.values if k in kinds]
            plans += [blank_plan(number, k, kinds[k], rules.games_for(k)) for k in order]
            for plan in plans:
                if not first:
                    c.showPage()
                first = False
                self.draw_sheet(c, plan, rule_lines)

    def draw_sheet(self, c: Canvas, plan: SheetPlan, rule_lines: Sequence[str]) -> None:
        width, height = self.pagesize
        grid = _Grid.for_parties(len(plan.parties), width)
        top = height - SHEET_MARGIN
        self._draw_band(c, plan, grid, top)
        head_top = top - BAND_HEIGHT - BAND_GAP
        body_top = head_top - HEAD_TOP - HEAD_SUB
        room = body_top - TOTAL_ROW - FOOT_HEIGHT - LEGEND_HEIGHT - SHEET_MARGIN
        row = min(MAX_ROW, room / plan.games)
        body_bottom = body_top - plan.games * row
        self._draw_game_rows(c, plan, grid, body_top, row)
        self._draw_head(c, plan, grid, head_top)
        totals_bottom = body_bottom - TOTAL_ROW
        self._draw_totals(c, plan, grid, body_bottom)
        self._draw_frame(c, plan, grid, head_top, totals_bottom)
        self._draw_signatures(c, plan, grid, totals_bottom)
        self._draw_rule_box(c, grid, totals_bottom - 3 * mm, rule_lines)
        self._draw_legend(c, plan, grid)

    # --- pieces ---------------------------------------------------------------------------

    def _draw_band(self, c: Canvas, plan: SheetPlan, grid: _Grid, top: float) -> None:
        f = fonts()
        half = (grid.right - grid.left) / 2
        _draw_text(c, grid.left, top - 5.5 * mm, self.tournament.name, f.bold, 14, half)
        _draw_text(
            c,
            grid.left,
            top - 11 * mm,
            tournament_line(self.tournament),
            f.regular,
            9,
            half,
            color=GREY,
        )
        games = _("%(n)s Spiele") % {"n": plan.games}
        kind = f"{plan.kind_label} · {mode_title(plan.mode)} · {games}"
        _draw_text(c, grid.left, top - 16.5 * mm, kind, f.regular, 9, half)
        table = (
            _("Tisch %(n)s") % {"n": plan.table_number}
            if plan.table_number is not None
            else _("Tisch ____")
        )
        _draw_text(c, grid.right, top - 9 * mm, table, f.bold, 26, half / 2, align="right")
        title = f"{_('Spielzettel')} · {round_title(plan.round_number)}"
        _draw_text(c, grid.right, top - 16.5 * mm, title, f.bold, 11, half, align="right")
        scorer = plan.scorer or "________________"
        _draw_text(
            c,
            grid.left + half + 5 * mm,
            top - 16.5 * mm,
            _("Listenführer/in: %(name)s") % {"name": scorer},
            f.regular,
            9,
            half / 2 - 5 * mm,
        )

    def _draw_head(self, c: Canvas, plan: SheetPlan, grid: _Grid, top: float) -> None:
        f = fonts()
        bottom = top - HEAD_TOP - HEAD_SUB
        c.setFillColor(TINT)
        c.rect(grid.left, bottom, grid.right - grid.left, HEAD_TOP + HEAD_SUB, stroke=0, fill=1)
        c.setFillColor(black)
        labels = (_("Spiel"), _("Geber"), _("Spielmacher"), _("Reizwert"), _("Art"))
        widths = (GAME_WIDTH, DEALER_WIDTH, DECLARER_WIDTH, BID_WIDTH, KIND_WIDTH)
        middle = bottom + (HEAD_TOP + HEAD_SUB) / 2 - 1.2 * mm
        for x, w, label in zip(grid.fixed, widths, labels, strict=True):
            _draw_text(
                c,
                x + w / 2,
                middle,
                label,
                f.bold,
                HEAD_SIZE,
                w - 1.5 * mm,
                align="center",
                minimum=5.5,
            )
        subs = (_("Meldung"), _("Stiche"), _("Punkte"), _("Stand"))
        for i, party in enumerate(plan.parties):
            x = grid.party_left[i]
            w = grid.party_width
            line1 = f"{party.number}"
            if party.start_number is not None:
                line1 += " · " + _("Nr. %(n)s") % {"n": party.start_number}
            else:
                line1 += " · " + _("Nr. ____")
            _draw_text(
                c, x + w / 2, top - 4.2 * mm, line1, f.bold, PARTY_SIZE, w - 2 * mm, align="center"
            )
            name = party.name or "_" * 24
            _draw_text(
                c,
                x + w / 2,
                top - 8.8 * mm,
                name,
                f.regular,
                PARTY_SIZE,
                w - 2 * mm,
                align="center",
                minimum=6,
            )
            for s, label in enumerate(subs):
                sx = grid.sub_left(i, s)
                sw = grid.sub_widths[s]
                _draw_text(
                    c,
                    sx + sw / 2,
                    bottom + 1.9 * mm,
                    label,
                    f.regular,
                    HEAD_SIZE - 0.5,
                    sw - 1 * mm,
                    align="center",
                    minimum=5,
                )

    def _draw_game_rows(
        self, c: Canvas, plan: SheetPlan, grid: _Grid, top: float, row: float
    ) -> None:
        f = fonts()
        x_game, x_dealer, x_declarer, _x_bid, x_kind = grid.fixed
        parties = " ".join(str(p.number) for p in plan.parties)
        kinds = "  ".join(_kind_letter(k) for k in GameKind.values)
        text_y = row / 2 - 1.3 * mm
        for game in range(1, plan.games + 1):
            y = top - game * row
            if game % 2 == 0:
                c.setFillColor(LIGHT)
                c.rect(grid.left, y, grid.right - grid.left, row, stroke=0, fill=1)
            out = plan.sits_out(game)
            if out is not None:
                c.setFillColor(LIGHT)
                c.rect(grid.party_left[out - 1], y, grid.party_width, row, stroke=0, fill=1)
                _draw_text(
                    c,
                    grid.party_left[out - 1] + grid.party_width / 2,
                    y + text_y,
                    _("setzt aus"),
                    f.regular,
                    HINT_SIZE,
                    color=GREY,
                    align="center",
                )
            c.setFillColor(black)
            _draw_text(
                c, x_game + GAME_WIDTH / 2, y + text_y, str(game), f.bold, GAME_SIZE, align="center"
            )
            dealer = plan.dealer(game)
            _draw_text(
                c, x_dealer + 1.2 * mm, y + text_y, str(dealer), f.regular, HINT_SIZE, color=GREY
            )
            label = plan.players[dealer - 1] or _("Platz %(n)s") % {"n": dealer}
            _draw_text(
                c,
                x_dealer + 4.5 * mm,
                y + text_y,
                label,
                f.regular,
                DEALER_SIZE,
                DEALER_WIDTH - 5.5 * mm,
                minimum=5.5,
            )
            _draw_text(
                c,
                x_declarer + DECLARER_WIDTH / 2,
                y + text_y,
                parties,
                f.regular,
                HINT_SIZE,
                DECLARER_WIDTH - 2 * mm,
                align="center",
                color=GREY,
            )
            _draw_text(
                c,
                x_kind + KIND_WIDTH / 2,
                y + text_y,
                kinds,
                f.regular,
                HINT_SIZE,
                KIND_WIDTH - 2 * mm,
                align="center",
                color=GREY,
            )

    def _draw_totals(self, c: Canvas, plan: SheetPlan, grid: _Grid, top: float) -> None:
        f = fonts()
        bottom = top - TOTAL_ROW
        _draw_text(
            c,
            grid.left + FIXED_WIDTH - 2 * mm,
            bottom + TOTAL_ROW / 2 - 1.5 * mm,
            _("Summe"),
            f.bold,
            11,
            align="right",
        )
        for i in range(len(plan.parties)):
            c.setFillColor(LIGHT)
            c.rect(
                grid.party_left[i],
                bottom,
                grid.sub_widths[0] + grid.sub_widths[1],
                TOTAL_ROW,
                stroke=0,
                fill=1,
            )
            c.setFillColor(black)
            c.setLineWidth(THICK)
            sx = grid.sub_left(i, 2)
            c.rect(sx, bottom, grid.sub_widths[2] + grid.sub_widths[3], TOTAL_ROW, stroke=1, fill=0)

    def _draw_frame(
        self, c: Canvas, plan: SheetPlan, grid: _Grid, top: float, bottom: float
    ) -> None:
        """Grid lines: thin between columns and rows, thick around parties and the table."""
        head_bottom = top - HEAD_TOP - HEAD_SUB
        body_bottom = bottom + TOTAL_ROW
        rows = plan.games
        row = (head_bottom - body_bottom) / rows
        c.setStrokeColor(black)
        c.setLineWidth(THIN)
        for g in range(1, rows):
            y = head_bottom - g * row
            c.line(grid.left, y, grid.right, y)
        for x in grid.fixed[1:]:
            c.line(x, top, x, body_bottom)
        for i in range(len(plan.parties)):
            c.line(
                grid.party_left[i],
                top - HEAD_TOP,
                grid.party_left[i] + grid.party_width,
                top - HEAD_TOP,
            )
            for s in range(1, len(PARTY_SUBCOLUMNS)):
                x = grid.sub_left(i, s)
                c.line(x, top - HEAD_TOP, x, bottom)
        c.setLineWidth(THICK)
        c.line(grid.left, head_bottom, grid.right, head_bottom)
        c.line(grid.left, body_bottom, grid.right, body_bottom)
        for x in grid.party_left:
            c.line(x, top, x, bottom)
        c.rect(grid.left, body_bottom, grid.right - grid.left, top - body_bottom, stroke=1, fill=0)
        c.line(grid.right, body_bottom, grid.right, bottom)
        c.line(grid.party_left[0], bottom, grid.right, bottom)

    def _draw_signatures(self, c: Canvas, plan: SheetPlan, grid: _Grid, top: float) -> None:
        f = fonts()
        y = top - 17 * mm
        c.setLineWidth(0.6)
        for i, party in enumerate(plan.parties):
            x = grid.party_left[i] + 3 * mm
            w = grid.party_width - 6 * mm
            c.line(x, y, x + w, y)
            label = _("Unterschrift %(n)s") % {"n": party.number}
            if party.start_number is not None:
                label += f" · {party.start_number} {party.name}"
            _draw_text(c, x, y - 3.5 * mm, label, f.regular, HINT_SIZE, w, color=GREY, minimum=5)

    def _draw_rule_box(self, c: Canvas, grid: _Grid, top: float, lines: Sequence[str]) -> None:
        f = fonts()
        width = FIXED_WIDTH - 3 * mm
        height = FOOT_HEIGHT - 3 * mm
        x, bottom = grid.left, top - height
        c.setLineWidth(0.6)
        c.setStrokeColor(GREY)
        c.roundRect(x, bottom, width, height, 1.5 * mm, stroke=1, fill=0)
        c.setStrokeColor(black)
        title = _("Wertung (Regelwerk %(preset)s)") % {"preset": self.tournament.preset}
        _draw_text(c, x + 2 * mm, top - 3.6 * mm, title, f.bold, RULE_SIZE + 0.5, width - 4 * mm)
        area = height - 5.5 * mm
        size, columns, wrapped = _fit_rules(lines, f.regular, width - 4 * mm, area)
        leading = size * 1.18
        column_width = (width - 4 * mm) / columns
        per_column = -(-len(wrapped) // columns)
        for index, text in enumerate(wrapped):
            col, line = divmod(index, per_column)
            tx = x + 2 * mm + col * column_width
            ty = top - 5.5 * mm - (line + 1) * leading + 0.5 * mm
            _draw_text(c, tx, ty, text, f.regular, size)

    def _draw_legend(self, c: Canvas, plan: SheetPlan, grid: _Grid) -> None:
        f = fonts()
        kinds = ", ".join(f"{_kind_letter(k)} = {label}" for k, label in GameKind.choices)
        text = _(
            "Spielmacher: Nummer der Partei einkreisen · Art: %(kinds)s · Stand: Summe der "
            "Punkte bis hier · Geber: vorgedruckt ist der übliche Wechsel, bitte berichtigen, "
            "wenn jemand anderes gibt"
        ) % {"kinds": kinds}
        _draw_text(
            c,
            grid.left,
            SHEET_MARGIN,
            text,
            f.regular,
            6.5,
            grid.right - grid.left,
            color=GREY,
            minimum=5,
        )


def _kind_letter(kind: str) -> str:
    return {"played": _("g"), "conceded": _("a"), "durch": _("D")}.get(kind, kind[:1])


def _fit_rules(
    lines: Sequence[str], font: str, width: float, height: float
) -> tuple[float, int, list[str]]:
    """Font size, number of columns and wrapped lines so the rule lines fill the box."""
    size = RULE_SIZE
    while True:
        for columns in (1, 2):
            column_width = width / columns - (1.5 * mm if columns > 1 else 0)
            wrapped: list[str] = []
            for line in lines:
                wrapped += simpleSplit(f"• {line}", font, size, column_width) or [""]
            per_column = -(-len(wrapped) // columns)
            if per_column * size * 1.18 <= height:
                return size, columns, wrapped
        if size <= RULE_MIN_SIZE:  # more rules than the box holds: keep what fits
            capacity = int(height // (size * 1.18)) * 2
            return size, 2, wrapped[:capacity]
        size = max(RULE_MIN_SIZE, size - 0.3)
