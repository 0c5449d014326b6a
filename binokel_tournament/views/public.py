"""Public pages (no login): standings, beamer view, "Wo sitze ich?" — each switchable off."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from ..models import Tournament
from ..services.evening import pace
from ..services.evening.seating import WHERE_MAX_HITS, where_do_i_sit
from ..services.evening.standings import compute_standings
from ..services.money import charity, statistics
from ..services.money.prizes import prize_table
from ..services.money.subrankings import sub_rankings
from ..tables import standings_table
from .cached import (
    no_results,
    public_page,
    results_of_competition,
    results_of_tournament,
)
from .common import after_round_param, get_competition, get_tournament

BEAMER_SECONDS = 15  # one screen of the beamer, before the next page
BEAMER_LIVE_SECONDS = 5  # the beamer asks for new results this often (shown within 10 s)


def _public_tournament(slug: str) -> Tournament:
    tournament = get_tournament(slug)
    if not tournament.public_pages:
        raise Http404
    return tournament


@public_page(no_results)
def home(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.filter(public_pages=True)
    return render(request, "public/home.html", {"tournaments": tournaments})


@public_page(results_of_tournament)
def tournament(request: HttpRequest, slug: str) -> HttpResponse:
    t = _public_tournament(slug)
    return render(
        request, "public/tournament.html", {"tournament": t, "competitions": t.competitions.all()}
    )


@public_page(results_of_competition)
def standings(request: HttpRequest, slug: str, mode: str) -> HttpResponse:
    t = _public_tournament(slug)
    competition = get_competition(t, mode)
    data = compute_standings(competition, after_round_param(request))
    return render(
        request,
        "public/standings.html",
        {
            "tournament": t,
            "competition": competition,
            "standings": data,
            "table": standings_table(data, request),
        },
    )


@public_page(results_of_tournament)
def beamer(request: HttpRequest, slug: str, mode: str) -> HttpResponse:
    t = _public_tournament(slug)
    competition = get_competition(t, mode)
    data = compute_standings(competition, after_round_param(request))
    return render(
        request,
        "public/beamer.html",
        {
            "tournament": t,
            "competition": competition,
            "standings": data,
            "rows": data.rows,
            "refresh_seconds": BEAMER_SECONDS,
            "live_seconds": BEAMER_LIVE_SECONDS,
            "total": charity.evening(t) if charity.has_money(t) else None,
            "pace": pace.pace_line(pace.evening_forecast(t)),
        },
    )


@public_page(results_of_tournament)
def where(request: HttpRequest, slug: str) -> HttpResponse:
    t = _public_tournament(slug)
    query = request.GET.get("q", "")
    found = where_do_i_sit(t, query) if query else []
    return render(
        request,
        "public/where.html",
        {"tournament": t, "query": query, "found": found, "where_hits": WHERE_MAX_HITS},
    )


@public_page(results_of_competition)
def prizes(request: HttpRequest, slug: str, mode: str) -> HttpResponse:
    """The beamer during the prize giving: who chooses next, what is still there, who took
    what (reloads every few seconds)."""
    t = _public_tournament(slug)
    competition = get_competition(t, mode)
    return render(
        request,
        "public/prizes.html",
        {
            "tournament": t,
            "competition": competition,
            "table": prize_table(competition),
            "refresh_seconds": 5,
        },
    )


@public_page(results_of_competition)
def subrankings_view(request: HttpRequest, slug: str, mode: str) -> HttpResponse:
    t = _public_tournament(slug)
    competition = get_competition(t, mode)
    return render(
        request,
        "public/subrankings.html",
        {
            "tournament": t,
            "competition": competition,
            "sub": sub_rankings(competition, after_round_param(request)),
        },
    )


@public_page(results_of_tournament)
def statistics_view(request: HttpRequest, slug: str) -> HttpResponse:
    """The evening in figures for the beamer between rounds (reloads every 30 s)."""

    t = _public_tournament(slug)
    context = statistics.statistics_context(t)
    context["refresh_seconds"] = 30
    return render(request, "public/statistics.html", context)
