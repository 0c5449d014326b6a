"""The organisers' desk: setup, registration, seating, results, overview, standings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..forms import (
    EntrantForm,
    ImportForm,
    NumberingForm,
    QuickEntrantForm,
    RestoreForm,
    TournamentForm,
)
from ..models import Competition, Entrant, Round, ScoreSheet, SheetStatus, Table, Tournament
from ..services import registration, results, seating
from ..services.access import Action, NotAllowed, can_create_tournament, tournaments_of
from ..services.audit import changes as audit_changes
from ..services.errors import DeskError
from ..services.standings import compute_standings
from ..tables import standings_table
from .common import after_round_param, desk_tournament, get_competition, plain_int

SETTINGS_FIELDS = ("name", "date", "venue", "preset", "rounds", "double_check", "public_pages")


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
        registration.update_settings(
            Tournament.objects.get(pk=t.pk),
            request.user,
            {k: form.cleaned_data[k] for k in SETTINGS_FIELDS},
            form.rule_overrides(),
            form.cleaned_data["competitions"],
        )
        messages.success(request, _("Gespeichert."))
        return redirect("desk:dashboard", slug=t.slug)
    return render(request, "desk/tournament_form.html", {"form": form, "tournament": t})


@login_required
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    t = desk_tournament(request, slug)
    competitions = list(t.competitions.all())
    rounds = list(t.round_set.all())
    stats = []
    for c in competitions:
        stats.append(
            {
                "competition": c,
                "entrants": c.entrants.filter(withdrawn=False).count(),
                "seated": c.tables.exists(),
                "plan": seating.plan_status(c),
            }
        )
    return render(
        request, "desk/dashboard.html", {"tournament": t, "stats": stats, "rounds": rounds}
    )


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
                user=request.user,
            )
        except DeskError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(
                request,
                _("%(name)s hat die Startnummer %(number)s.")
                % {"name": entrant.display_name, "number": entrant.start_number},
            )
            return redirect("desk:entrants", slug=slug, mode=mode)
    return render(
        request,
        "desk/entrants.html",
        {
            "tournament": t,
            "competition": competition,
            "form": form,
            "entrants": competition.entrants.order_by("start_number"),
            "import_form": ImportForm(),
            "numbering_form": NumberingForm(),
        },
    )


@login_required
def entrant_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t = desk_tournament(request, slug, Action.EDIT_ENTRANTS)
    entrant = get_object_or_404(Entrant, pk=pk, tournament=t)
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
    if form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            rows = registration.read_table_file(upload.name, upload.read())
            report = registration.import_entrants(competition, rows, request.user)
        except DeskError as exc:
            messages.error(request, exc.message)
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
                seating.replan_seating(competition, seed, request.user)
                messages.success(request, _("Die offenen Durchgänge wurden neu geplant."))
            else:
                seating.generate_seating(competition, seed, request.user)
                messages.success(request, _("Der Spielplan wurde erstellt."))
        except DeskError as exc:
            messages.error(request, exc.message)
        return redirect("desk:seating", slug=slug)
    blocks = []
    for c in t.competitions.all():
        blocks.append(
            {
                "competition": c,
                "quality": seating.seating_quality(c),
                "status": seating.plan_status(c),
            }
        )
    rounds = (
        Round.objects.filter(tournament=t)
        .prefetch_related("tables__seats__entrant", "tables__competition")
        .order_by("number")
    )
    return render(
        request, "desk/seating.html", {"tournament": t, "blocks": blocks, "rounds": rounds}
    )


@login_required
@require_POST
def round_lock(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    t = desk_tournament(request, slug, Action.SEATING)
    round_obj = get_object_or_404(Round, tournament=t, number=number)
    try:
        seating.set_round_locked(round_obj, request.POST.get("locked") == "1", request.user)
    except DeskError as exc:
        messages.error(request, exc.message)
    return redirect("desk:seating", slug=slug)


@login_required
def overview(request: HttpRequest, slug: str) -> HttpResponse:
    t = desk_tournament(request, slug)
    rounds = []
    for r in t.round_set.order_by("number"):
        tables = list(r.tables.select_related("competition").order_by("number"))
        sheets = {s.table_id: s for s in ScoreSheet.objects.filter(table__round=r)}
        rows = []
        for table in tables:
            sheet = sheets.get(table.pk)
            if sheet is None:
                state = "missing"
            elif sheet.status == SheetStatus.CONFIRMED:
                state = "confirmed"
            elif sheet.complete and not sheet.error_count:
                state = "ready"  # complete and valid, waiting to be confirmed
            else:
                state = "draft"
            rows.append({"table": table, "sheet": sheet, "state": state})
        rounds.append(
            {
                "round": r,
                "rows": rows,
                "missing": sum(1 for x in rows if x["state"] == "missing"),
                "drafts": sum(1 for x in rows if x["state"] in {"draft", "ready"}),
                "confirmed": sum(1 for x in rows if x["state"] == "confirmed"),
                "mismatch": sum(1 for x in rows if x["sheet"] and x["sheet"].scorer_mismatch),
                "next_missing": next((x["table"] for x in rows if x["state"] != "confirmed"), None),
            }
        )
    return render(request, "desk/overview.html", {"tournament": t, "rounds": rounds})


def _sheet_context(
    table: Table,
    entries: dict[str, str],
    evaluation: results.SheetEvaluation,
    sheet: ScoreSheet | None,
) -> dict[str, object]:
    layout = evaluation.layout
    rows = []
    for row in evaluation.rows:
        rows.append(
            {
                "row": row,
                "dealer_label": layout.dealer_label(row.dealer),
                "cells": [
                    {
                        "column": c,
                        "meld": entries.get(f"g{row.number}-c{c.number}-meld", ""),
                        "tricks": entries.get(f"g{row.number}-c{c.number}-tricks", ""),
                        "revoked": bool(entries.get(f"g{row.number}-c{c.number}-revoked")),
                        "written": entries.get(f"g{row.number}-c{c.number}-written", ""),
                        "points": row.points[c.number] if row.points is not None else None,
                        "running": evaluation.running[c.number][row.number - 1],
                        "sits_out": row.sits_out == c.number,
                        "mismatch": c.number in row.written_mismatch,
                    }
                    for c in layout.columns
                ],
                "kind": entries.get(f"g{row.number}-kind", "played"),
                "declarer": entries.get(f"g{row.number}-declarer", ""),
                "bid": entries.get(f"g{row.number}-bid", ""),
                "dealer": entries.get(f"g{row.number}-dealer", ""),
                "notrick": bool(entries.get(f"g{row.number}-notrick")),
                "messages": list(dict.fromkeys(m for ms in row.errors.values() for m in ms)),
            }
        )
    totals = [
        {
            "column": c,
            "total": evaluation.totals[c.number],
            "written": entries.get(f"written-total-c{c.number}", ""),
            "mismatch": c.number in evaluation.total_mismatch,
        }
        for c in layout.columns
    ]
    return {
        "table": table,
        "tournament": table.round.tournament,
        "layout": layout,
        "evaluation": evaluation,
        "rows": rows,
        "totals": totals,
        "sheet": sheet,
        "version": sheet.version if sheet else 0,
        "error_fields": sorted(evaluation.errors),
        "players": list(enumerate(layout.players, start=1)),
    }


@login_required
def sheet(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    t = desk_tournament(request, slug)
    table = results.load_table(table_id, t)
    rules = t.rules()
    layout = results.sheet_layout(table, rules)
    stored = (
        ScoreSheet.objects.filter(table=table).select_related("entered_by", "confirmed_by").first()
    )
    conflict = None
    status = 200
    if request.method == "POST":
        entries = results.clean_entries(request.POST)
        expected = plain_int(request.POST.get("version", "0"))
        expected = -1 if expected is None else expected  # unknown: a conflict
        try:
            outcome = results.save_sheet(
                table, request.POST, request.user, expected, confirm="confirm" in request.POST
            )
        except results.SheetConflict as exc:
            conflict = exc
            messages.error(request, exc.message)
            status = 409
            stored = exc.sheet
        except NotAllowed as exc:  # e.g. a helper correcting a confirmed sheet: keep the input
            messages.error(request, exc.message)
            status = 403
        except DeskError as exc:
            messages.error(request, exc.message)
            status = 400
        else:
            if outcome.notice:
                messages.warning(request, outcome.notice)
            elif outcome.confirmed:
                messages.success(request, _("Spielzettel bestätigt."))
            else:
                messages.success(request, _("Entwurf gespeichert."))
            if outcome.confirmed and "confirm" in request.POST and not outcome.notice:
                nxt = _next_open_table(table)
                if nxt is not None:
                    return redirect("desk:sheet", slug=slug, table_id=nxt.pk)
                return redirect("desk:overview", slug=slug)
            return redirect("desk:sheet", slug=slug, table_id=table.pk)
    else:
        entries = dict(stored.entries) if stored else {}
    evaluation = results.evaluate(layout, entries, rules)
    context = _sheet_context(table, entries, evaluation, stored)
    if conflict is not None:
        context["conflict_sheet"] = conflict.sheet
        context["conflict_eval"] = results.evaluate(layout, conflict.sheet.entries, rules)
        context["version"] = plain_int(request.POST.get("version", "")) or 0
    return render(request, "desk/sheet.html", context, status=status)


def _next_open_table(table: Table) -> Table | None:
    return (
        Table.objects.filter(round=table.round)
        .exclude(sheet__status=SheetStatus.CONFIRMED)
        .exclude(pk=table.pk)
        .order_by("number")
        .first()
    )


@login_required
@require_POST
def sheet_check(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """htmx: evaluate what is typed so far and return out-of-band fragments (points, running
    totals, messages, error marks); inputs are never replaced, so the cursor stays put."""
    t = desk_tournament(request, slug)
    table = results.load_table(table_id, t)
    rules = t.rules()
    layout = results.sheet_layout(table, rules)
    entries = results.clean_entries(request.POST)
    evaluation = results.evaluate(layout, entries, rules)
    context = _sheet_context(table, entries, evaluation, None)
    return render(request, "desk/_sheet_check.html", context)


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
    log = t.audit_log.select_related("user")
    object_type, object_id = request.GET.get("type", ""), request.GET.get("id", "")
    if object_type and object_id:
        log = log.filter(object_type=object_type, object_id=object_id)
    entries = [{"entry": e, "changes": audit_changes(e.before, e.after)[:60]} for e in log[:300]]
    return render(request, "desk/audit.html", {"tournament": t, "entries": entries})
