"""What every PDF shares (pretix ``base/invoice.py`` style): A4 pages, layout constants in
millimetres, small ``_draw_*`` helpers, TrueType fonts with umlauts, and the exporter base that
turns a drawing into ``(filename, content_type, bytes)``."""

from __future__ import annotations

import hashlib
import io
from abc import abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, ClassVar

from django.utils import formats
from django.utils.translation import gettext as _
from reportlab.lib.colors import Color, black
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ...models import Competition, Mode, Round, Table, Tournament
from ...services.server.public_links import printed_table_url
from ..base import BaseExporter, ExportError, ExportFile, ExportOptions
from .fonts import Fonts, fonts

PORTRAIT = A4
LANDSCAPE = landscape(A4)
MARGIN = 12 * mm
FOOTER_Y = 7 * mm
FOOTER_SIZE = 8
GREY = Color(0.45, 0.45, 0.45)
LIGHT = Color(0.93, 0.93, 0.93)
TINT = Color(0.90, 0.95, 0.91)  # the desk's party header colour
ELLIPSIS = "…"
PDF_CONTENT_TYPE = "application/pdf"


def table_link(table: Table, base_url: str | None = None) -> str | None:
    """A table's own link for its table card and pre-filled score sheet: printed only while
    the tournament lets tables enter on phones, and only at an address a phone can reach
    (``public_links.printed_table_url``)."""
    if not table.round.tournament.table_entry:
        return None
    return printed_table_url(table, base_url)


def number(value: int) -> str:
    """A number as German print wants it: 2.345, −170."""
    text = formats.number_format(value, force_grouping=True)
    return text.replace("-", "−")


def round_title(number_: int) -> str:
    return _("%(n)s. Durchgang") % {"n": number_}


def mode_title(mode: str) -> str:
    return str(Mode(mode).label)


@lru_cache(maxsize=8192)
def text_width(text: str, font: str, size: float) -> float:
    """``stringWidth``, remembered: a round's sheets measure the same labels and names over
    and over."""
    return float(stringWidth(text, font, size))


def fitted_size(text: str, font: str, size: float, width: float, minimum: float) -> float:
    """The largest font size ≤ ``size`` (and ≥ ``minimum``) at which ``text`` fits ``width``."""
    natural = text_width(text, font, size)
    if natural <= width:
        return size
    return max(minimum, size * width / natural)


FIT_TOLERANCE = 0.01  # points: a text shrunk to fit a width exactly must not then be cut


def clipped(text: str, font: str, size: float, width: float) -> str:
    """``text`` cut with an ellipsis so that it fits ``width`` at ``size``."""
    if text_width(text, font, size) <= width + FIT_TOLERANCE:
        return text
    while text and text_width(text + ELLIPSIS, font, size) > width + FIT_TOLERANCE:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS


@dataclass(frozen=True)
class Style:
    """How a line of text is set: the font (a field of ``Fonts``: regular, bold, serif,
    serif_bold), size in points, colour, alignment at x (left edge, centre, right edge) and the
    smallest size the line may shrink to when it has to fit a width."""

    font: str = "regular"
    size: float = 10
    color: Color = black
    align: str = "left"
    minimum: float = 6

    def but(self, **changes: Any) -> Style:
        return replace(self, **changes)


def _draw_text(
    c: Canvas, x: float, y: float, text: str, style: Style, width: float | None = None
) -> float:
    """Draw one line at baseline ``y``; with a ``width`` it shrinks (down to the style's
    minimum) and is then clipped with an ellipsis. Returns the size used."""
    font = getattr(fonts(), style.font)
    size = style.size
    if width is not None:
        size = fitted_size(text, font, size, width, style.minimum)
        text = clipped(text, font, size, width)
    c.setFont(font, size)
    c.setFillColor(style.color)
    if style.align == "center":
        x -= text_width(text, font, size) / 2
    elif style.align == "right":
        x -= text_width(text, font, size)
    c.drawString(x, y, text)
    c.setFillColor(black)
    return size


def _draw_once(c: Canvas, drawn: set[str], key: str, draw: Callable[[], None]) -> None:
    """Draw what ``draw`` draws, as a form XObject: into the document the first time (its
    ``key`` then goes into ``drawn``), later only a reference to it. For what hundreds of
    pages of one document repeat (a sheet's grid labels, the rule box), so the PDF is made
    and printed faster. ``draw`` must use page coordinates and the canvas API only."""
    name = "f" + hashlib.sha1(key.encode()).hexdigest()[:16]
    if name not in drawn:
        c.beginForm(name)
        draw()
        c.endForm()
        drawn.add(name)
    c.doForm(name)


FOOTER = Style(size=FOOTER_SIZE, color=GREY)


def _draw_footer(c: Canvas, page: tuple[float, float], left: str, page_number: int) -> None:
    width, _height = page
    _draw_text(c, MARGIN, FOOTER_Y, left, FOOTER, width / 2)
    label = _("Seite %(n)s") % {"n": page_number}
    _draw_text(c, width - MARGIN, FOOTER_Y, label, FOOTER.but(align="right"))


def tournament_details(tournament: Tournament) -> str:
    """Date and venue: "28.11.2026 · Gemeindehaus St. Martin" (empty when neither is set)."""
    parts = []
    if tournament.date:
        parts.append(formats.date_format(tournament.date, "d.m.Y"))
    if tournament.venue:
        parts.append(tournament.venue)
    return " · ".join(parts)


def tournament_line(tournament: Tournament) -> str:
    """Name, date and venue ("Benefizbinokel Demo · 28.11.2026 · …") for headers, footers."""
    return " · ".join(p for p in (tournament.name, tournament_details(tournament)) if p)


class PdfExporter(BaseExporter):
    """Draws on a reportlab canvas; subclasses implement ``draw`` and name their file."""

    extension = "pdf"
    content_type = PDF_CONTENT_TYPE
    pagesize: ClassVar[tuple[float, float]] = PORTRAIT

    @property
    def fonts(self) -> Fonts:
        return fonts()

    def render(self, options: ExportOptions | None = None) -> ExportFile:
        options = options or ExportOptions()
        buffer = io.BytesIO()
        c = Canvas(buffer, pagesize=self.page_size(options), pageCompression=1)
        c.setTitle(f"{self.document_title(options)} – {self.tournament.name}")
        c.setAuthor(self.tournament.name)
        c.setCreator("Binokel")
        self.draw(c, options)
        c.save()
        return ExportFile(
            self.filename(*self.filename_parts(options)), self.content_type, buffer.getvalue()
        )

    def page_size(self, options: ExportOptions) -> tuple[float, float]:
        """The paper (an exporter whose paper the organiser picks overrides it)."""
        return self.pagesize

    @abstractmethod
    def document_title(self, options: ExportOptions) -> str:
        """The document's title (PDF metadata)."""

    @abstractmethod
    def draw(self, c: Canvas, options: ExportOptions) -> None:
        """Draw every page; the last page is finished by ``c.save()``."""

    def filename_parts(self, options: ExportOptions) -> Sequence[object]:
        number = self.round_number(options)
        return [f"d{number}" if number else "", options.mode or ""]

    def rounds(self, options: ExportOptions) -> list[Round]:
        """The round asked for, or every round that has tables; an error when there is none
        (or when the tournament has no such round)."""
        number = self.round_number(options)
        rounds = (
            self.tournament.round_set.filter(tables__isnull=False).distinct().order_by("number")
        )
        if number is not None:
            rounds = rounds.filter(number=number)
            if not rounds:
                raise ExportError(
                    _("Für den %(n)s. Durchgang gibt es noch keine Tische.") % {"n": number}
                )
        if not rounds:
            raise ExportError(_("Es gibt noch keinen Spielplan."))
        return list(rounds)


def competitions(exporter: PdfExporter, options: ExportOptions) -> list[Competition]:
    items = sorted(exporter.tournament.competitions.all(), key=lambda c: c.mode != Mode.SINGLES)
    if options.mode:
        items = [c for c in items if c.mode == options.mode]
        if not items:
            raise ExportError(_("Dieses Turnier hat keine solche Wertung."))
    if not items:
        raise ExportError(_("Dieses Turnier hat noch keine Wertung."))
    return items


def competition_title(mode: str) -> str:
    return _("Einzelwertung") if mode == Mode.SINGLES else _("Paarwertung")
