"""The Pressebericht: the evening in figures on one or two pages for the local paper — the
headline figures in a sentence, the figures table, the meld classes as a bar chart, the best
rounds, and the money raised. Data from ``services.statistics`` (the desk's statistics page)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from reportlab.lib.colors import Color
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from ...numbers import euro as euro_text
from ...numbers import percent
from ...services.money import charity
from ...services.money.statistics import evening_statistics
from ..base import ExportError, ExportOptions, OfferedWhole
from .base import GREY, MARGIN, PORTRAIT, PdfExporter, Style, _draw_text, number
from .fonts import fonts
from .lists import ListColumn, ListPages

TITLE = Style("bold", 22)
LEAD = Style(size=12)
SMALL = Style(size=9, color=GREY)
CHART_HEIGHT = 45 * mm
BEST_ROUNDS = 10
BAR = Color(0.18, 0.42, 0.28)


class StatisticsExporter(OfferedWhole, PdfExporter):
    identifier = "statistics"
    file_stem = "pressebericht"
    verbose_name = gettext_lazy("Pressebericht (PDF)")
    pagesize = PORTRAIT

    def document_title(self, options: ExportOptions) -> str:
        return _("Pressebericht")

    def filename_parts(self, options: ExportOptions) -> list[object]:
        return []

    def draw(self, c: Canvas, options: ExportOptions) -> None:
        t = self.tournament
        ev = evening_statistics(t, up_to=self.round_number(options))
        s = ev.stats
        if not s.games:
            raise ExportError(_("Für den Pressebericht braucht es bestätigte Ergebnisse."))
        pages = ListPages(c, self.pagesize, t.name)
        pages.text(_("Pressebericht: %(name)s") % {"name": t.name}, TITLE, 12 * mm)
        lead = [
            ngettext("%(n)s Spiel", "%(n)s Spiele", s.games) % {"n": number(s.games)},
            _("%(n)s Punkte") % {"n": number(s.points)},
            ngettext("%(n)s Tausender", "%(n)s Tausender", s.tausender) % {"n": s.tausender},
        ]
        sentence = ", ".join(lead) + "."
        if charity.has_money(t):
            total = charity.evening(t)
            purpose = t.charity_purpose or _("den guten Zweck")
            sentence += " " + _("Erspielt für %(purpose)s: %(amount)s.") % {
                "purpose": purpose,
                "amount": euro_text(total.total_cents),
            }
        for line in simpleSplit(sentence, fonts().regular, LEAD.size, pages.inner):
            pages.text(line, LEAD, 6 * mm)
        pages.y -= 3 * mm
        figures = [
            [_("Spiele"), number(s.games)],
            [_("Punkte"), number(s.points)],
            [
                _("vom Spielmacher gewonnen"),
                f"{number(s.declarer_wins)} / {number(s.declarer_games)} ({percent(s.win_rate)})",
            ],
            [_("abgeschrieben"), number(s.conceded)],
            [_("Durch (gewonnen)"), f"{number(s.durch)} ({number(s.durch_won)})"],
            [_("Tausender (Spiele ab 1000 Punkten)"), number(s.tausender)],
        ]
        if s.highest_game:
            figures.append(
                [
                    _("höchstes Spiel"),
                    f"{number(s.highest_game.points)} – {ev.highest_game_who} "
                    f"({s.highest_game.round_number}. D.)",
                ]
            )
        if s.highest_round:
            figures.append(
                [
                    _("höchster Durchgang"),
                    f"{number(s.highest_round.points)} – {ev.highest_round_who} "
                    f"({s.highest_round.round_number}. D.)",
                ]
            )
        columns = [ListColumn(_("Kennzahl"), 0.45), ListColumn(_("Wert"), 0.55, "right")]
        pages.block(_("Der Abend in Zahlen"), columns, figures)
        self._draw_chart(pages, _("Meldungen nach Höhe"), s.meld_classes)
        best = [
            [name, _("%(n)s. Durchgang") % {"n": top.round_number}, number(top.points)]
            for name, top in ev.best_rounds()[:BEST_ROUNDS]
        ]
        pages.block(
            _("Die besten Durchgänge"),
            [
                ListColumn(_("Name"), 0.6),
                ListColumn(_("Durchgang"), 0.2),
                ListColumn(_("Punkte"), 0.2, "right"),
            ],
            best,
        )

    def _draw_chart(self, pages: ListPages, title: str, items: list[tuple[str, int]]) -> None:
        from .lists import BLOCK_TITLE

        pages.room(CHART_HEIGHT + 22 * mm)
        pages.text(title, BLOCK_TITLE, 9 * mm)
        c = pages.c
        top_value = max((v for _l, v in items), default=0) or 1
        slot = pages.inner / max(len(items), 1)
        base = pages.y - CHART_HEIGHT - 6 * mm
        for i, (label, value) in enumerate(items):
            h = CHART_HEIGHT * value / top_value
            x = MARGIN + i * slot + slot * 0.15
            c.setFillColor(BAR)
            c.rect(x, base, slot * 0.7, h, stroke=0, fill=1)
            centre = x + slot * 0.35
            _draw_text(c, centre, base + h + 1.5 * mm, number(value), SMALL.but(align="center"))
            _draw_text(c, centre, base - 5 * mm, label, SMALL.but(align="center"))
        pages.y = base - 10 * mm
