"""The desk's setup: the list of tournaments, a new tournament, its settings, its dashboard."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from ..exports.registry import download_box
from ..forms import (
    RestoreForm,
    ResultFileForm,
    TournamentForm,
)
from ..models import Tournament
from ..services import tenancy
from ..services.access import (
    Action,
    NotAllowed,
    can_create_tournament,
    series_visible_to,
    tournaments_of,
)
from ..services.evening import pace, registration, seating
from ..services.money import charity
from ..services.rounds.state import next_step, round_states
from ..services.server import backup, cache_guard
from .common import desk_tournament

# the tournament's own fields the settings form edits (one list: the form's)
SETTINGS_FIELDS = tuple(TournamentForm.Meta.fields)


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """The tournaments this account belongs to (and nothing else), of the Verein it works
    in."""
    verein = tenancy.current_verein(request)
    tournaments = tournaments_of(request.user)
    if verein is not None:
        tournaments = tournaments.filter(verein=verein)
    # a new laptop has no Verein yet: its first tournament makes it (tournament_new)
    can_create = can_create_tournament(request.user, verein)
    if len(tournaments[:2]) == 1 and "alle" not in request.GET:
        return redirect("desk:dashboard", slug=tournaments.get().slug)
    return render(
        request,
        "desk/home.html",
        {
            "tournaments": tournaments,
            "can_create": can_create,
            # an evening's organiser who runs no register still finds the cups of their evenings
            "sees_cups": not can_create and series_visible_to(request.user, verein).exists(),
            "restore_form": RestoreForm(),
            "result_form": ResultFileForm(),
        },
    )


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    verein = tenancy.current_verein(request)
    if verein is None and can_create_tournament(request.user):
        verein = tenancy.default_verein()  # a new laptop: its first tournament makes it
    if verein is None or not can_create_tournament(request.user, verein):
        raise NotAllowed(_("Neue Turniere anlegen darf nur eine Turnierleitung."))
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        t = registration.create_tournament(
            form.cleaned_data["name"],
            modes=form.cleaned_data["competitions"],
            creator=request.user,
            verein=verein,
            rules_json=form.rule_overrides(),
            **{k: form.cleaned_data[k] for k in SETTINGS_FIELDS if k != "name"},
        )
        return redirect("desk:dashboard", slug=t.slug)
    return render(request, "desk/tournament_form.html", {"form": form})


@login_required
def tournament_edit(request: HttpRequest, slug: str) -> HttpResponse:
    t = desk_tournament(request, slug, Action.RULES)
    form = TournamentForm(request.POST or None, instance=t)
    if request.method == "POST" and form.is_valid():
        try:
            registration.update_settings(
                Tournament.objects.get(pk=t.pk),
                request.user,
                {k: form.cleaned_data[k] for k in SETTINGS_FIELDS},
                form.rule_overrides(),
                form.cleaned_data["competitions"],
            )
        except registration.SettingsRefused as exc:  # changed meanwhile (another desk)
            for problem in exc.problems:
                form.add_error(
                    problem.field if problem.field in form.fields else None, problem.message
                )
        else:
            messages.success(request, _("Gespeichert."))
            return redirect("desk:dashboard", slug=t.slug)
    return render(request, "desk/tournament_form.html", {"form": form, "tournament": t})


@login_required
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    t = desk_tournament(request, slug)
    competitions = list(t.competitions.all())
    evening = round_states(t)
    rounds = [s.round for s in evening]
    played = evening.started
    stats = []
    entrants, seated, out_of_date = 0, False, False
    for c in competitions:
        count = c.entrants.filter(withdrawn=False).count()
        has_tables = c.tables.exists()
        plan = seating.plan_status(c, played)
        entrants, seated = entrants + count, seated or has_tables
        out_of_date = out_of_date or plan.out_of_date
        stats.append({"competition": c, "entrants": count, "seated": has_tables, "plan": plan})
    states = [s for s in evening if s.tables]
    step = next_step(evening, entrants, seated, out_of_date)
    planned = evening.next_planned
    context = {
        "tournament": t,
        "stats": stats,
        "rounds": rounds,
        "round_states": states,
        "step": step,
        # the next round to start, once the rounds before it are all running or done
        "next_to_start": planned.number if planned is not None else None,
        "downloads": download_box(t, rounds, competitions),
        "total": charity.evening(t) if charity.has_money(t) else None,
        "backup_status": backup.backup_status(t),
        "cache_problem": cache_guard.problem(),  # the cache is a helper: say when it is down
        "pace": pace.pace_line(pace.evening_forecast(t)),
        "reprints": seating.reprints(t),
    }
    return render(request, "desk/dashboard.html", context)
