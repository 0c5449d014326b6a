"""Standings per competition (after round N) and certificates (Urkunden) for the first places.
The data comes from ``services.standings.compute_standings`` — the same ranking the desk and the
public pages show. Without a round the standings are those after the last round with confirmed
results, so columns of rounds not yet played do not print as zeros; a round asked for that has
no confirmed sheet yet prints a dash. "Endstand" only when every round is seated and every
sheet confirmed; before that a round not fully confirmed makes the standings provisional
("Vorläufiger Stand"), with the count of confirmed sheets beside it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from reportlab.lib.colors import Color
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from ...models import Competition
from ...services.evening.standings import RankingScope, StandingRow, Standings, compute_standings
from ..base import ExportError, ExportOptions, Offer, OfferedPerCompetition, competition_offers
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
    competition_title,
    competitions,
    number,
    tournament_details,
    tournament_line,
)
from .charity import CertificateCharity
from .fonts import fonts

# standings table (landscape, posted on a wall)
TITLE = Style("bold", 24)
SUBTITLE = Style("bold", 14, align="right")
DETAILS = Style(size=11, color=GREY)
NOTE = Style("bold", 11, color=GREY, align="right")
NOT_PLAYED = "–"  # a round without a counted game (yet) for this entrant
HEAD_HEIGHT = 26 * mm
TABLE_HEAD = 10 * mm
HEAD_SIZE = 10
ROW = 7.2 * mm
ROW_SIZE = 12.5
CELL_PAD = 1.5 * mm
PLACE_WIDTH = 17 * mm
NUMBER_WIDTH = 14 * mm
CLUB_WIDTH = 48 * mm
ROUND_WIDTH = 19 * mm
TOTAL_WIDTH = 25 * mm
METRIC_WIDTH = 22 * mm
# certificates (portrait)
BORDER_COLOUR = Color(0.18, 0.42, 0.28)
OUTER_BORDER = 9 * mm
INNER_BORDER = 12 * mm
CERT_HEADING = Style("serif_bold", 56, color=BORDER_COLOUR, align="center")
CERT_TOURNAMENT = Style("serif", 24, align="center")
CERT_DETAILS = Style("serif", 14, color=GREY, align="center")
CERT_COMPETITION = Style("serif", 20, align="center")
CERT_NAME = Style("serif_bold", 34, align="center", minimum=16)
CERT_TEXT = Style("serif", 18, align="center")
CERT_PLACE = Style("serif_bold", 60, color=BORDER_COLOUR, align="center")
CERT_SIGNATURE = Style("serif", 11, color=GREY)


@dataclass(frozen=True)
class _Col:
    label: str
    width: float
    align: str
    bold: bool = False
    size: float = ROW_SIZE

    def style(self) -> Style:
        minimum = 6 if self.align == "right" else 7
        font = "bold" if self.bold else "regular"
        return Style(font, self.size, align=self.align, minimum=minimum)


def _draw_cell(c: Canvas, x: float, width: float, y: float, text: str, style: Style) -> None:
    inner = width - 2 * CELL_PAD
    if style.align == "right":
        _draw_text(c, x + width - CELL_PAD, y, text, style, inner)
    else:
        _draw_text(c, x + CELL_PAD, y, text, style, inner)


class StandingsExporter(OfferedPerCompetition, PdfExporter):
    identifier = "standings"
    verbose_name = gettext_lazy("Rangliste (PDF)")
    file_stem = "rangliste"
    per_round = True  # after that round
    pagesize = LANDSCAPE

    def document_title(self, options: ExportOptions) -> str:
        return _("Rangliste")

    def draw(self, c: Canvas, options: ExportOptions) -> None:
        page = 0
        number = self.round_number(options)
        for competition in competitions(self, options):
            standings = compute_standings(competition, number)
            assert standings.state is not None
            page = self._draw_competition(c, standings, standings.state, page)

    def _columns(self, standings: Standings) -> list[_Col]:
        """Every column of the table; the name takes the width that is left."""
        cols = [
            _Col(_("Platz"), PLACE_WIDTH, "right", bold=True),
            _Col(_("Nr."), NUMBER_WIDTH, "right"),
            _Col(_("Name"), 0, "left"),
            _Col(_("Verein"), CLUB_WIDTH, "left", size=ROW_SIZE - 2),
        ]
        cols += [_Col(_("D%(n)s") % {"n": n}, ROUND_WIDTH, "right") for n in standings.rounds]
        cols.append(_Col(_("Gesamt"), TOTAL_WIDTH, "right", bold=True))
        cols += [_Col(str(m.label), METRIC_WIDTH, "right") for m in standings.metrics]
        name_width = self.pagesize[0] - 2 * MARGIN - sum(col.width for col in cols)
        return [col if col.width else replace(col, width=name_width) for col in cols]

    @staticmethod
    def _cells(standings: Standings, row: StandingRow, played: frozenset[int]) -> list[str]:
        e = row.entrant
        cells = [row.place_label, str(e.start_number), e.listed_name, e.club]
        cells += [
            number(p) if n in played and p is not None else NOT_PLAYED
            for n, p in zip(standings.rounds, row.round_points, strict=True)
        ]
        cells.append(number(row.total))
        cells += [number(row.metrics[m.key]) for m in standings.metrics]
        return cells

    def _draw_competition(
        self, c: Canvas, standings: Standings, heading: RankingScope, page: int
    ) -> int:
        columns = self._columns(standings)
        title = _("Rangliste %(competition)s") % {
            "competition": competition_title(standings.competition.mode)
        }
        height = self.pagesize[1]
        room = height - 2 * MARGIN - HEAD_HEIGHT - TABLE_HEAD - 4 * mm
        per_page = max(1, int(room // ROW))
        rows = standings.rows
        chunks = [rows[i : i + per_page] for i in range(0, len(rows), per_page)] or [[]]
        for chunk in chunks:
            if page:
                c.showPage()
            page += 1
            y = self._draw_page_head(c, title, heading, columns)
            for index, row in enumerate(chunk):
                cells = self._cells(standings, row, heading.played)
                self._draw_row(c, columns, cells, y, index % 2 == 1)
                y -= ROW
            _draw_footer(c, self.pagesize, tournament_line(self.tournament), page)
        return page

    def _draw_page_head(
        self, c: Canvas, title: str, heading: RankingScope, columns: list[_Col]
    ) -> float:
        width, height = self.pagesize
        top = height - MARGIN
        half = width / 2 - MARGIN
        _draw_text(c, MARGIN, top - 9 * mm, title, TITLE, half)
        _draw_text(c, width - MARGIN, top - 9 * mm, heading.subtitle, SUBTITLE, half)
        line = tournament_line(self.tournament)
        if heading.note:
            _draw_text(c, MARGIN, top - 16 * mm, line, DETAILS, half)
            _draw_text(c, width - MARGIN, top - 16 * mm, heading.note, NOTE, half)
        else:
            _draw_text(c, MARGIN, top - 16 * mm, line, DETAILS, 2 * half)
        y = top - HEAD_HEIGHT
        c.setFillColor(TINT)
        c.rect(MARGIN, y - TABLE_HEAD, width - 2 * MARGIN, TABLE_HEAD, stroke=0, fill=1)
        bold = fonts().bold
        x = MARGIN
        for col in columns:
            # a long label ("bester Durchgang") takes two lines rather than shrinking
            lines = simpleSplit(col.label, bold, HEAD_SIZE, col.width - 2 * CELL_PAD)[:2]
            style = Style("bold", HEAD_SIZE, align=col.align, minimum=6)
            base = y - TABLE_HEAD + (2.2 * mm if len(lines) > 1 else 3.4 * mm)
            for line in reversed(lines):
                _draw_cell(c, x, col.width, base, line, style)
                base += HEAD_SIZE * 1.1
            x += col.width
        c.setStrokeColor(GREY)
        c.setLineWidth(0.8)
        c.line(MARGIN, y - TABLE_HEAD, width - MARGIN, y - TABLE_HEAD)
        return y - TABLE_HEAD

    def _draw_row(
        self, c: Canvas, columns: list[_Col], cells: Sequence[str], top: float, shaded: bool
    ) -> None:
        if shaded:
            c.setFillColor(LIGHT)
            c.rect(MARGIN, top - ROW, self.pagesize[0] - 2 * MARGIN, ROW, stroke=0, fill=1)
        x = MARGIN
        for col, text in zip(columns, cells, strict=True):
            _draw_cell(c, x, col.width, top - ROW + 2.2 * mm, text, col.style())
            x += col.width


class CertificatesExporter(PdfExporter):
    """One portrait page per entrant placed in the first ``options.top`` places (shared places
    included, entrants "außer Konkurrenz" never), per competition — or, with
    ``options.start_numbers``, of those entrants whatever their place (a player's own)."""

    identifier = "certificates"
    verbose_name = gettext_lazy("Urkunden (PDF)")
    file_stem = "urkunden"
    pagesize = PORTRAIT

    @classmethod
    def offers(cls, competitions: Sequence[Competition]) -> list[Offer]:
        return [Offer(_("Plätze 1–3"))] + competition_offers(competitions)

    def document_title(self, options: ExportOptions) -> str:
        return _("Urkunden")

    def draw(self, c: Canvas, options: ExportOptions) -> None:
        pages = 0
        number = self.round_number(options)
        self.charity = CertificateCharity(self.tournament)
        for competition in competitions(self, options):
            for row in compute_standings(competition, number).rows:
                if row.place is None or row.games == 0:
                    continue
                if options.start_numbers:  # a player's own certificate, whatever the place
                    if row.entrant.start_number not in options.start_numbers:
                        continue
                elif row.place > options.top:
                    continue
                if pages:
                    c.showPage()
                pages += 1
                self._draw_certificate(c, competition, row)
        if not pages:
            raise ExportError(
                _("Für Urkunden braucht es bestätigte Ergebnisse: noch hat niemand gespielt.")
            )

    def _draw_certificate(self, c: Canvas, competition: Competition, row: StandingRow) -> None:
        width, height = self.pagesize
        centre = width / 2
        inner = width - 2 * INNER_BORDER - 16 * mm
        c.setStrokeColor(BORDER_COLOUR)
        c.setLineWidth(2.5)
        c.rect(OUTER_BORDER, OUTER_BORDER, width - 2 * OUTER_BORDER, height - 2 * OUTER_BORDER)
        c.setLineWidth(0.8)
        c.rect(INNER_BORDER, INNER_BORDER, width - 2 * INNER_BORDER, height - 2 * INNER_BORDER)
        t = self.tournament

        def line(depth: float, text: str, style: Style) -> None:
            _draw_text(c, centre, height - depth, text, style, inner)

        line(55 * mm, _("Urkunde"), CERT_HEADING)
        line(78 * mm, t.name, CERT_TOURNAMENT)
        line(88 * mm, tournament_details(t), CERT_DETAILS)
        line(108 * mm, competition_title(competition.mode), CERT_COMPETITION)
        entrant = row.entrant
        line(132 * mm, entrant.name, CERT_NAME)
        depth = 132 * mm
        if entrant.partner:
            depth += 15 * mm
            line(depth, _("und %(name)s") % {"name": entrant.partner}, CERT_NAME)
        if entrant.club:
            line(depth + 11 * mm, entrant.club, CERT_DETAILS)
        points = ngettext(
            "belegte mit %(points)s Punkt den", "belegte mit %(points)s Punkten den", row.total
        ) % {"points": number(row.total)}
        line(182 * mm, points, CERT_TEXT)
        line(210 * mm, _("%(place)s. Platz") % {"place": row.place}, CERT_PLACE)
        self.charity.draw(c, centre, height, inner, row.entrant)
        self._draw_signature(c, INNER_BORDER + 14 * mm, _("Ort, Datum"))
        self._draw_signature(c, width / 2 + 8 * mm, _("Turnierleitung"))

    def _draw_signature(self, c: Canvas, x: float, label: str) -> None:
        line_width = self.pagesize[0] / 2 - INNER_BORDER - 22 * mm
        y = INNER_BORDER + 26 * mm
        c.setStrokeColor(GREY)
        c.setLineWidth(0.6)
        c.line(x, y, x + line_width, y)
        _draw_text(c, x, y - 5 * mm, label, CERT_SIGNATURE, line_width)
