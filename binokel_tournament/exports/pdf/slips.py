"""Every player's slip for the door: name, start number, the first round's table and seat (once
the plan exists), the personal link as QR code and the short code. One slip per person (each
partner of a pair has their own link), on an 80 mm receipt roll or on A6."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib.pagesizes import A6
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ...models import Competition, PersonalLink, Seat, Tournament
from ...services.evening.players import ensure_links, links_for
from ...services.server.public_links import draw_qr, personal_url, phone_reachable
from ..base import ExportError, ExportOptions, Offer
from .base import GREY, PdfExporter, Style, _draw_text, tournament_line

PAPERS: dict[str, tuple[float, float]] = {
    "80mm": (80 * mm, 120 * mm),  # a receipt printer's roll, cut after each slip
    "a6": A6,
}
DEFAULT_PAPER = "80mm"

TITLE = Style("bold", 11, align="center", minimum=7)
NAME = Style("bold", 16, align="center", minimum=9)
NUMBER = Style("bold", 26, align="center")
LINE = Style(size=11, align="center", minimum=7)
SMALL = Style(size=8, color=GREY, align="center", minimum=5)
CODE = Style("bold", 14, align="center")


@dataclass(frozen=True)
class Slip:
    name: str
    start_number: int
    mode_label: str
    table: str  # "Tisch 4, Platz 2" or "" before the plan
    url: str
    code: str


def paper_of(text: str | None) -> str:
    if not text:
        return DEFAULT_PAPER
    if text not in PAPERS:
        raise ExportError(
            _("Zettel gibt es als %(formats)s, nicht als „%(value)s“.")
            % {"formats": ", ".join(PAPERS), "value": text[:20]}
        )
    return text


def _first_round_seats(tournament: Tournament) -> dict[int, str]:
    seats = Seat.objects.filter(
        table__round__tournament=tournament, table__round__number=1
    ).values_list("entrant_id", "table__number", "position", "table__kind")
    out = {}
    for entrant_id, table, position, kind in seats:
        where = (
            _("Paar %(n)s") % {"n": position}
            if kind == "pairs"
            else _("Platz %(n)s") % {"n": position}
        )
        out[entrant_id] = _("1. Durchgang: Tisch %(table)s, %(where)s") % {
            "table": table,
            "where": where,
        }
    return out


def slips(
    tournament: Tournament,
    base_url: str | None,
    start_numbers: Sequence[int] = (),
    mode: str | None = None,
) -> list[Slip]:
    """The slips of every person (or of these start numbers), by start number."""
    wanted = set(start_numbers)
    if wanted:  # the door's one slip: only those people (a big field is not read for it)
        chosen = list(tournament.entrants.filter(start_number__in=wanted).order_by("start_number"))
        links: list[PersonalLink] = links_for(chosen)
    else:
        links = ensure_links(tournament)
    seats = _first_round_seats(tournament)
    modes = dict(Competition.objects.filter(tournament=tournament).values_list("pk", "mode"))
    labels = {c.mode: str(c.get_mode_display()) for c in tournament.competitions.all()}
    out = []
    for link in links:
        e = link.entrant
        if wanted and e.start_number not in wanted:
            continue
        if e.withdrawn and not wanted:
            continue
        if mode and modes.get(e.competition_id) != mode:
            continue
        out.append(
            Slip(
                link.person_name,
                e.start_number,
                labels.get(modes.get(e.competition_id, ""), ""),
                seats.get(e.pk, ""),
                personal_url(link.token, base_url),
                link.code,
            )
        )
    return out


class SlipsExporter(PdfExporter):
    identifier = "slips"
    verbose_name = gettext_lazy("Zettel mit QR-Code für die Spieler")
    file_stem = "zettel"
    pagesize: ClassVar[tuple[float, float]] = PAPERS[DEFAULT_PAPER]

    def page_size(self, options: ExportOptions) -> tuple[float, float]:
        return PAPERS[paper_of(options.paper)]

    @classmethod
    def offers(cls, competitions: Sequence[Competition]) -> list[Offer]:
        return [Offer(_("Bon 80 mm"), {"format": "80mm"}), Offer("A6", {"format": "a6"})]

    def document_title(self, options: ExportOptions) -> str:
        return _("Zettel für die Spieler")

    def filename_parts(self, options: ExportOptions) -> Sequence[object]:
        numbers = "-".join(str(n) for n in options.start_numbers[:3])
        return [paper_of(options.paper), numbers, options.mode or ""]

    def draw(self, c: Canvas, options: ExportOptions) -> None:
        self.round_number(options)  # a round the tournament does not have is refused, as anywhere
        items = slips(self.tournament, options.base_url, options.start_numbers, options.mode)
        if not items:
            raise ExportError(_("Keine Zettel: niemand mit dieser Startnummer angemeldet."))
        width, height = self.page_size(options)
        inner = width - 8 * mm
        centre = width / 2
        line = tournament_line(self.tournament)
        qr = min(width - 20 * mm, 50 * mm)
        for slip in items:
            y = height - 10 * mm
            _draw_text(c, centre, y, line, TITLE, inner)
            y -= 11 * mm
            _draw_text(c, centre, y, str(slip.start_number), NUMBER, inner)
            y -= 9 * mm
            _draw_text(c, centre, y, slip.name, NAME, inner)
            y -= 6 * mm
            _draw_text(c, centre, y, slip.mode_label, SMALL.but(size=10), inner)
            if slip.table:
                y -= 7 * mm
                _draw_text(c, centre, y, slip.table, LINE, inner)
            if self.tournament.public_pages:  # off: no personal page, so no code for it
                self._draw_link(c, slip, centre, y, qr, inner)
            c.showPage()

    @staticmethod
    def _draw_link(c: Canvas, slip: Slip, centre: float, y: float, qr: float, inner: float) -> None:
        """The personal page's QR code, short code and address."""
        y -= 4 * mm + qr
        draw_qr(c, centre - qr / 2, y, qr, slip.url)
        y -= 6 * mm
        _draw_text(c, centre, y, _("Kurzcode") + " " + slip.code, CODE, inner)
        if phone_reachable(slip.url):
            y -= 5 * mm
            _draw_text(c, centre, y, slip.url, SMALL, inner)
        y -= 5 * mm
        _draw_text(c, centre, y, _("Meine Seite: Tisch, Spiele, Platz"), SMALL, inner)
