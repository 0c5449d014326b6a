"""The organisers' desk: setup, registration, seating, results, overview, standings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..forms import EntrantForm, ImportForm, NumberingForm, QuickEntrantForm, TournamentForm
from ..models import Competition, Entrant, Round, ScoreSheet, SheetStatus, Tournament
from ..services import registration, seating
from ..services.audit import changes as audit_changes
from ..services.audit import log_action
from ..services.errors import DeskError
from ..services.standings import compute_standings
from ..tables import standings_table
from .common import after_round_param, get_competition, get_tournament


@login_required
def home(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.all()
    if tournaments.count() == 1 and "alle" not in request.GET:
        return redirect("desk:dashboard", slug=tournaments.get().slug)
    return render(request, "desk/home.html", {"tournaments": tournaments})


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        t = registration.create_tournament(
            form.cleaned_data["name"],
            modes=form.cleaned_data["competitions"],
            date=form.cleaned_data["date"],
            venue=form.cleaned_data["venue"],
            preset=form.cleaned_data["preset"],
            rules_json=form.rule_overrides(),
            rounds=form.cleaned_data["rounds"],
            double_check=form.cleaned_data["double_check"],
            public_pages=form.cleaned_data["public_pages"],
        )
        log_action(t, request.user, "tournament.create", t, after={"name": t.name})
        return redirect("desk:dashboard", slug=t.slug)
    return render(request, "desk/tournament_form.html", {"form": form})


@login_required
def tournament_edit(request: HttpRequest, slug: str) -> HttpResponse:
    t = get_tournament(slug)
    before = {"preset": t.preset, "rules": t.rules().to_dict(), "rounds": t.rounds}
    form = TournamentForm(request.POST or None, instance=t)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            t = form.save(commit=False)
            t.rules_json = form.rule_overrides()
            t.save()
            wanted = set(form.cleaned_data["competitions"])
            for mode in wanted:
                Competition.objects.get_or_create(tournament=t, mode=mode)
            t.competitions.exclude(mode__in=wanted).filter(entrants__isnull=True).delete()
            log_action(
                t,
                request.user,
                "tournament.edit",
                t,
                before,
                {"preset": t.preset, "rules": t.rules().to_dict(), "rounds": t.rounds},
            )
        messages.success(request, _("Gespeichert."))
        return redirect("desk:dashboard", slug=t.slug)
    return render(request, "desk/tournament_form.html", {"form": form, "tournament": t})


@login_required
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    t = get_tournament(slug)
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
    t = get_tournament(slug)
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
    t = get_tournament(slug)
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
    t = get_tournament(slug)
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
    t = get_tournament(slug)
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
    t = get_tournament(slug)
    if request.method == "POST":
        competition_id = request.POST.get("competition", "")
        if not competition_id.isdigit():
            return redirect("desk:seating", slug=slug)
        competition = get_object_or_404(Competition, pk=int(competition_id), tournament=t)
        seed_text = request.POST.get("seed", "0")
        seed = int(seed_text) if seed_text.lstrip("-").isdigit() else 0
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
    t = get_tournament(slug)
    round_obj = get_object_or_404(Round, tournament=t, number=number)
    try:
        seating.set_round_locked(round_obj, request.POST.get("locked") == "1", request.user)
    except DeskError as exc:
        messages.error(request, exc.message)
    return redirect("desk:seating", slug=slug)


@login_required
def overview(request: HttpRequest, slug: str) -> HttpResponse:
    t = get_tournament(slug)
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


@login_required
def standings(request: HttpRequest, slug: str, mode: str) -> HttpResponse:
    t = get_tournament(slug)
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
    t = get_tournament(slug)
    log = t.audit_log.select_related("user")
    object_type, object_id = request.GET.get("type", ""), request.GET.get("id", "")
    if object_type and object_id:
        log = log.filter(object_type=object_type, object_id=object_id)
    entries = [{"entry": e, "changes": audit_changes(e.before, e.after)[:60]} for e in log[:300]]
    return render(request, "desk/audit.html", {"tournament": t, "entries": entries})
