"""What each public page shows: one builder per page, read by the live page (``views/public``,
``views/series``, the desk's statistics) and by the static site (``exports/site``), so the two
cannot drift apart. Each returns the template's context; the caller adds only what belongs to
its medium (a sortable table and a round picker live, relative links and titles on the site)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from charity.money import EveningTotal

from .charts import bar_chart
from .models import Competition, Series, Tournament
from .services.evening import pace
from .services.evening.standings import compute_standings
from .services.money import charity
from .services.money.prizes import prize_table
from .services.money.series import series_standings
from .services.money.statistics import evening_statistics
from .services.money.subrankings import sub_rankings

Context = dict[str, Any]  # a template context


def money_total(t: Tournament) -> EveningTotal | None:
    """The evening's takings, or None when the tournament handles no money."""
    return charity.evening(t) if charity.has_money(t) else None


def tournament_page(t: Tournament) -> Context:
    """A tournament's start page: its competitions and, with money, what the evening made."""
    return {"tournament": t, "competitions": t.competitions.all(), "total": money_total(t)}


def standings_page(competition: Competition, after: int | None = None) -> Context:
    """A competition's standings (after round ``after``, or as they stand)."""
    return {
        "tournament": competition.tournament,
        "competition": competition,
        "standings": compute_standings(competition, after),
    }


def beamer_page(competition: Competition, after: int | None = None) -> Context:
    """The standings for the projector, with the evening's takings and its forecast."""
    context = standings_page(competition, after)
    t = competition.tournament
    return {
        **context,
        "rows": context["standings"].rows,
        "total": money_total(t),
        "pace": pace.pace_line(pace.evening_forecast(t)),
    }


def prizes_page(competition: Competition) -> Context:
    """The prize table: who chooses next, what is still there, who took what."""
    return {
        "tournament": competition.tournament,
        "competition": competition,
        "table": prize_table(competition),
    }


def subrankings_page(competition: Competition, after: int | None = None) -> Context:
    """The categories and clubs of a competition."""
    return {
        "tournament": competition.tournament,
        "competition": competition,
        "sub": sub_rankings(competition, after),
    }


def statistics_page(t: Tournament) -> Context:
    """The evening in figures (the statistics page, the beamer between rounds, the site)."""
    ev = evening_statistics(t)
    s = ev.stats
    return {
        "tournament": t,
        "ev": ev,
        "s": s,
        "win_percent": f"{100 * s.win_rate:.1f}".replace(".", ","),
        "best_rounds": ev.best_rounds()[:10],
        "meld_chart": bar_chart(s.meld_classes, _("Meldungen nach Höhe")),
        "round_chart": bar_chart(
            [(_("%(n)s. Durchgang") % {"n": n}, p) for n, p in s.points_by_round.items()],
            _("Punkte je Durchgang"),
        ),
    }


def series_page(series: Series) -> Context:
    """A cup's standings for everyone: players without consent are not named."""
    return {"series": series, "standings": series_standings(series), "public": True}
