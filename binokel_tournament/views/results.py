"""Results at the desk: the overview of every table's sheet and the standings."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ..services.evening.hall import first_open_table, sheet_of, sheet_state
from ..services.evening.standings import compute_standings
from ..services.sheets import live
from ..tables import standings_table
from .common import after_round_param, desk_tournament, get_competition, requested_hall


@login_required
def overview(request: HttpRequest, slug: str) -> HttpResponse:
    t = desk_tournament(request, slug)
    hall = requested_hall(request, t, sheets=True)
    typing = live.typists(t.pk for t in hall.tables)
    rows = [
        {
            "table": table,
            "sheet": sheet_of(table),
            "state": sheet_state(sheet_of(table)),
            "typists": typing.get(table.pk, []),
        }
        for table in hall.tables
    ]
    return render(
        request,
        "desk/overview.html",
        {"tournament": t, "hall": hall, "rows": rows, "next_missing": first_open_table(hall)},
    )


@login_required
def standings(request: HttpRequest, slug: str, mode: str) -> HttpResponse:
    t = desk_tournament(request, slug)
    competition = get_competition(t, mode)
    data = compute_standings(competition, after_round_param(request))
    return render(
        request,
        "desk/standings.html",
        {
            "tournament": t,
            "competition": competition,
            "standings": data,
            "table": standings_table(data, request),
        },
    )
