"""Registration at the desk: the entrants of a competition (quick form, the list with payment
buttons), editing one, importing a list, numbering anew; the online registration's settings
and waiting list are on the same page (views/door.py handles their forms)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..exports.registry import download_url
from ..forms import (
    CompetitionSignUpForm,
    EntrantForm,
    ImportForm,
    NumberingForm,
    QuickEntrantForm,
)
from ..models import Category, Competition, Entrant, Role, Tournament
from ..services.access import Action
from ..services.errors import DeskError
from ..services.evening import players, registration, signup
from ..services.money import charity, series
from ..services.server.public_links import player_base_url
from .common import desk_tournament, get_competition

QUICK_ADD_HEADER = "X-Quick-Add"  # register.js sends the quick form without a page load


@login_required
def entrants(request: HttpRequest, slug: str, mode: str) -> HttpResponse:
    t = desk_tournament(request, slug)
    competition = get_competition(t, mode)
    form = QuickEntrantForm(request.POST or None)
    quick = request.method == "POST" and request.headers.get(QUICK_ADD_HEADER) == "1"
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
            if quick:
                return _quick_answer(request, t, competition, entrant)
            return redirect("desk:entrants", slug=slug, mode=mode)
    if quick:  # the form as typed, refused: the reasons, field by field
        errors = [str(e) for e in form.non_field_errors()]
        errors += [
            f"{form[name].label}: {' '.join(str(m) for m in e)}"
            for name, e in form.errors.items()
            if name != "__all__"
        ]
        return JsonResponse({"ok": False, "errors": errors}, status=400)
    fee = charity.fee_rule(t).fee(charity.players_of_mode(competition.mode))
    return render(
        request,
        "desk/entrants.html",
        {
            "tournament": t,
            "competition": competition,
            "form": form,
            "entrant_rows": entrant_rows(competition),
            "can_edit": t.desk_role == Role.ORGANISER,  # type: ignore[attr-defined]
            "fee": fee,
            "import_form": ImportForm(),
            "numbering_form": NumberingForm(),
            "signup_form": CompetitionSignUpForm(instance=competition),
            "signup_state": signup.state(competition),
            "waiting": signup.waiting_list(competition),
            "signup_url": player_base_url(request) + reverse("public:signup", args=[t.slug]),
        },
    )


def _quick_answer(
    request: HttpRequest, t: Tournament, competition: Competition, entrant: Entrant
) -> JsonResponse:
    """The quick form's answer without a page load: what the desk is told (the messages a
    page load would show, taken from the queue) and the entrant list as it is now."""
    rows = render_to_string(
        "desk/_entrant_rows.html",
        {
            "tournament": t,
            "entrant_rows": entrant_rows(competition),
            "fee": charity.fee_rule(t).fee(charity.players_of_mode(competition.mode)),
            "can_edit": t.desk_role == Role.ORGANISER,  # type: ignore[attr-defined]
        },
        request,
    )
    told = [{"level": m.tags, "text": str(m)} for m in messages.get_messages(request)]
    return JsonResponse(
        {"ok": True, "start_number": entrant.start_number, "messages": told, "rows": rows}
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
        elif (index := index or series.RegisterIndex(entrant.tournament.verein)).candidates(name):
            messages.info(
                request,
                _(
                    "„%(name)s“ steht schon im Spielerregister: unter „Spieler im Register“ "
                    "verknüpfen, wenn es dieselbe Person ist."
                )
                % {"name": name},
            )


@dataclass(frozen=True)
class EntrantRow:
    """One line of the entrant list, as the template shows it."""

    pk: int
    start_number: int
    name: str
    club: str
    status: str  # "abgemeldet nachgemeldet (Damen, Jugend)"
    fee_paid: bool
    withdrawn: bool

    @property
    def css(self) -> str:
        return "withdrawn" if self.withdrawn else ""

    @property
    def fee_state(self) -> str:
        return "paid" if self.fee_paid else "open"

    @property
    def fee_next(self) -> int:
        """What the fee button sets: paid (1) or open again (0)."""
        return 0 if self.fee_paid else 1


def entrant_rows(competition: Competition) -> list[EntrantRow]:
    """The entrant list's lines (rendered by ``desk/_entrant_rows.html``): plain values read in
    one query, the flags and categories in words."""
    category_labels = dict(Category.choices)
    marks = (_("abgemeldet"), _("nachgemeldet"), _("a. K."))
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
    rows = []
    for e in competition.entrants.only(*shown).order_by("start_number"):
        flags = (e.withdrawn, e.late, e.unranked)
        status = " ".join(mark for mark, on in zip(marks, flags, strict=True) if on)
        categories = ", ".join(str(category_labels.get(c, c)) for c in e.categories or [])
        if categories:
            status = f"{status} ({categories})" if status else categories
        rows.append(
            EntrantRow(
                e.pk, e.start_number, e.display_name, e.club, status, e.fee_paid, e.withdrawn
            )
        )
    return rows


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
    if request.method == "POST" and request.POST.get("revoke") in ("0", "1"):
        return _revoke_link(request, t, entrant, request.POST["revoke"] == "1")
    form = EntrantForm(request.POST or None, instance=entrant)
    if not charity.fee_rule(t).fee(charity.players_of_mode(entrant.competition.mode)):
        form.fields["fee_paid"].help_text = _(
            "Kein Startgeld festgelegt: die Turnierleitung legt es unter „Startgeld und "
            "Spenden“ fest."
        )
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
    base = player_base_url(request)
    links = [
        {
            "name": link.person_name,
            "person": "1" if link.partner else "0",
            "code": link.code,
            "url": base + reverse("public:personal", args=[link.token]),
        }
        # only the links made (a page to look at makes none; a slip or a new link does)
        for link in entrant.personal_links.filter(revoked_at=None).order_by("partner")
    ]
    slip = download_url(
        t, "slips", {"nr": str(entrant.start_number), "format": "80mm", "anzeigen": "1"}
    )
    return render(
        request,
        "desk/entrant_form.html",
        {"tournament": t, "form": form, "entrant": entrant, "links": links, "slip_url": slip},
    )


def _revoke_link(
    request: HttpRequest, t: Tournament, entrant: Entrant, partner: bool
) -> HttpResponse:
    """A lost slip: the person's link is replaced; the new link and code are shown at once
    (the page lists them, with the slip to print again)."""
    try:
        new = players.revoke_person(entrant, partner, request.user)
    except DeskError as exc:
        messages.error(request, exc.message)
    else:
        url = player_base_url(request) + reverse("public:personal", args=[new.token])
        messages.success(
            request,
            _(
                "Neuer Link für %(person)s: %(url)s · Kurzcode %(code)s. Der alte Link zeigt "
                "nichts mehr."
            )
            % {"person": new.person_name, "url": url, "code": new.code},
        )
    return redirect("desk:entrant_edit", slug=t.slug, pk=entrant.pk)


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
