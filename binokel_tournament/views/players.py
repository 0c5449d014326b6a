"""A player's own page (``/p/<token>/``): no login, only this person's evening."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import content_disposition_header

from ..exports import ExportError, ExportOptions
from ..exports.pdf import CertificatesExporter
from ..models import PersonalLink
from ..pages import personal_page
from ..services.evening import pace, players
from ..services.server.public_cache import table_scope, tournament_scope
from .cached import public_page

REFRESH_SECONDS = 20  # the page asks again at most this often (cached between changes)


def _scopes(token: str = "", **kwargs: Any) -> tuple[str, ...]:
    """The tournament's results, and what my tables entered (a game entered at another table
    leaves my page as it is)."""
    rows = list(
        PersonalLink.objects.filter(token=token).values_list(
            "entrant__tournament__slug", "entrant__seats__table_id"
        )
    )
    if not rows:
        return ()
    slug = rows[0][0]
    tables = sorted({table for _slug, table in rows if table is not None})
    return (tournament_scope(slug), *(table_scope(slug, table) for table in tables))


@public_page(_scopes)
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
