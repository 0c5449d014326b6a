"""Standings per competition (after round N) and certificates (Urkunden) for the first places.
The data comes from ``services.standings.compute_standings`` — the same ranking the desk and the
public pages show."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from reportlab.lib.colors import Color
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ...models import Competition, Mode, ScoreSheet, SheetStatus
from ...services.standings import StandingRow, Standings, compute_standings
from ..base import ExportError, ExportOptions
from .base import (
    GREY,
    LANDSCAPE,
    LIGHT,
    MARGIN,
    PORTRAIT,
    TINT,
    PdfExporter,
    _draw_footer,
    _draw_text,
    number,
    tournament_details,
    tournament_line,
)

# standings table (landscape)
TITLE_SIZE = 24
HEAD_HEIGHT = 26 * mm
TABLE_HEAD = 8 * mm
ROW = 7.2 * mm
ROW_SIZE = 12.5
PLACE_WIDTH = 17 * mm
NUMBER_WIDTH = 14 * mm
CLUB_WIDTH = 48 * mm
ROUND_WIDTH = 19 * mm
TOTAL_WIDTH = 25 * mm
METRIC_WIDTH = 21 * mm
# certificates (portrait)
BORDER_COLOUR = Color(0.18, 0.42, 0.28)
OUTER_BORDER = 9 * mm
INNER_BORDER = 12 * mm


@dataclass(frozen=True)
class _Col:
    label: str
    width: float
    align: str
    bold: bool = False
    size: float = ROW_SIZE


def competitions(exporter: PdfExporter, options: ExportOptions) -> list[Competition]:
    items = sorted(exporter.tournament.competitions.all(), key=lambda c: c.mode != Mode.SINGLES)
    if options.mode:
        items = [c for c in items if c.mode == options.mode]
        if not items:
            raise ExportError(_("Dieses Turnier hat keine solche Wertung."))
    if not items:
        raise ExportError(_("Dieses Turnier hat noch keine Wertung."))
    return items


def rounds_played(competition: Competition) -> int:
    """The last round with a confirmed score sheet in this competition (0: none yet)."""
    top = ScoreSheet.objects.filter(
        table__competition=competition, status=SheetStatus.CONFIRMED
    ).aggregate(top=Max("table__round__number"))["top"]
    return int(top or 0)


def standings_subtitle(competition: Competition, after_round: int | None) -> str:
    played = rounds_played(competition)
    total = competition.tournament.rounds
    if after_round is not None and after_round < total:
        return _("Stand nach dem %(n)s. Durchgang") % {"n": after_round}
    if played == 0:
        return _("Noch keine bestätigten Ergebnisse")
    if played < total:
        return _("Stand nach dem %(n)s. Durchgang") % {"n": played}
    return _("Endstand nach %(n)s Durchgängen") % {"n": total}


def competition_title(mode: str) -> str:
    return _("Einzelwertung") if mode == Mode.SINGLES else _("Paarwertung")


class StandingsExporter(PdfExporter):
    identifier = "rangliste"
    verbose_name = _lazy("Rangliste (PDF)")
    pagesize = LANDSCAPE

    def document_title(self, options: ExportOptions) -> str:
        return _("Rangliste")

    def draw(self, c: Canvas, options: ExportOptions) -> None:
        page = 0
        for competition in competitions(self, options):
            standings = compute_standings(competition, options.round_number)
            subtitle = standings_subtitle(competition, options.round_number)
            page = self._draw_competition(c, standings, subtitle, page)

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

    def _cells(self, standings: Standings, row: StandingRow) -> list[str]:
        e = row.entrant
        cells = [row.place_label, str(e.start_number), e.display_name, e.club]
        cells += [number(p) for p in row.round_points]
        cells.append(number(row.total))
        cells += [number(row.metrics[m.key]) for m in standings.metrics]
        return cells

    def _draw_competition(self, c: Canvas, standings: Standings, subtitle: str, page: int) -> int:
        columns = self._columns(standings)
        title = _("Rangliste %(competition)s") % {
            "competition": competition_title(standings.competition.mode)
        }
        _width, height = self.pagesize
        bottom = MARGIN + 4 * mm
        rows = standings.rows
        per_page = max(1, int((height - 2 * MARGIN - HEAD_HEIGHT - TABLE_HEAD - 4 * mm) // ROW))
        chunks = [rows[i : i + per_page] for i in range(0, len(rows), per_page)] or [[]]
        for chunk in chunks:
            if page:
                c.showPage()
            page += 1
            y = self._draw_page_head(c, title, subtitle, columns)
            for index, row in enumerate(chunk):
                self._draw_row(c, columns, self._cells(standings, row), y, index % 2 == 1)
                y -= ROW
            assert y >= bottom - ROW, "standings rows overflow the page"
            _draw_footer(c, self.pagesize, tournament_line(self.tournament), page)
        return page

    def _draw_page_head(self, c: Canvas, title: str, subtitle: str, columns: list[_Col]) -> float:
        f = self.fonts
        width, height = self.pagesize
        top = height - MARGIN
        _draw_text(c, MARGIN, top - 9 * mm, title, f.bold, TITLE_SIZE, width / 2)
        _draw_text(
            c,
            width - MARGIN,
            top - 9 * mm,
            subtitle,
            f.bold,
            14,
            width / 2 - 2 * MARGIN,
            align="right",
        )
        _draw_text(
            c,
            MARGIN,
            top - 16 * mm,
            tournament_line(self.tournament),
            f.regular,
            11,
            width - 2 * MARGIN,
            color=GREY,
        )
        y = top - HEAD_HEIGHT
        c.setFillColor(TINT)
        c.rect(MARGIN, y - TABLE_HEAD, width - 2 * MARGIN, TABLE_HEAD, stroke=0, fill=1)
        x = MARGIN
        for col in columns:
            self._draw_cell(
                c, x, col.width, y - TABLE_HEAD + 2.5 * mm, col.label, f.bold, 10, col.align
            )
            x += col.width
        c.setStrokeColor(GREY)
        c.setLineWidth(0.8)
        c.line(MARGIN, y - TABLE_HEAD, width - MARGIN, y - TABLE_HEAD)
        return y - TABLE_HEAD

    def _draw_row(
        self, c: Canvas, columns: list[_Col], cells: Sequence[str], top: float, shaded: bool
    ) -> None:
        f = self.fonts
        if shaded:
            c.setFillColor(LIGHT)
            c.rect(MARGIN, top - ROW, self.pagesize[0] - 2 * MARGIN, ROW, stroke=0, fill=1)
        x = MARGIN
        for col, text in zip(columns, cells, strict=True):
            font = f.bold if col.bold else f.regular
            self._draw_cell(c, x, col.width, top - ROW + 2.2 * mm, text, font, col.size, col.align)
            x += col.width

    @staticmethod
    def _draw_cell(
        c: Canvas, x: float, w: float, y: float, text: str, font: str, size: float, align: str
    ) -> None:
        pad = 1.5 * mm
        if align == "right":
            _draw_text(c, x + w - pad, y, text, font, size, w - 2 * pad, align="right", minimum=6)
        else:
            _draw_text(c, x + pad, y, text, font, size, w - 2 * pad, minimum=7)


class CertificatesExporter(PdfExporter):
    """One portrait page per entrant placed in the first ``options.top`` places (shared places
    included, entrants "außer Konkurrenz" never), per competition."""

    identifier = "urkunden"
    verbose_name = _lazy("Urkunden (PDF)")
    pagesize = PORTRAIT

    def document_title(self, options: ExportOptions) -> str:
        return _("Urkunden")

    def draw(self, c: Canvas, options: ExportOptions) -> None:
        pages = 0
        for competition in competitions(self, options):
            standings = compute_standings(competition, options.round_number)
            for row in standings.rows:
                if row.place is None or row.place > options.top or row.games == 0:
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
        f = self.fonts
        width, height = self.pagesize
        centre = width / 2
        inner = width - 2 * INNER_BORDER - 16 * mm
        c.setStrokeColor(BORDER_COLOUR)
        c.setLineWidth(2.5)
        c.rect(OUTER_BORDER, OUTER_BORDER, width - 2 * OUTER_BORDER, height - 2 * OUTER_BORDER)
        c.setLineWidth(0.8)
        c.rect(INNER_BORDER, INNER_BORDER, width - 2 * INNER_BORDER, height - 2 * INNER_BORDER)
        _draw_text(
            c,
            centre,
            height - 55 * mm,
            _("Urkunde"),
            f.serif_bold,
            56,
            inner,
            align="center",
            color=BORDER_COLOUR,
        )
        t = self.tournament
        _draw_text(c, centre, height - 78 * mm, t.name, f.serif, 24, inner, align="center")
        details = tournament_details(t)
        if details:
            _draw_text(
                c, centre, height - 88 * mm, details, f.serif, 14, inner, align="center", color=GREY
            )
        _draw_text(
            c,
            centre,
            height - 108 * mm,
            competition_title(competition.mode),
            f.serif,
            20,
            inner,
            align="center",
        )
        entrant = row.entrant
        names = [entrant.name, entrant.partner] if entrant.partner else [entrant.name]
        y = height - 132 * mm
        for index, name in enumerate(names):
            text = name if index == 0 else _("und %(name)s") % {"name": name}
            _draw_text(c, centre, y, text, f.serif_bold, 34, inner, align="center", minimum=16)
            y -= 15 * mm
        if entrant.club:
            _draw_text(
                c, centre, y + 4 * mm, entrant.club, f.serif, 14, inner, align="center", color=GREY
            )
        _draw_text(
            c,
            centre,
            height - 182 * mm,
            _("belegte mit %(points)s Punkten den") % {"points": number(row.total)},
            f.serif,
            18,
            inner,
            align="center",
        )
        _draw_text(
            c,
            centre,
            height - 210 * mm,
            _("%(place)s. Platz") % {"place": row.place},
            f.serif_bold,
            60,
            inner,
            align="center",
            color=BORDER_COLOUR,
        )
        self._draw_signature(c, INNER_BORDER + 14 * mm, _("Ort, Datum"))
        self._draw_signature(c, width / 2 + 8 * mm, _("Turnierleitung"))

    def _draw_signature(self, c: Canvas, x: float, label: str) -> None:
        f = self.fonts
        line_width = self.pagesize[0] / 2 - INNER_BORDER - 22 * mm
        y = INNER_BORDER + 26 * mm
        c.setStrokeColor(GREY)
        c.setLineWidth(0.6)
        c.line(x, y, x + line_width, y)
        _draw_text(c, x, y - 5 * mm, label, f.serif, 11, line_width, color=GREY)
