"""Public pages (no login): standings, beamer view, "Wo sitze ich?" — each switchable off."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from .. import pages
from ..models import Tournament, Verein
from ..services.evening.seating import WHERE_MAX_HITS, where_do_i_sit
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
    """The evenings with public pages; a server for many clubs lists its Vereine too."""
    tournaments = Tournament.objects.filter(public_pages=True).select_related("verein")
    vereine = list(Verein.objects.all()) if Verein.objects.count() > 1 else []
    return render(request, "public/home.html", {"tournaments": tournaments, "vereine": vereine})


@public_page(results_of_tournament)
def tournament(request: HttpRequest, slug: str) -> HttpResponse:
    context = pages.tournament_page(_public_tournament(slug))
    return render(request, "public/tournament.html", context)


@public_page(results_of_competition)
def standings(request: HttpRequest, slug: str, mode: str) -> HttpResponse:
    competition = get_competition(_public_tournament(slug), mode)
    context = pages.standings_page(competition, after_round_param(request))
    context["table"] = standings_table(context["standings"], request)
    return render(request, "public/standings.html", context)


@public_page(results_of_tournament)
def beamer(request: HttpRequest, slug: str, mode: str) -> HttpResponse:
    competition = get_competition(_public_tournament(slug), mode)
    context = pages.beamer_page(competition, after_round_param(request))
    # the forecast is put in place afresh whenever the kept page is served (views/cached.py)
    context.update(refresh_seconds=BEAMER_SECONDS, live_seconds=BEAMER_LIVE_SECONDS, pace_slug=slug)
    return render(request, "public/beamer.html", context)


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
    competition = get_competition(_public_tournament(slug), mode)
    context = pages.prizes_page(competition)
    context["refresh_seconds"] = 5
    return render(request, "public/prizes.html", context)


@public_page(results_of_competition)
def subrankings_view(request: HttpRequest, slug: str, mode: str) -> HttpResponse:
    competition = get_competition(_public_tournament(slug), mode)
    context = pages.subrankings_page(competition, after_round_param(request))
    return render(request, "public/subrankings.html", context)


@public_page(results_of_tournament)
def statistics_view(request: HttpRequest, slug: str) -> HttpResponse:
    """The evening in figures for the beamer between rounds (reloads every 30 s)."""

    context = pages.statistics_page(_public_tournament(slug))
    context["refresh_seconds"] = 30
    return render(request, "public/statistics.html", context)
