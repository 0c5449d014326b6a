"""A player's own page (``/p/<token>/``): no login, only this person's evening."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from ..models import PersonalLink
from ..services import pace, players
from ..services.public_cache import entries_scope, tournament_scope
from .cached import public_page

REFRESH_SECONDS = 20  # the page asks again at most this often (cached between changes)


def _scopes(token: str = "", **kwargs: Any) -> tuple[str, ...]:
    slug = (
        PersonalLink.objects.filter(token=token)
        .values_list("entrant__tournament__slug", flat=True)
        .first()
    )
    return (tournament_scope(slug), entries_scope(slug)) if slug else ()


@public_page(_scopes)
def personal(request: HttpRequest, token: str) -> HttpResponse:
    link = players.open_link(token)
    if link is None:
        raise Http404
    page = players.personal_page(link)
    forecast = pace.pace_line(pace.evening_forecast(link.entrant.tournament))
    context = {"page": page, "refresh_seconds": REFRESH_SECONDS, "pace": forecast}
    return render(request, "public/personal.html", context)
