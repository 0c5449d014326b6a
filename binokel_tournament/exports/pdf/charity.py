"""The charity evening on paper: donation slips (per entrant, or per table of a round: what
each owes for Startgeld and lost games, paid or open), and the charity lines of the
certificates (what the entrant played in for the purpose, the prize). Data from
``services.charity`` — the same statements the desk shows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from charity.money import Statement

from ...models import Entrant, Table, Tournament
from ...numbers import euro as euro_text
from ...services.money import charity, prizes
from ...services.money.subrankings import sub_rankings
from ..base import ExportError, ExportOptions, OfferedPerCompetition, OfferedWhole
from .base import (
    GREY,
    LIGHT,
    MARGIN,
    PORTRAIT,
    PdfExporter,
    Style,
    _draw_footer,
    _draw_text,
    competition_title,
    competitions,
    number,
    tournament_line,
)

SLIP_COLUMNS = 2
SLIP_ROWS = 5
SLIP_GAP = 4 * mm
SLIP_PAD = 4 * mm
LINE = 5.2 * mm
SLIP_TITLE = Style("bold", 12)
SLIP_SMALL = Style(size=8, color=GREY)
SLIP_TEXT = Style(size=10)
SLIP_RIGHT = Style(size=10, align="right")
SLIP_TOTAL = Style("bold", 11)
SLIP_TOTAL_RIGHT = Style("bold", 11, align="right")
TABLE_ROW = Style(size=9)
TABLE_ROW_RIGHT = Style(size=9, align="right")
PRIZE_TITLE = Style("bold", 18)
PRIZE_TEXT = Style(size=11)
PRIZE_RIGHT = Style(size=11, align="right")
PRIZE_ROW = 7 * mm
# the certificates' charity lines
CERT_MONEY = Style("serif", 14, align="center")
CERT_PRIZE = Style("serif_bold", 16, align="center")


def paid_text(paid: bool) -> str:
    return _("bezahlt") if paid else _("offen")


@dataclass(frozen=True)
class Slip:
    title: str
    lines: Sequence[Statement]


class DonationsExporter(OfferedPerCompetition, PdfExporter):
    """Ten slips per A4 page, to cut: one per entrant, or with a round one per table."""

    identifier = "donations"
    file_stem = "spenden"
    verbose_name = gettext_lazy("Spendenzettel (PDF)")
    pagesize = PORTRAIT

    def document_title(self, options: ExportOptions) -> str:
        return _("Spendenzettel")

    def slips(self, options: ExportOptions) -> list[Slip]:
        items = charity.statements(self.tournament, options.mode)
        if not items:
            raise ExportError(_("Es ist noch niemand angemeldet."))
        number = self.round_number(options)
        if number is None:
            return [
                Slip(_("Nr. %(n)s") % {"n": i.entrant.start_number}, [i.statement]) for i in items
            ]
        by_entrant = {i.entrant.pk: i.statement for i in items}
        tables = (
            Table.objects.filter(round__tournament=self.tournament, round__number=number)
            .prefetch_related("seats")
            .order_by("number")
        )
        if options.mode:
            tables = tables.filter(competition__mode=options.mode)
        slips = []
        for table in tables:
            lines = [
                by_entrant[s.entrant_id]
                for s in sorted(table.seats.all(), key=lambda s: s.position)
                if s.entrant_id in by_entrant
            ]
            title = _("Tisch %(table)s · %(round)s. Durchgang") % {
                "table": table.number,
                "round": number,
            }
            slips.append(Slip(title, lines))
        if not slips:
            raise ExportError(
                _("Für den %(n)s. Durchgang gibt es noch keine Tische.") % {"n": number}
            )
        return slips

    def draw(self, c: Canvas, options: ExportOptions) -> None:
        width, height = self.pagesize
        slip_w = (width - 2 * MARGIN - (SLIP_COLUMNS - 1) * SLIP_GAP) / SLIP_COLUMNS
        slip_h = (height - 2 * MARGIN - 6 * mm - (SLIP_ROWS - 1) * SLIP_GAP) / SLIP_ROWS
        per_page = SLIP_COLUMNS * SLIP_ROWS
        rule = charity.describe_donation(self.tournament)
        slips = self.slips(options)
        for index, slip in enumerate(slips):
            at = index % per_page
            if index and not at:
                c.showPage()
            if not at:
                _draw_footer(
                    c, self.pagesize, tournament_line(self.tournament), index // per_page + 1
                )
            col, row = at % SLIP_COLUMNS, at // SLIP_COLUMNS
            x = MARGIN + col * (slip_w + SLIP_GAP)
            top = height - MARGIN - row * (slip_h + SLIP_GAP)
            self._draw_slip(c, x, top, slip_w, slip_h, slip, rule)

    def _draw_slip(
        self, c: Canvas, x: float, top: float, w: float, h: float, slip: Slip, rule: str
    ) -> None:
        c.setStrokeColor(GREY)
        c.setDash(2, 2)
        c.setLineWidth(0.5)
        c.rect(x, top - h, w, h)
        c.setDash()
        inner = w - 2 * SLIP_PAD
        left, right = x + SLIP_PAD, x + w - SLIP_PAD
        y = top - SLIP_PAD - 3 * mm
        _draw_text(c, left, y, slip.title, SLIP_TITLE, inner)
        y -= 4 * mm
        _draw_text(c, left, y, f"{self.tournament.name} · {rule}", SLIP_SMALL, inner)
        y -= LINE
        if len(slip.lines) == 1:
            s = slip.lines[0]
            _draw_text(c, left, y, s.name, SLIP_TOTAL, inner)
            y -= LINE
            label = _("Startgeld (%(paid)s)") % {"paid": paid_text(s.fee_paid)}
            _draw_text(c, left, y, label, SLIP_TEXT, inner * 0.7)
            _draw_text(c, right, y, euro_text(s.fee_cents), SLIP_RIGHT)
            y -= LINE
            label = _("%(lost)s verlorene Spiele: Spende (%(paid)s)") % {
                "lost": s.lost,
                "paid": paid_text(s.donation_paid),
            }
            _draw_text(c, left, y, label, SLIP_TEXT, inner * 0.75)
            _draw_text(c, right, y, euro_text(s.donation_cents), SLIP_RIGHT)
            y -= LINE
            c.setStrokeColor(GREY)
            c.line(left, y + LINE * 0.6, right, y + LINE * 0.6)
            _draw_text(c, left, y, _("Noch zu zahlen"), SLIP_TOTAL, inner * 0.7)
            _draw_text(c, right, y, euro_text(s.open_cents), SLIP_TOTAL_RIGHT)
            return
        # one table: a line per entrant
        _draw_text(c, left, y, _("Nr. · Name · verloren · Spende · offen"), SLIP_SMALL, inner)
        y -= 4.2 * mm
        for index, s in enumerate(slip.lines):
            if index % 2:
                c.setFillColor(LIGHT)
                c.rect(left - 1 * mm, y - 1.3 * mm, inner + 2 * mm, 4.4 * mm, stroke=0, fill=1)
            _draw_text(c, left, y, f"{s.start_number} {s.name}", TABLE_ROW, inner * 0.5)
            _draw_text(c, left + inner * 0.62, y, str(s.lost), TABLE_ROW_RIGHT)
            _draw_text(c, left + inner * 0.8, y, euro_text(s.donation_cents), TABLE_ROW_RIGHT)
            _draw_text(c, right, y, euro_text(s.open_cents), TABLE_ROW_RIGHT)
            y -= 4.4 * mm
        total = sum(s.open_cents for s in slip.lines)
        _draw_text(c, left, y - 1 * mm, _("Tisch zahlt noch"), SLIP_TOTAL, inner * 0.6)
        _draw_text(c, right, y - 1 * mm, euro_text(total), SLIP_TOTAL_RIGHT)


class PrizesExporter(OfferedPerCompetition, PdfExporter):
    """The prize table per competition with the winners (a line to write on where a winner
    has not chosen yet): to read out at the prize giving and to pin up."""

    identifier = "prizes"
    file_stem = "preise"
    verbose_name = gettext_lazy("Preisliste (PDF)")
    pagesize = PORTRAIT

    def document_title(self, options: ExportOptions) -> str:
        return _("Preise")

    def draw(self, c: Canvas, options: ExportOptions) -> None:

        self.round_number(options)  # checked: a round the tournament lacks is an error
        tables = [
            t
            for t in prizes.tournament_prize_tables(self.tournament)
            if not options.mode or t.competition.mode == options.mode
        ]
        if not tables:
            raise ExportError(_("Es gibt noch keine Preise."))
        width, height = self.pagesize
        inner = width - 2 * MARGIN
        page = 1
        y = height - MARGIN
        for index, table in enumerate(tables):
            if index and y < MARGIN + 60 * mm:
                c.showPage()
                page += 1
                y = height - MARGIN
            if y == height - MARGIN:
                _draw_footer(c, self.pagesize, tournament_line(self.tournament), page)
            title = _("Preise – %(competition)s") % {
                "competition": competition_title(table.competition.mode)
            }
            _draw_text(c, MARGIN, y - 8 * mm, title, PRIZE_TITLE, inner)
            _draw_text(c, MARGIN, y - 14 * mm, tournament_line(self.tournament), SLIP_SMALL, inner)
            y -= 22 * mm
            for n, row in enumerate(table.rows):
                if y < MARGIN + 14 * mm:
                    c.showPage()
                    page += 1
                    _draw_footer(c, self.pagesize, tournament_line(self.tournament), page)
                    y = height - MARGIN - 6 * mm
                if n % 2:
                    c.setFillColor(LIGHT)
                    c.rect(MARGIN, y - 2.2 * mm, inner, PRIZE_ROW, stroke=0, fill=1)
                prize = row.prize
                label = prize.label
                _draw_text(c, MARGIN + 1 * mm, y, f"{prize.position}.", PRIZE_TEXT, 8 * mm)
                _draw_text(c, MARGIN + 10 * mm, y, label, PRIZE_TEXT, inner * 0.48)
                value = euro_text(prize.value_cents) if prize.value_cents else ""
                _draw_text(c, MARGIN + inner * 0.66, y, value, PRIZE_RIGHT)
                if row.entrant is not None:
                    who = (
                        f"{row.place}. {row.entrant.listed_name}"
                        if row.place
                        else (row.entrant.listed_name)
                    )
                    _draw_text(c, MARGIN + inner * 0.69, y, who, PRIZE_TEXT, inner * 0.31)
                else:
                    c.setStrokeColor(GREY)
                    c.line(MARGIN + inner * 0.69, y - 1, MARGIN + inner, y - 1)
                y -= PRIZE_ROW
            y -= 10 * mm


class CertificateCharity:
    """The charity lines of the certificates, computed once per document: what the entrant
    played in for the purpose, and the prizes they won."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self.active = charity.has_money(tournament)
        self._statements: dict[int, Statement] | None = None
        self._prizes: dict[int, list[str]] | None = None

    def prize_line(self, entrant: Entrant) -> str:
        if self._prizes is None:
            self._prizes = {}
            for table in prizes.tournament_prize_tables(self.tournament):
                for row in table.rows:
                    if row.entrant is not None:
                        self._prizes.setdefault(row.entrant.pk, []).append(row.prize.description)
        won = self._prizes.get(entrant.pk, [])
        return _("Preis: %(prizes)s") % {"prizes": ", ".join(won)} if won else ""

    def statement(self, entrant: Entrant) -> Statement | None:
        if not self.active:
            return None
        if self._statements is None:
            self._statements = {
                i.entrant.pk: i.statement for i in charity.statements(self.tournament)
            }
        return self._statements.get(entrant.pk)

    def money_line(self, entrant: Entrant) -> str:
        """ "Sie haben 6,50 € für … erspielt" (empty without money)."""
        s = self.statement(entrant)
        if s is None or not s.total_cents:
            return ""
        purpose = self.tournament.charity_purpose or _("den guten Zweck")
        return _("Sie haben %(amount)s für %(purpose)s erspielt.") % {
            "amount": euro_text(s.total_cents),
            "purpose": purpose,
        }

    def draw(self, c: Canvas, centre: float, top: float, width: float, entrant: Entrant) -> None:
        """Below the place: the money line."""
        line = self.money_line(entrant)
        if line:
            _draw_text(c, centre, top - 232 * mm, line, CERT_MONEY, width)
        prize = self.prize_line(entrant)
        if prize:
            _draw_text(c, centre, top - 222 * mm, prize, CERT_PRIZE, width)


class SubRankingsExporter(OfferedWhole, PdfExporter):
    """Each category's ranking and the club ranking, per competition."""

    identifier = "categories"
    file_stem = "kategorien"
    verbose_name = gettext_lazy("Kategorien und Vereine (PDF)")
    pagesize = PORTRAIT

    def document_title(self, options: ExportOptions) -> str:
        return _("Kategorien und Vereine")

    def draw(self, c: Canvas, options: ExportOptions) -> None:
        from .lists import ListColumn, ListPages

        pages = ListPages(c, self.pagesize, tournament_line(self.tournament))
        people = [
            ListColumn(_("Platz"), 0.09),
            ListColumn(_("gesamt"), 0.09),
            ListColumn(_("Nr."), 0.07, "right"),
            ListColumn(_("Name"), 0.42),
            ListColumn(_("Verein"), 0.2),
            ListColumn(_("Punkte"), 0.13, "right"),
        ]
        clubs = [
            ListColumn(_("Platz"), 0.09),
            ListColumn(_("Verein"), 0.3),
            ListColumn(_("Punkte"), 0.13, "right"),
            ListColumn(_("gewertet"), 0.48),
        ]
        drawn = False
        for competition in competitions(self, options):
            sub = sub_rankings(competition, self.round_number(options))
            title = competition_title(competition.mode)
            for cat in sub.categories:
                rows = [
                    [
                        r.place_label,
                        f"{r.place.overall}.",
                        str(r.row.entrant.start_number),
                        r.row.entrant.listed_name,
                        r.row.entrant.club,
                        number(r.row.total),
                    ]
                    for r in cat.rows
                ]
                pages.block(f"{title}: {cat.label}", people, rows)
                drawn = True
            if sub.club_best and sub.clubs:
                rows = [
                    [
                        f"{x.place.place}." if x.place.place else "–",
                        x.place.club,
                        number(x.place.total),
                        ", ".join(e.display_name for e in x.counted),
                    ]
                    for x in sub.clubs
                ]
                block = _("%(competition)s: Vereinswertung (die besten %(k)s)") % {
                    "competition": title,
                    "k": sub.club_best,
                }
                pages.block(block, clubs, rows)
                drawn = True
        if not drawn:
            raise ExportError(_("Noch keine Kategorien und keine Vereinswertung mit Ergebnissen."))
