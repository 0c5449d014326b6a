"""The desk at the door: the check-in page (scan, short code or name; present, paid, slip),
"Nicht erschienen", and the competition's online registration with its waiting list."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..exports.registry import download_url
from ..forms import CompetitionSignUpForm
from ..models import Entrant, Role, Tournament, WaitingRegistration
from ..services.access import Action
from ..services.errors import DeskError
from ..services.evening import checkin, signup
from ..services.evening.players import links_of, revoke_person
from ..services.money import charity
from ..services.server.public_links import request_base_url
from .common import desk_tournament, get_competition, plain_int
from .signup import mail_confirmation

SLIP_FORMATS = ("80mm", "a6")


def _slip_url(tournament: Tournament, entrant: Entrant, paper: str) -> str:
    query = {"nr": str(entrant.start_number), "format": paper, "anzeigen": "1"}
    return download_url(tournament, "slips", query)


def _result(request: HttpRequest, tournament: Tournament, **context: Any) -> HttpResponse:
    """The door's answer: only the result box for the page's own requests (htmx), else the
    whole page."""
    fee = charity.fee_rule(tournament)
    paper = request.session.get("slip_format", SLIP_FORMATS[0])
    entrant = context.get("entrant")
    context = {
        "tournament": tournament,
        "count": checkin.door_count(tournament),
        "fee_due": fee.fee(1) > 0,
        "paper": paper,
        "slip_url": _slip_url(tournament, entrant, paper) if entrant is not None else "",
        "people": _people(entrant) if entrant is not None else [],
        "arrive": _arrive_key(entrant, context.get("found_person")) if entrant else None,
        "organiser": tournament.desk_role == Role.ORGANISER,  # type: ignore[attr-defined]
        **context,
    }
    if request.headers.get("HX-Request"):
        return render(request, "desk/_door_result.html", context)
    # the whole page (not each scan): places freed by "Nicht erschienen" and who waits
    context["free_places"] = [p for p in signup.free_places(tournament) if p.free]
    return render(request, "desk/checkin.html", context)


@login_required
def checkin_page(request: HttpRequest, slug: str) -> HttpResponse:
    t = desk_tournament(request, slug)
    if request.method != "POST":
        return _result(request, t)
    try:
        return _door_action(request, t)
    except DeskError as exc:
        return _result(request, t, problem=exc.message)


def _door_action(request: HttpRequest, t: Tournament) -> HttpResponse:
    post = request.POST
    if post.get("format") in SLIP_FORMATS:
        request.session["slip_format"] = post["format"]
    if post.get("action") == "move_up":
        return _move_up_free(request, t)
    pk = plain_int(post.get("entrant", ""))
    entrant = get_object_or_404(Entrant, pk=pk, tournament=t) if pk is not None else None
    action = post.get("action", "")
    person = _person(post.get("person", ""))
    if entrant is not None and action == "paid":
        charity.set_paid(entrant, request.user, fee_paid=True)
        return _result(request, t, entrant=entrant, done=_("Startgeld bezahlt."))
    if entrant is not None and action == "undo":
        checkin.undo_check_in(entrant, request.user)
        return _result(request, t, entrant=entrant, done=_("Ankunft zurückgenommen."))
    if entrant is not None and "arrive" in post:  # "Angekommen": "0", "1" or "all"
        return _arrived(request, t, entrant, _person(post["arrive"]))
    if entrant is not None and action == "revoke" and person is not None:
        return _revoke(request, t, entrant, person)
    if entrant is not None:  # chosen among the candidates of a name search: shown, not marked
        return _shown(request, t, entrant, person)
    query = post.get("q", "")
    found = checkin.find(t, query)
    if found.entrant is not None and found.revoked:
        return _shown(
            request,
            t,
            found.entrant,
            found.partner,
            problem=_(
                "Dieser Zettel gilt nicht mehr: für %(person)s wurde ein neuer Link ausgegeben. "
                "Nicht als angekommen markiert."
            )
            % {"person": _person_name(found.entrant, found.partner)},
        )
    if found.entrant is not None and found.by_link:  # the person at the door showed their own
        return _arrived(request, t, found.entrant, found.partner)
    if found.entrant is not None:  # a start number or a name: the desk confirms the arrival
        return _shown(request, t, found.entrant, found.partner)
    if found.candidates:
        return _result(request, t, candidates=found.candidates, query=query)
    return _result(
        request,
        t,
        query=query,
        problem=_("Niemand gefunden für „%(query)s“.") % {"query": query.strip()[:60]},
    )


def _person(value: str) -> bool | None:
    """Which of a pair's people a button names: "0" the first name, "1" the partner; else
    everyone of the entrant."""
    return {"0": False, "1": True}.get(value)


def _person_name(entrant: Entrant, partner: bool | None) -> str:
    if partner is None or not entrant.partner:
        return entrant.display_name
    return entrant.partner if partner else entrant.name


def _people(entrant: Entrant) -> list[dict[str, Any]]:
    """The entrant's people at the door: name, which one, arrived or not."""
    here = checkin.people_here(entrant)
    names = [entrant.name, entrant.partner] if entrant.partner else [entrant.display_name]
    at = [entrant.checked_in_at, entrant.partner_checked_in_at]
    return [
        {"name": name, "person": str(i), "here": here[i], "at": at[i]}
        for i, name in enumerate(names)
    ]


def _arrive_key(entrant: Entrant, found: bool | None) -> dict[str, str] | None:
    """The one-key "Angekommen" (Enter on the empty field) for the entrant shown: for the
    person a name named, else whoever of it is missing; none once everyone is here."""
    if entrant.withdrawn:
        return None
    here = checkin.people_here(entrant)
    missing = [i for i, arrived in enumerate(here) if not arrived]
    if not missing:
        return None
    if len(here) == 1:
        return {"person": "", "label": _("Angekommen")}
    person = int(found) if found is not None and int(found) in missing else None
    if person is None and len(missing) == 1:
        person = missing[0]
    if person is None:
        return {"person": "", "label": _("Beide angekommen")}
    name = entrant.partner if person else entrant.name
    return {"person": str(person), "label": _("%(person)s angekommen") % {"person": name}}


def _shown(
    request: HttpRequest,
    t: Tournament,
    entrant: Entrant,
    partner: bool | None = None,
    **context: Any,
) -> HttpResponse:
    """The person found, not marked: the desk presses "Angekommen" (Enter) for them."""
    return _result(request, t, entrant=entrant, found_person=partner, **context)


def _arrived(
    request: HttpRequest, t: Tournament, entrant: Entrant, partner: bool | None = None
) -> HttpResponse:
    if entrant.withdrawn:
        return _result(
            request,
            t,
            entrant=entrant,
            problem=_("%(entrant)s ist abgemeldet.") % {"entrant": entrant},
        )
    new = checkin.check_in(entrant, request.user, partner)
    who = _person_name(entrant, partner)
    if not new and entrant.partner and partner is not None:
        done = _("%(person)s war schon als angekommen markiert.") % {"person": who}
    elif not new:
        done = _("War schon als angekommen markiert.")
    elif entrant.partner and checkin.complete(entrant):
        done = _("%(person)s ist angekommen. Das Paar ist vollständig.") % {"person": who}
    elif entrant.partner:
        missing = entrant.name if entrant.checked_in_at is None else entrant.partner
        done = _("%(person)s ist angekommen. %(missing)s fehlt noch.") % {
            "person": who,
            "missing": missing,
        }
    else:
        done = _("Angekommen.")
    return _result(
        request, t, entrant=entrant, partner=partner, done=done, again=not new, arrived=new
    )


def _revoke(request: HttpRequest, t: Tournament, entrant: Entrant, partner: bool) -> HttpResponse:
    """A lost slip at the door: the person's link is replaced (the old one shows nothing any
    more); the new code is shown at once and the slip can be printed again (F9)."""
    new = revoke_person(entrant, partner, request.user)
    return _result(
        request,
        t,
        entrant=entrant,
        done=_(
            "Neuer Link für %(person)s: Kurzcode %(code)s. Der alte Zettel gilt nicht mehr; "
            "den neuen drucken (F9)."
        )
        % {"person": new.person_name, "code": new.code},
        new_link=new,
    )


def _move_up_free(request: HttpRequest, t: Tournament) -> HttpResponse:
    """After "Nicht erschienen": the free places go to the waiting list, first come first,
    with one key; each one hears it by e-mail (as from the entrants' page)."""
    moved = signup.move_up_free(t, request.user)
    for waiting, entrant in moved:
        _tell_moved_up(request, t, waiting, entrant)
    if moved:
        messages.success(
            request,
            _("Nachgerückt: %(names)s.")
            % {"names": ", ".join(f"{e.start_number} {e.display_name}" for _waiting, e in moved)},
        )
    else:
        messages.info(request, _("Kein freier Platz, oder niemand wartet."))
    return redirect("desk:checkin", slug=t.slug)


@login_required
@require_POST
def no_show(request: HttpRequest, slug: str) -> HttpResponse:
    t = desk_tournament(request, slug, Action.EDIT_ENTRANTS)
    if "confirmed" not in request.POST:
        return render(
            request,
            "desk/no_show.html",
            {
                "tournament": t,
                "missing": checkin.no_shows(t),
                "half": checkin.half_pairs(t),
            },
        )
    try:
        withdrawn = checkin.withdraw_no_shows(t, request.user)
    except DeskError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, checkin.no_show_message(withdrawn))
    return redirect("desk:checkin", slug=slug)


@login_required
@require_POST
def signup_settings(request: HttpRequest, slug: str, mode: str) -> HttpResponse:
    t = desk_tournament(request, slug, Action.EDIT_ENTRANTS)
    competition = get_competition(t, mode)
    form = CompetitionSignUpForm(request.POST, instance=competition)
    if form.is_valid():
        try:
            signup.update_settings(
                competition, request.user, **{f: form.cleaned_data[f] for f in form.changed_data}
            )
        except DeskError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Online-Anmeldung gespeichert."))
    else:
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            text = " ".join(str(e) for e in errors)
            messages.error(request, f"{label}: {text}" if label else text)
    return redirect(reverse("desk:entrants", args=[slug, mode]) + "#online")


@login_required
@require_POST
def waiting_action(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t = desk_tournament(request, slug, Action.REGISTER)
    waiting = get_object_or_404(WaitingRegistration, pk=pk, tournament=t)
    try:
        if request.POST.get("action") == "cancel":
            signup.cancel_waiting(waiting, request.user)
            messages.success(
                request, _("%(name)s: von der Warteliste gestrichen.") % {"name": waiting}
            )
        else:
            entrant = signup.move_up(waiting, request.user)
            messages.success(
                request,
                _("%(name)s ist nachgerückt und hat die Startnummer %(number)s.")
                % {"name": entrant.display_name, "number": entrant.start_number},
            )
            _tell_moved_up(request, t, waiting, entrant)
    except DeskError as exc:
        messages.error(request, exc.message)
    return redirect(reverse("desk:entrants", args=[slug, waiting.competition.mode]) + "#online")


def _tell_moved_up(
    request: HttpRequest, t: Tournament, waiting: WaitingRegistration, entrant: Entrant
) -> None:
    """The one who moved up hears it by e-mail (start number and own links), when mail is set
    up and they gave an address; the desk reads whether it went."""
    if not signup.mail_enabled() or not waiting.email:
        return
    base = request_base_url(request)
    if base is None:  # the desk at 127.0.0.1: links to this laptop would lead nowhere
        messages.warning(
            request,
            _(
                "Keine E-Mail an %(email)s: diese Adresse des Rechners ist von außen nicht "
                "erreichbar (PUBLIC_BASE_URL setzen). Bitte Startnummer und Kurzcode selbst "
                "mitteilen."
            )
            % {"email": waiting.email},
        )
        return
    done = signup.SignedUp(entrant, links_of(entrant), waiting)
    if mail_confirmation(t, done, base, moved_up=True):
        messages.info(request, _("E-Mail an %(email)s verschickt.") % {"email": waiting.email})
    else:
        messages.warning(
            request,
            _("Die E-Mail an %(email)s ging nicht hinaus; bitte selbst Bescheid geben.")
            % {"email": waiting.email},
        )
