"""The seating plan: make it, re-plan after withdrawals and late arrivals (and say which
printouts that outdates), lock a round."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..models import Competition, Round
from ..services.access import Action
from ..services.errors import DeskError
from ..services.evening import seating
from ..services.rounds.writer import RoundChange, change_round
from .board import start_round_answer
from .common import desk_tournament, plain_int, requested_hall


@login_required
def seating_view(request: HttpRequest, slug: str) -> HttpResponse:
    marking = request.method == "POST" and request.POST.get("action") == "reprinted"
    needed = Action.SEATING if request.method == "POST" and not marking else Action.VIEW
    t = desk_tournament(request, slug, needed)
    if marking:  # "ist gedruckt": a round's outstanding reprints are done (any desk member)
        round_number = plain_int(request.POST.get("round", ""))
        if round_number is not None and seating.mark_reprinted(t, request.user, round_number):
            messages.success(request, _("Als gedruckt vermerkt."))
        return redirect("desk:seating", slug=slug)
    if request.method == "POST":
        competition_id = plain_int(request.POST.get("competition", ""))
        if competition_id is None:
            return redirect("desk:seating", slug=slug)
        competition = get_object_or_404(Competition, pk=competition_id, tournament=t)
        seed = plain_int(request.POST.get("seed", "").strip()) or 0
        try:
            if request.POST.get("action") == "replan":
                summary = seating.replan_seating(competition, seed, request.user)
                messages.success(request, _("Die offenen Durchgänge wurden neu geplant."))
                # shown once on the page: who sits elsewhere now, which tables to reprint
                request.session["replan_changes"] = {
                    "mode": str(competition.get_mode_display()),
                    "changes": [c.as_dict() for c in summary.changes],
                }
            else:
                seating.generate_seating(competition, seed, request.user)
                messages.success(request, _("Der Spielplan wurde erstellt."))
        except DeskError as exc:
            messages.error(request, exc.message)
        return redirect("desk:seating", slug=slug)
    hall = requested_hall(request, t, seats=True)
    played = hall.states.started
    blocks = [
        {
            "competition": c,
            "figures": seating.seating_figures(c, played),
            "status": seating.plan_status(c, played),
        }
        for c in t.competitions.all()
    ]
    replanned = request.session.pop("replan_changes", None)
    printed = seating.printed_at(t) if replanned else {}
    changes = []
    if isinstance(replanned, dict):
        changes = [
            seating.SeatChange(
                c["round"],
                c["start_number"],
                c["name"],
                tuple(c["before"]) if c["before"] else None,
                tuple(c["after"]) if c["after"] else None,
            )
            for c in replanned.get("changes", [])
        ]
    context = {
        "tournament": t,
        "blocks": blocks,
        "hall": hall,
        "replanned": replanned,
        # once a round has started a fresh draw is refused: only the re-plan is offered
        "hall_started": any(r.locked for r in hall.rounds),
        "changes": changes,
        "reprint": [
            (r, tables, printed.get(r)) for r, tables in seating.tables_to_reprint(changes).items()
        ],
        # what is still to print after re-plans, until printed (for every desk)
        "reprints": seating.reprints(t),
    }
    return render(request, "desk/seating.html", context)


@login_required
@require_POST
def round_lock(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    t = desk_tournament(request, slug, Action.SEATING)
    back = reverse("desk:seating", args=[slug])
    if request.POST.get("locked") == "1":
        return start_round_answer(request, t, number, back)
    round_obj = get_object_or_404(Round, tournament=t, number=number)
    try:
        change_round(round_obj, RoundChange.UNLOCK, request.user)
    except DeskError as exc:
        messages.error(request, exc.message)
    return redirect(back + f"?round={round_obj.number}")
