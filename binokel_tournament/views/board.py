"""The desk's live board of the tables entering their own games: per table the seat check, the
games entered, the last activity, the table's confirmation, a call for help and a difference
from the scorer's paper sums; it refreshes itself. From here the desk reads out or shows a
table's link (QR code) and issues a new one."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..models import Round, Table, Tournament
from ..services.access import Action, Actor, NotAllowed
from ..services.errors import DeskError
from ..services.evening import pace
from ..services.rounds.writer import EarlierRoundsOpen, RoundChange, change_round
from ..services.server import public_links
from ..services.sheets import table_entry
from .common import desk_tournament, requested_hall

REFRESH_SECONDS = 5


@login_required
def board(request: HttpRequest, slug: str) -> HttpResponse:
    t = desk_tournament(request, slug)
    hall = requested_hall(request, t, sheets=True)
    rows = table_entry.board(t, hall.tables)
    forecast = pace.evening_forecast(t)
    this_round = (
        forecast is not None and hall.round is not None and forecast.round == hall.round.number
    )
    context = {
        "pace": pace.pace_line(forecast),
        # per table of the round shown: its forecast end, and whether it is far behind
        "table_ends": {f.number: f for f in forecast.tables} if this_round and forecast else {},
        "tournament": t,
        "hall": hall,
        "rows": rows,
        "refresh_seconds": REFRESH_SECONDS,
        "calls": sum(1 for r in rows if r.help),
    }
    if request.headers.get("HX-Request") == "true":
        return render(request, "desk/_board_rows.html", context)
    return render(request, "desk/board.html", context)


def _table(request: HttpRequest, slug: str, table_id: int, action: Action) -> Table:
    t = desk_tournament(request, slug, action)
    table = get_object_or_404(
        Table.objects.select_related("round", "competition"), pk=table_id, round__tournament=t
    )
    table.round.tournament = t
    return table


@login_required
def table_link(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """One table's link, big, with its QR code: to read out or show to a table."""
    table = _table(request, slug, table_id, Action.VIEW)
    url = public_links.table_url(table, request=request)
    host = request.get_host().split(":")[0]
    return render(
        request,
        "desk/table_link.html",
        {
            "tournament": table.round.tournament,
            "table": table,
            "url": url,
            "qr": public_links.qr_svg(url),
            "loopback": host in ("127.0.0.1", "localhost", "::1", "[::1]"),
        },
    )


@login_required
@require_POST
def reissue(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    table = _table(request, slug, table_id, Action.TABLE_LINKS)
    try:
        table_entry.reissue_link(table, request.user)
    except NotAllowed as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Tisch %(n)s hat einen neuen Link; der alte gilt nicht mehr.") % {"n": table.number},
        )
    return redirect("desk:table_link", slug=slug, table_id=table.pk)


@login_required
@require_POST
def start(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """ "Durchgang N starten": the round's table links take games from now on."""
    t = desk_tournament(request, slug, Action.START_ROUND)
    return start_round_answer(request, t, number, reverse("desk:board", args=[slug]))


def start_round_answer(request: HttpRequest, t: Tournament, number: int, back: str) -> HttpResponse:
    """Start round ``number`` (the board, the dashboard, the seating page): while an earlier
    round still has sheets to confirm, a page names them and asks first."""
    round_obj = get_object_or_404(Round, tournament=t, number=number)
    round_obj.tournament = t
    try:
        started = change_round(
            round_obj, RoundChange.START, request.user, despite_open="despite" in request.POST
        )
    except EarlierRoundsOpen as exc:
        context = {"tournament": t, "round": round_obj, "message": exc.message, "back": back}
        return render(request, "desk/round_start.html", context)
    except DeskError as exc:
        messages.error(request, exc.message)
    else:
        if started:
            messages.success(
                request,
                _("Durchgang %(n)s läuft: seine Tisch-Links nehmen jetzt Spiele an.")
                % {"n": number},
            )
    return redirect(back + f"?round={number}")


def _answer_call(
    request: HttpRequest, slug: str, table_id: int, step: Callable[[Table, Actor], None]
) -> HttpResponse:
    table = _table(request, slug, table_id, Action.ENTER_RESULTS)
    step(table, request.user)
    return redirect(reverse("desk:board", args=[slug]) + f"?round={table.round.number}")


@login_required
@require_POST
def help_coming(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """The desk is on its way to a calling table: its phone says so."""
    return _answer_call(request, slug, table_id, table_entry.acknowledge_call)


@login_required
@require_POST
def help_done(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """The call is dealt with: it leaves the board and the phone."""
    return _answer_call(request, slug, table_id, table_entry.clear_call)
