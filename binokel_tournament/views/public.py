"""Public pages (no login): standings, beamer view, "Wo sitze ich?" — each switchable off."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from ..models import Tournament
from ..services.seating import WHERE_MAX_HITS, where_do_i_sit
from ..services.standings import compute_standings
from ..tables import standings_table
from .common import after_round_param, get_competition, get_tournament

BEAMER_SECONDS = 15  # one screen of the beamer, before the next page (or a reload)


def _public_tournament(slug: str) -> Tournament:
    tournament = get_tournament(slug)
    if not tournament.public_pages:
        raise Http404
    return tournament


def home(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.filter(public_pages=True)
    return render(request, "public/home.html", {"tournaments": tournaments})


def tournament(request: HttpRequest, slug: str) -> HttpResponse:
    t = _public_tournament(slug)
    return render(
        request, "public/tournament.html", {"tournament": t, "competitions": t.competitions.all()}
    )


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
        },
    )


def where(request: HttpRequest, slug: str) -> HttpResponse:
    t = _public_tournament(slug)
    query = request.GET.get("q", "")
    found = where_do_i_sit(t, query) if query else []
    return render(
        request,
        "public/where.html",
        {"tournament": t, "query": query, "found": found, "where_hits": WHERE_MAX_HITS},
    )
