"""The charity evening at the desk: Startgeld and donations (statements per entrant, paid or
open, extra donations, the evening's total, the settings), the prize table with the winners'
choices, the sub-rankings and the statistics. The views ask the services; the rules live in
``charity``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import pages
from ..charity_forms import CharityForm, ExtraDonationForm, PrizeForm
from ..models import Entrant, ExtraDonation, Prize, Role
from ..services.access import Action
from ..services.errors import DeskError
from ..services.money import charity, prizes
from .common import after_round_param, desk_tournament, get_competition, plain_int


@login_required
def money(request: HttpRequest, slug: str) -> HttpResponse:
    action = request.POST.get("action", "")
    needed = Action.VIEW
    if request.method == "POST":
        needed = Action.RECORD_PAYMENTS if action == "extra" else Action.MANAGE_CHARITY
    t = desk_tournament(request, slug, needed)
    is_organiser = t.desk_role == Role.ORGANISER  # type: ignore[attr-defined]
    settings_form = CharityForm(
        request.POST if action == "settings" else None, instance=t, prefix="s"
    )
    extra_form = ExtraDonationForm(request.POST if action == "extra" else None, prefix="x")
    if request.method == "POST":
        if action == "settings" and settings_form.is_valid():
            charity.update_charity_settings(
                t, request.user, {k: settings_form.cleaned_data[k] for k in charity.CHARITY_FIELDS}
            )
            messages.success(request, _("Gespeichert."))
            return redirect("desk:money", slug=slug)
        if action == "extra" and extra_form.is_valid():
            try:
                charity.add_extra_donation(
                    t,
                    request.user,
                    extra_form.cleaned_data["description"],
                    extra_form.cleaned_data["amount"],
                )
            except DeskError as exc:
                extra_form.add_error(None, exc.message)
            else:
                messages.success(request, _("Spende eingetragen."))
                return redirect("desk:money", slug=slug)
        if action == "remove_extra":
            pk = plain_int(request.POST.get("donation", ""))
            donation = get_object_or_404(ExtraDonation, pk=pk or 0, tournament=t)
            charity.remove_extra_donation(donation, request.user)
            messages.success(request, _("Spende gelöscht."))
            return redirect("desk:money", slug=slug)
    items = charity.statements(t)
    return render(
        request,
        "desk/money.html",
        {
            "tournament": t,
            "items": items,
            "total": charity.evening(t, items),
            "extras": t.extra_donations.all(),
            "settings_form": settings_form,
            "extra_form": extra_form,
            "is_organiser": is_organiser,
            "rule_text": charity.describe_donation(t),
        },
    )


@login_required
@require_POST
def pay(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Mark Startgeld or donation paid/open (``what``: fee or donation; ``paid``: 1 or 0)."""
    t = desk_tournament(request, slug, Action.RECORD_PAYMENTS)
    entrant = get_object_or_404(Entrant, pk=pk, tournament=t)
    paid = request.POST.get("paid") == "1"
    what = request.POST.get("what", "fee")
    if what == "donation":
        charity.set_paid(entrant, request.user, donation_paid=paid)
    else:
        charity.set_paid(entrant, request.user, fee_paid=paid)
    target = request.POST.get("next", "")
    if not target.startswith("/") or not url_has_allowed_host_and_scheme(
        target, {request.get_host()}
    ):
        target = reverse("desk:money", args=[slug])
    return HttpResponseRedirect(f"{target}#e{entrant.start_number}")


PRIZE_ACTIONS = {
    "add": Action.MANAGE_CHARITY,
    "remove": Action.MANAGE_CHARITY,
    "choose": Action.RECORD_PRIZE_CHOICES,
    "undo": Action.RECORD_PRIZE_CHOICES,
}


@login_required
def prizes_view(request: HttpRequest, slug: str, mode: str) -> HttpResponse:
    """The prize table of a competition; in choice mode the desk records each winner's
    choice live (the page names whose turn it is)."""
    action = request.POST.get("action", "")
    needed = (
        PRIZE_ACTIONS.get(action, Action.MANAGE_CHARITY)
        if request.method == "POST"
        else Action.VIEW
    )
    t = desk_tournament(request, slug, needed)
    competition = get_competition(t, mode)
    form = PrizeForm(request.POST if action == "add" else None, initial={"mode": mode})
    if request.method == "POST":
        try:
            if action == "add" and form.is_valid():
                prizes.add_prize(
                    competition,
                    request.user,
                    form.cleaned_data["description"],
                    form.cleaned_data["value"],
                    form.cleaned_data.get("special") or "",
                    withdrawn_may_win=form.cleaned_data.get("withdrawn_may_win", False),
                )
                messages.success(request, _("Preis eingetragen."))
                return redirect("desk:prizes", slug=slug, mode=mode)
            if action in ("remove", "choose", "undo"):
                prize = get_object_or_404(
                    Prize, pk=plain_int(request.POST.get("prize", "")) or 0, competition=competition
                )
                if action == "remove":
                    prizes.remove_prize(prize, request.user)
                elif action == "undo":
                    prizes.undo_choice(prize, request.user)
                else:
                    entrant = get_object_or_404(
                        Entrant,
                        pk=plain_int(request.POST.get("entrant", "")) or 0,
                        competition=competition,
                    )
                    prizes.record_choice(prize, entrant, request.user)
                    messages.success(
                        request,
                        _("%(name)s hat „%(prize)s“ gewählt.")
                        % {"name": entrant.display_name, "prize": prize.description},
                    )
                return redirect("desk:prizes", slug=slug, mode=mode)
        except DeskError as exc:
            if action == "add":
                form.add_error(None, exc.message)
            else:
                messages.error(request, exc.message)
                return redirect("desk:prizes", slug=slug, mode=mode)
    return render(
        request,
        "desk/prizes.html",
        {
            "tournament": t,
            "competition": competition,
            "table": prizes.prize_table(competition),
            "form": form,
            "is_organiser": t.desk_role == Role.ORGANISER,  # type: ignore[attr-defined]
        },
    )


@login_required
def subrankings_view(request: HttpRequest, slug: str, mode: str) -> HttpResponse:
    competition = get_competition(desk_tournament(request, slug), mode)
    context = pages.subrankings_page(competition, after_round_param(request))
    return render(request, "desk/subrankings.html", context)


@login_required
def statistics_view(request: HttpRequest, slug: str) -> HttpResponse:
    t = desk_tournament(request, slug)
    return render(request, "desk/statistics.html", pages.statistics_page(t))
