"""A player's own page (``/p/<token>/``): no login, only this person's evening."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.http import content_disposition_header

from ..exports import ExportError, ExportOptions
from ..exports.pdf import CertificatesExporter
from ..models import Competition, Entrant, PersonalLink, Series, Tournament
from ..pages import competition_figures, personal_page
from ..services.evening import pace, players
from ..services.money.series import entrant_cups, my_seasons
from ..services.server import public_cache
from ..services.server.cache_guard import cache
from .cached import Shows, public_page

# the page asks again this often: a game stored at my table shows within 10 s (a poll that
# finds nothing new is answered "304 Not Modified", see views/cached.py)
REFRESH_SECONDS = 8
LINK_SECONDS = 600


@dataclass(frozen=True)
class _Whose:
    """Whose page a token opens (kept per generation of everything but results: a seating,
    a revoked link or a changed setting makes it anew)."""

    tournament: Tournament
    competition: Competition
    entrant: Entrant
    tables: tuple[int, ...]
    cups: tuple[Series, ...]  # the cups the evening counts in (the page shows the seasons)


_recent = public_cache.Recent(5000)  # a hall's players' links, in this process


def _whose(token: str) -> _Whose | None:
    key = f"binokel:personal:2:{token}:{public_cache.generation()}"  # 2: cups as a tuple
    kept = _recent.get(key) or cache.get(key)
    if kept is None:
        link = (
            PersonalLink.objects.filter(token=token)
            .select_related("entrant__competition__tournament", "entrant__tournament")
            .first()
        )
        whose = None
        if link is not None:
            entrant = link.entrant
            whose = _Whose(
                entrant.competition.tournament,
                entrant.competition,
                entrant,
                tuple(sorted(set(entrant.seats.values_list("table_id", flat=True)))),
                tuple(entrant_cups(entrant)),
            )
        kept = (whose,)
        cache.set(key, kept, LINK_SECONDS)
    _recent.put(key, kept)
    return kept[0]


def _shows(token: str = "", **kwargs: Any) -> Shows:
    """What my tables entered (a game entered at another table leaves my page as it is) and
    the round shown first; my place, total and donation (out of my competition's figures)
    and my seasons in the cups are parts put into the kept page when it is served: every
    confirmed sheet in the hall may move them, and they cost a lookup, not a page. The
    forecast is put in likewise (views/cached.py)."""
    whose = _whose(token)
    if whose is None:
        return Shows(())
    slug = whose.tournament.slug
    scopes = tuple(public_cache.table_scope(slug, table) for table in whose.tables)
    figures = competition_figures(whose.competition)
    standing = render_to_string(
        "public/_my_standing.html",
        {
            "standing": figures.standing(whose.entrant.pk),
            "token": token,
            "interim": whose.tournament.show_interim,
        },
    )
    parts = [("standing", standing)]
    if whose.cups:
        seasons = my_seasons(whose.entrant, whose.cups)
        parts.append(("seasons", render_to_string("public/_my_seasons.html", {"seasons": seasons})))
    return Shows(scopes, repr(figures.current), tuple(parts))


@public_page(_shows)
def personal(request: HttpRequest, token: str) -> HttpResponse:
    link = players.open_link(token)
    if link is None or not link.entrant.tournament.public_pages:
        raise Http404
    page = personal_page(link)
    forecast = pace.pace_line(pace.evening_forecast(link.entrant.tournament))
    context = {
        "page": page,
        "refresh_seconds": REFRESH_SECONDS,
        "pace": forecast,
        "pace_slug": link.entrant.tournament.slug,  # put in place afresh when served (cached.py)
    }
    return render(request, "public/personal.html", context)


def certificate(request: HttpRequest, token: str) -> HttpResponse:
    """After the evening: my certificate as PDF (before: there is none)."""
    link = players.open_link(token)
    if link is None or not link.entrant.tournament.public_pages:
        raise Http404
    if not players.evening_over(link.entrant.tournament):
        raise Http404
    exporter = CertificatesExporter(link.entrant.tournament)
    try:
        result = exporter.render(ExportOptions(start_numbers=(link.entrant.start_number,)))
    except ExportError as exc:
        raise Http404 from exc
    response = HttpResponse(result.content, content_type=result.content_type)
    disposition = content_disposition_header(False, result.filename)
    response["Content-Disposition"] = disposition or "inline"
    return response
