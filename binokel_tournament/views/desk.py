"""The organisers' desk: setup, registration, seating, results, overview, standings."""

from __future__ import annotations

import re
from html import escape
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..exports.registry import download_box
from ..forms import (
    CompetitionSignUpForm,
    EntrantForm,
    ImportForm,
    NumberingForm,
    QuickEntrantForm,
    RestoreForm,
    TournamentForm,
)
from ..models import Category, Competition, Entrant, Role, Round, Tournament
from ..services import backup, charity, live, pace, registration, seating, series, signup
from ..services import rounds as rounds_service
from ..services.access import Action, NotAllowed, can_create_tournament, tournaments_of
from ..services.audit import changes as audit_changes
from ..services.errors import DeskError
from ..services.hall import first_open_table, hall_view, sheet_of, sheet_state
from ..services.standings import compute_standings
from ..tables import standings_table
from .common import after_round_param, desk_tournament, get_competition, plain_int

# the tournament's own fields the settings form edits (one list: the form's)
SETTINGS_FIELDS = tuple(TournamentForm.Meta.fields)

AUDIT_PAGE_SIZE = 50  # entries per page of the audit log
AUDIT_CHANGES_SHOWN = 60  # changed fields shown per entry
AUDIT_VALUE_LENGTH = 200  # characters shown of a value (a whole plan is longer)


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """The tournaments this account belongs to (and nothing else)."""
    tournaments = tournaments_of(request.user)
    can_create = can_create_tournament(request.user)
    if len(tournaments[:2]) == 1 and "alle" not in request.GET:
        return redirect("desk:dashboard", slug=tournaments.get().slug)
    return render(
        request,
        "desk/home.html",
        {"tournaments": tournaments, "can_create": can_create, "restore_form": RestoreForm()},
    )


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    if not can_create_tournament(request.user):
        raise NotAllowed(_("Neue Turniere anlegen darf nur eine Turnierleitung."))
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        t = registration.create_tournament(
            form.cleaned_data["name"],
            modes=form.cleaned_data["competitions"],
            creator=request.user,
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
    rounds = list(t.round_set.all())
    played = seating.played_rounds(rounds)
    stats = []
    entrants, seated, out_of_date = 0, False, False
    for c in competitions:
        count = c.entrants.filter(withdrawn=False).count()
        has_tables = c.tables.exists()
        plan = seating.plan_status(c, played)
        entrants, seated = entrants + count, seated or has_tables
        out_of_date = out_of_date or plan.out_of_date
        stats.append({"competition": c, "entrants": count, "seated": has_tables, "plan": plan})
    states = [s for s in rounds_service.round_statuses(t) if s.tables]
    planned = [s.number for s in states if s.state == rounds_service.RoundState.PLANNED]
    step = rounds_service.next_step(states, entrants, seated, out_of_date)
    context = {
        "tournament": t,
        "stats": stats,
        "rounds": rounds,
        "round_states": states,
        "step": step,
        # the next round to start, once the rounds before it are all running or done
        "next_to_start": planned[0] if planned else None,
        "downloads": download_box(t, rounds, competitions),
        "total": charity.evening(t) if charity.has_money(t) else None,
        "backup_status": backup.backup_status(t),
        "pace": pace.pace_line(pace.evening_forecast(t)),
    }
    return render(request, "desk/dashboard.html", context)


@login_required
def entrants(request: HttpRequest, slug: str, mode: str) -> HttpResponse:
    t = desk_tournament(request, slug)
    competition = get_competition(t, mode)
    form = QuickEntrantForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            entrant = registration.register_entrant(
                competition,
                form.cleaned_data["name"],
                form.cleaned_data.get("partner", ""),
                form.cleaned_data.get("club", ""),
                unranked=form.cleaned_data.get("unranked", False),
                late=t.round_set.filter(locked=True).exists(),
                categories=form.cleaned_data.get("categories", []),
                user=request.user,
            )
            if form.cleaned_data.get("fee_paid"):
                charity.set_paid(entrant, request.user, fee_paid=True)
        except DeskError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(
                request,
                _("%(name)s hat die Startnummer %(number)s.")
                % {"name": entrant.display_name, "number": entrant.start_number},
            )
            link_chosen_players(request, entrant, form.cleaned_data)
            return redirect("desk:entrants", slug=slug, mode=mode)
    fee = charity.fee_rule(t).fee(charity.players_of_mode(competition.mode))
    return render(
        request,
        "desk/entrants.html",
        {
            "tournament": t,
            "competition": competition,
            "form": form,
            "entrant_rows": entrant_rows(
                competition,
                slug,
                t.desk_role == Role.ORGANISER,  # type: ignore[attr-defined]
                show_fee=fee > 0,
            ),
            "fee": fee,
            "import_form": ImportForm(),
            "numbering_form": NumberingForm(),
            "signup_form": CompetitionSignUpForm(instance=competition),
            "signup_state": signup.state(competition),
            "waiting": signup.waiting_list(competition),
            "signup_url": request.build_absolute_uri(reverse("public:signup", args=[t.slug])),
        },
    )


def link_chosen_players(request: HttpRequest, entrant: Entrant, data: dict[str, Any]) -> None:
    """Link the new entrant (and partner) to the register's players chosen while typing; a
    returning name not chosen is pointed out (the desk links it on the register page)."""
    index: series.RegisterIndex | None = None  # the register read at most once
    for field, partner in (("player", False), ("partner_player", True)):
        name = entrant.partner if partner else entrant.name
        if not name:
            continue
        if data.get(field):
            try:
                if not series.link_chosen(entrant, data[field], request.user, partner=partner):
                    messages.warning(
                        request, _("Der gewählte Eintrag im Spielerregister ist gelöscht.")
                    )
            except DeskError as exc:
                messages.error(request, exc.message)
        elif (index := index or series.RegisterIndex()).candidates(name):
            messages.info(
                request,
                _(
                    "„%(name)s“ steht schon im Spielerregister: unter „Spieler im Register“ "
                    "verknüpfen, wenn es dieselbe Person ist."
                )
                % {"name": name},
            )


def entrant_rows(
    competition: Competition, slug: str, can_edit: bool, show_fee: bool = False
) -> SafeString:
    """The entrant list's rows as one string, every value escaped: for a thousand entrants a
    template loop (or format_html per row) costs several times more; one reverse() for every
    edit link (shown to organisers only: helpers do not edit registrations)."""
    edit = escape(reverse("desk:entrant_edit", args=[slug, 0]).removesuffix("0/"))
    pay = escape(reverse("desk:pay", args=[slug, 0]).removesuffix("0/"))
    paid_label, open_label = escape(_("bezahlt")), escape(_("offen"))
    category_labels = dict(Category.choices)
    marks = (_("abgemeldet"), _("nachgemeldet"), _("a. K."))
    link = escape(_("bearbeiten"))
    rows = []
    shown = (
        "competition",
        "start_number",
        "name",
        "partner",
        "club",
        "withdrawn",
        "late",
        "unranked",
        "fee_paid",
        "categories",
    )
    for e in competition.entrants.only(*shown).order_by("start_number"):
        flags = (e.withdrawn, e.late, e.unranked)
        status = " ".join(mark for mark, on in zip(marks, flags, strict=True) if on)
        categories = ", ".join(str(category_labels.get(c, c)) for c in e.categories or [])
        if categories:
            status = f"{status} ({categories})" if status else categories
        fee_button = (
            ""
            if not show_fee
            else (
                f'<button form="pay-form" formaction="{pay}{e.pk}/" name="paid" '
                f'value="{0 if e.fee_paid else 1}" class="{"paid" if e.fee_paid else "open"}" '
                f'tabindex="-1" data-fee="{e.start_number}">'
                f"{paid_label if e.fee_paid else open_label}</button>"
            )
        )
        edit_link = f'<a href="{edit}{e.pk}/" tabindex="-1">{link}</a>' if can_edit else ""
        rows.append(
            f'<tr class="{"withdrawn" if e.withdrawn else ""}">'
            f'<td class="num">{e.start_number}</td><td>{escape(e.display_name)}</td>'
            f"<td>{escape(e.club)}</td><td>{escape(status)}</td><td>{fee_button}</td>"
            f"<td>{edit_link}</td></tr>"
        )
    return mark_safe("\n".join(rows))  # noqa: S308 - built from escaped values only


@login_required
def entrant_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t = desk_tournament(request, slug, Action.EDIT_ENTRANTS)
    entrant = get_object_or_404(Entrant, pk=pk, tournament=t)
    if request.method == "POST" and "delete" in request.POST and "confirmed" not in request.POST:
        # nothing is deleted before the organiser has seen what it means
        return render(request, "desk/entrant_delete.html", {"tournament": t, "entrant": entrant})
    if request.method == "POST" and "delete" in request.POST:
        try:
            registration.delete_entrant(entrant, request.user)
        except DeskError as exc:
            messages.error(request, exc.message)
            return redirect("desk:entrant_edit", slug=slug, pk=pk)
        messages.success(request, _("%(entrant)s wurde gelöscht.") % {"entrant": entrant})
        return redirect("desk:entrants", slug=slug, mode=entrant.competition.mode)
    form = EntrantForm(request.POST or None, instance=entrant)
    if request.method == "POST" and form.is_valid():
        try:
            registration.update_entrant(
                Entrant.objects.get(pk=entrant.pk),
                request.user,
                **{k: form.cleaned_data[k] for k in form.changed_data},
            )
        except DeskError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, _("Gespeichert."))
            return redirect("desk:entrants", slug=slug, mode=entrant.competition.mode)
    return render(
        request, "desk/entrant_form.html", {"tournament": t, "form": form, "entrant": entrant}
    )


@login_required
@require_POST
def entrants_import(request: HttpRequest, slug: str, mode: str) -> HttpResponse:
    t = desk_tournament(request, slug, Action.EDIT_ENTRANTS)
    competition = get_competition(t, mode)
    form = ImportForm(request.POST, request.FILES)
    report = None
    # the file's rows wait in the session while the desk decides about possible duplicates
    kept_key = f"import:{competition.pk}"
    try:
        if request.POST.get("decide") == "1" and isinstance(request.session.get(kept_key), list):
            rows = request.session[kept_key]
            decisions = {
                int(name[2:]): request.POST.get(name, "")
                for name in request.POST
                if name.startswith("d-") and name[2:].isdigit() and len(name) < 12
            }
            report = registration.import_entrants(competition, rows, request.user, decisions)
        elif form.is_valid():
            upload = form.cleaned_data["file"]
            rows = [
                [c if c is None or isinstance(c, (int, float, str)) else str(c) for c in row]
                for row in registration.read_table_file(upload.name, upload.read())
            ]
            request.session[kept_key] = rows
            report = registration.import_entrants(competition, rows, request.user)
    except DeskError as exc:
        messages.error(request, exc.message)
    if report is not None and not report.pending:
        request.session.pop(kept_key, None)
    return render(
        request,
        "desk/import_report.html",
        {"tournament": t, "competition": competition, "report": report, "form": form},
    )


@login_required
@require_POST
def renumber(request: HttpRequest, slug: str) -> HttpResponse:
    t = desk_tournament(request, slug, Action.EDIT_ENTRANTS)
    form = NumberingForm(request.POST)
    if form.is_valid():
        try:
            seed = registration.renumber(
                t, form.cleaned_data["scheme"], form.cleaned_data.get("seed"), request.user
            )
            if seed is not None:
                messages.success(
                    request,
                    _("Startnummern ausgelost (Los-Nummer %(seed)s).") % {"seed": seed},
                )
            else:
                messages.success(request, _("Startnummern neu vergeben."))
        except DeskError as exc:
            messages.error(request, exc.message)
    return redirect("desk:dashboard", slug=slug)


@login_required
def seating_view(request: HttpRequest, slug: str) -> HttpResponse:
    t = desk_tournament(request, slug, Action.SEATING if request.method == "POST" else Action.VIEW)
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
    hall = hall_view(
        t,
        request.GET.get("round", ""),
        request.GET.get("page", ""),
        request.GET.get("q", ""),
        seats=True,
    )
    played = seating.played_rounds(hall.rounds)
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
    }
    return render(request, "desk/seating.html", context)


@login_required
@require_POST
def round_lock(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    t = desk_tournament(request, slug, Action.SEATING)
    round_obj = get_object_or_404(Round, tournament=t, number=number)
    try:
        seating.set_round_locked(round_obj, request.POST.get("locked") == "1", request.user)
    except DeskError as exc:
        messages.error(request, exc.message)
    return redirect(reverse("desk:seating", args=[slug]) + f"?round={round_obj.number}")


@login_required
def overview(request: HttpRequest, slug: str) -> HttpResponse:
    t = desk_tournament(request, slug)
    hall = hall_view(
        t,
        request.GET.get("round", ""),
        request.GET.get("page", ""),
        request.GET.get("q", ""),
        sheets=True,
    )
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


@login_required
def audit(request: HttpRequest, slug: str) -> HttpResponse:
    t = desk_tournament(request, slug)
    log = t.audit_log.select_related("user").order_by("-id")
    object_type, object_id = request.GET.get("type", ""), request.GET.get("id", "")
    if object_type and object_id:
        log = log.filter(object_type=object_type, object_id=object_id)
    before = request.GET.get("vor", "")
    if re.fullmatch(r"[0-9]{1,12}", before):  # older entries, page by page
        log = log.filter(id__lt=int(before))
    page = list(log[: AUDIT_PAGE_SIZE + 1])
    entries = [
        {
            "entry": e,
            "changes": [
                (name, _shortened(old), _shortened(new))
                for name, old, new in audit_changes(e.before, e.after)[:AUDIT_CHANGES_SHOWN]
            ],
        }
        for e in page[:AUDIT_PAGE_SIZE]
    ]
    older = page[AUDIT_PAGE_SIZE - 1].pk if len(page) > AUDIT_PAGE_SIZE else None
    return render(request, "desk/audit.html", {"tournament": t, "entries": entries, "older": older})


def _shortened(value: object) -> object:
    """A logged value as the audit page shows it: whole plans and sheets cut to a line."""
    if value is None:
        return None
    text = str(value)
    return text if len(text) <= AUDIT_VALUE_LENGTH else text[: AUDIT_VALUE_LENGTH - 1] + "…"
