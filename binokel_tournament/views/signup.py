"""Online registration (no login): the form at ``/t/<slug>/anmelden/`` and the confirmation
page with each person's own link as QR code (``/t/<slug>/anmeldung/<token>/``). Protected
against floods without outside services: a rate limit per address and a honeypot field."""

from __future__ import annotations

import secrets
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from ..forms import SignUpForm
from ..models import PersonalLink, Tournament, WaitingRegistration
from ..services.errors import DeskError
from ..services.evening import signup
from ..services.evening.players import links_of
from ..services.server import throttle
from ..services.server.client_address import client_address
from ..services.server.public_links import player_base_url, qr_svg, request_base_url
from .common import get_tournament

SIGNUPS_PER_ADDRESS = 20  # registrations sent from one address …
SIGNUP_WINDOW = 600  # … per ten minutes (a club's computer registering its members is fine)


def _open_competitions(tournament: Tournament) -> list[tuple[Any, signup.SignUpState]]:
    return [(c, signup.state(c)) for c in tournament.competitions.all()]


def _public_tournament(slug: str) -> Tournament:
    """The tournament, if its pages are public: with "Öffentliche Seiten" off there is no
    online registration and no confirmation page."""
    tournament = get_tournament(slug)
    if not tournament.public_pages:
        raise Http404
    return tournament


@never_cache
def register(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _public_tournament(slug)
    offered = _open_competitions(tournament)
    modes = [c.mode for c, s in offered if s.open]
    form = SignUpForm(request.POST or None, modes=modes, initial={"key": secrets.token_hex(16)})
    refused, status, typed = "", 200, None
    if request.method == "POST" and request.POST.get("mode", "") not in modes:
        refused, typed = _too_late(request, offered)
    elif request.method == "POST" and modes:
        sender = f"signup:{client_address(request)}"
        if not throttle.allow(sender, SIGNUPS_PER_ADDRESS, SIGNUP_WINDOW):
            status = 429
            refused = _(
                "Von diesem Anschluss kamen gerade sehr viele Anmeldungen. Bitte in ein paar "
                "Minuten noch einmal versuchen."
            )
        elif form.is_valid() and form.cleaned_data["website"]:
            refused = _("Die Anmeldung konnte nicht angenommen werden.")  # a form robot
        elif form.is_valid():
            data = form.cleaned_data
            competition = next(c for c, _s in offered if c.mode == data["mode"])
            try:
                done = signup.sign_up(
                    competition,
                    signup.SignUp(
                        name=data["name"],
                        partner=data.get("partner", ""),
                        club=data.get("club", ""),
                        categories=data.get("categories", []),
                        email=data.get("email", ""),
                        public_name=data.get("public_name", False),
                        key=data.get("key", ""),
                    ),
                )
            except DeskError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                if not done.repeated:
                    _mail(request, tournament, done)
                return redirect("public:signed_up", slug=slug, token=done.token)
    return render(
        request,
        "public/signup.html",
        {
            "tournament": tournament,
            "offered": offered,
            "form": form,
            "modes": modes,
            "refused": refused,
            "typed": typed,
        },
        status=status,
    )


TYPED_FIELDS = ("name", "partner", "club", "email")


def _too_late(
    request: HttpRequest, offered: list[tuple[Any, signup.SignUpState]]
) -> tuple[str, list[tuple[str, str]]]:
    """A form sent for a competition that is no longer open (closed while the page was
    open on the phone): it is said plainly that nothing was registered, and what was typed
    stays on the page to copy."""
    mode = request.POST.get("mode", "")
    reasons = [s.reason for c, s in offered if c.mode == mode and not s.open]
    reason = reasons[0] if reasons else _("Diese Wertung nimmt keine Anmeldungen an.")
    message = _(
        "Sie sind NICHT angemeldet. %(reason)s Ihre Angaben stehen unten; bitte wenden Sie "
        "sich an die Turnierleitung."
    ) % {"reason": reason}
    labels = {f: SignUpForm.base_fields[f].label for f in TYPED_FIELDS}
    typed = [
        (str(labels[f]), request.POST.get(f, "").strip()[:254])
        for f in TYPED_FIELDS
        if request.POST.get(f, "").strip()
    ]
    return message, typed


def _people(request: HttpRequest, links: list[PersonalLink]) -> list[dict[str, Any]]:
    out = []
    for link in links:
        url = player_base_url(request) + reverse("public:personal", args=[link.token])
        out.append({"name": link.person_name, "url": url, "code": link.code, "qr": qr_svg(url)})
    return out


@never_cache
def signed_up(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The confirmation: each person's own link as QR code and short code; for a waiting
    registration its place on the waiting list (and the links once it moved up)."""
    tournament = _public_tournament(slug)
    waiting = WaitingRegistration.objects.filter(tournament=tournament, token=token).first()
    entrant = waiting.entrant if waiting is not None else None
    if waiting is None:
        link = (
            PersonalLink.objects.filter(
                token=token, revoked_at=None, entrant__tournament=tournament
            )
            .select_related("entrant")
            .first()
        )
        if link is None:
            raise Http404
        entrant = link.entrant
    people = _people(request, links_of(entrant)) if entrant is not None else []
    context = {
        "tournament": tournament,
        "entrant": entrant,
        "waiting": waiting,
        "place": signup.waiting_place(waiting) if waiting is not None else None,
        "people": people,
        "mail": signup.mail_enabled(),
    }
    return render(request, "public/signed_up.html", context)


def _mail(request: HttpRequest, tournament: Tournament, done: signup.SignedUp) -> None:
    """The sign-up's e-mail, with links at the address the move-up's e-mail uses
    (``request_base_url``); none with links to this computer only."""
    base = request_base_url(request)
    if base is not None:
        mail_confirmation(tournament, done, base)


def mail_confirmation(
    tournament: Tournament, done: signup.SignedUp, base: str, moved_up: bool = False
) -> bool:
    """The confirmation by e-mail (when mail is set up and an address was given): the start
    number and each person's own link and short code at ``base`` (the address phones reach),
    or the place on the waiting list; ``moved_up`` when the desk gave a waiting one a place.
    False when nothing was sent."""
    email = done.entrant.email if done.entrant is not None else ""
    if done.waiting is not None:
        email = done.waiting.email
    if not email:
        return False
    people = [
        {
            "name": link.person_name,
            "url": base + reverse("public:personal", args=[link.token]),
            "code": link.code,
        }
        for link in done.links
    ]
    context = {
        "tournament": tournament,
        "entrant": done.entrant,
        "waiting": done.waiting,
        "moved_up": moved_up,
        "place": signup.waiting_place(done.waiting)
        if done.waiting is not None and done.entrant is None
        else None,
        "people": people,
        "page": base + reverse("public:signed_up", args=[tournament.slug, done.token]),
    }
    text = render_to_string("public/signup_mail.txt", context)
    subject = (_("Nachgerückt: %(tournament)s") if moved_up else _("Anmeldung: %(tournament)s")) % {
        "tournament": tournament.name
    }
    return signup.send_confirmation(done, text, subject, email)
