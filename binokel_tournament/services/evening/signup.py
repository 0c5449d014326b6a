"""Online registration ahead of the evening (``/t/<slug>/anmelden/``) and its waiting list.

A competition takes online registrations while the organiser has opened them and the closing
time has not passed. Up to its capacity (a pair counts once) a registration becomes an entrant
at once — with the next start number, as at the desk, and a personal link per person; beyond
it, with a waiting list, a :class:`WaitingRegistration` without a start number, which the desk
moves up when a place frees. The capacity is counted inside the write transaction (the
competition's row locked on PostgreSQL; SQLite writes one at a time), so two registrations for
the last place never both get it.

The same form sent twice (the reply was lost on the way, the person pressed again) carries the
same key and is recognised as the same registration. Everything is checked before anything is
stored; a refusal is a :class:`DeskError` with a German message (English with the language)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ...models import Competition, Entrant, PersonalLink, Tournament, WaitingRegistration
from ..access import Action, Actor, require
from ..audit import log_action
from ..errors import DeskError
from .players import links_of
from .registration import _register, checked_categories, checked_names, entrant_snapshot

logger = logging.getLogger("binokel.signup")

EMAIL_MAX = 254
KEY_MAX = 64


@dataclass(frozen=True)
class SignUpState:
    """Whether a competition takes online registrations now, and on what terms."""

    open: bool
    reason: str  # why not (empty while open)
    places_left: int | None  # None: no limit
    waiting: bool  # full, and further registrations go to the waiting list

    @property
    def full(self) -> bool:
        return self.places_left == 0


def taken_places(competition: Competition) -> int:
    """Places taken: every entrant of the competition who has not withdrawn."""
    return competition.entrants.filter(withdrawn=False).count()


def state(competition: Competition, now: datetime | None = None) -> SignUpState:
    now = now or timezone.now()
    left = None
    if competition.capacity is not None:
        left = max(0, competition.capacity - taken_places(competition))
    if not competition.registration_open:
        return SignUpState(False, _("Die Online-Anmeldung ist nicht geöffnet."), left, False)
    if not competition.tournament.public_pages:
        return SignUpState(
            False,
            _("Die öffentlichen Seiten sind aus (Einstellungen): keine Online-Anmeldung."),
            left,
            False,
        )
    if competition.registration_closes is not None and now >= competition.registration_closes:
        return SignUpState(False, _("Die Online-Anmeldung ist geschlossen."), left, False)
    if competition.tournament.round_set.filter(started_at__isnull=False).exists():
        return SignUpState(
            False, _("Das Turnier hat begonnen: Anmeldung nur noch am Turniertisch."), left, False
        )
    if left == 0 and not competition.waiting_list:
        return SignUpState(False, _("Alle Plätze sind vergeben."), 0, False)
    return SignUpState(True, "", left, left == 0)


@dataclass(frozen=True)
class SignUp:
    """What the form sent, as typed."""

    name: str
    partner: str = ""
    club: str = ""
    categories: Sequence[str] = ()
    email: str = ""
    public_name: bool = False
    key: str = ""  # the form's own key (a retried send is the same registration)


@dataclass(frozen=True)
class SignedUp:
    """The outcome: an entrant with its personal links, or a place on the waiting list."""

    entrant: Entrant | None
    links: list[PersonalLink]
    waiting: WaitingRegistration | None
    repeated: bool = False  # the same form had been sent before: nothing new was stored

    @property
    def token(self) -> str:
        """The token of the confirmation page's address."""
        if self.waiting is not None:
            return self.waiting.token
        return self.links[0].token


def _checked_email(email: str) -> str:
    email = email.strip()
    if not email:
        return ""
    if len(email) > EMAIL_MAX:
        raise DeskError(_("Diese E-Mail-Adresse ist zu lang."), "email")
    try:
        validate_email(email)
    except ValidationError as exc:
        raise DeskError(_("Bitte eine gültige E-Mail-Adresse eingeben."), "email") from exc
    return email


def _repeated(competition: Competition, key: str) -> SignedUp | None:
    if not key:
        return None
    entrant = competition.entrants.filter(signup_key=key).first()
    if entrant is not None:
        return SignedUp(entrant, links_of(entrant), None, repeated=True)
    waiting = competition.waiting_registrations.filter(signup_key=key).first()
    if waiting is not None:
        return SignedUp(waiting.entrant, [], waiting, repeated=True)
    return None


def sign_up(competition: Competition, form: SignUp) -> SignedUp:
    """Register online (see the module docstring). Raises ``DeskError`` when the competition
    takes no registration now or the input is not valid; nothing is stored then."""
    key = form.key.strip()[:KEY_MAX]
    again = _repeated(competition, key)
    if again is not None:
        return again
    name, partner, club = checked_names(competition, form.name, form.partner, form.club)
    email = _checked_email(form.email)
    categories = checked_categories(form.categories)
    tournament = competition.tournament
    with transaction.atomic():
        # the capacity is counted under the competition's lock (SQLite: the write transaction)
        locked = Competition.objects.select_for_update().get(pk=competition.pk)
        now = state(locked)
        if not now.open:
            raise DeskError(now.reason)
        again = _repeated(locked, key)  # sent twice at the same moment
        if again is not None:
            return again
        data = WaitingRegistration(  # what the form sent: kept on the list, or an entrant
            tournament=tournament,
            competition=locked,
            name=name,
            partner=partner,
            club=club,
            categories=categories,
            email=email,
            public_name=form.public_name,
            signup_key=key,
        )
        if now.waiting:
            data.save()
            log_action(tournament, None, "signup.waiting", data, after=_waiting_snapshot(data))
            return SignedUp(None, [], data)
        entrant = _online_entrant(locked, data, None, late=False)
        log_action(tournament, None, "signup.entrant", entrant, after=entrant_snapshot(entrant))
        return SignedUp(entrant, links_of(entrant), None)


def _online_entrant(
    competition: Competition, data: WaitingRegistration, user: Actor, *, late: bool
) -> Entrant:
    """An entrant from what the form sent (or a waiting registration holds), with the next
    start number; its key is kept for a form sent again."""
    entrant = _register(
        competition,
        data.name,
        data.partner,
        data.club,
        start_number=None,
        unranked=False,
        late=late,
        categories=data.categories or [],
        user=user,
    )
    entrant.email, entrant.public_name, entrant.online = data.email, data.public_name, True
    entrant.signup_key = data.signup_key if data.pk is None else ""
    entrant.save(update_fields=["email", "public_name", "online", "signup_key"])
    return entrant


def _waiting_snapshot(waiting: WaitingRegistration) -> dict[str, object]:
    return {
        "name": waiting.name,
        "partner": waiting.partner,
        "club": waiting.club,
        "categories": list(waiting.categories or []),
    }


def waiting_place(waiting: WaitingRegistration) -> int | None:
    """The place on the waiting list (1 = next to move up); None once moved up or cancelled."""
    if waiting.entrant_id is not None or waiting.cancelled_at is not None:
        return None
    ahead = WaitingRegistration.objects.filter(
        competition_id=waiting.competition_id,
        entrant__isnull=True,
        cancelled_at__isnull=True,
        created_at__lt=waiting.created_at,
    ).count()
    return ahead + 1


def waiting_list(competition: Competition) -> list[WaitingRegistration]:
    """Who waits, first come first."""
    return list(
        competition.waiting_registrations.filter(entrant__isnull=True, cancelled_at__isnull=True)
    )


def move_up(waiting: WaitingRegistration, user: Actor) -> Entrant:
    """The desk gives a waiting registration a place: it becomes an entrant with the next
    start number and its personal links (audited). Moving up the same one twice is refused."""
    tournament = waiting.tournament
    require(user, tournament, Action.REGISTER)
    with transaction.atomic():
        fresh = WaitingRegistration.objects.select_for_update().get(pk=waiting.pk)
        if fresh.entrant_id is not None or fresh.cancelled_at is not None:
            raise DeskError(_("Diese Anmeldung ist nicht mehr auf der Warteliste."))
        late = tournament.round_set.filter(started_at__isnull=False).exists()
        entrant = _online_entrant(fresh.competition, fresh, user, late=late)
        fresh.entrant = entrant
        fresh.save(update_fields=["entrant"])
        log_action(tournament, user, "signup.move_up", entrant, after=entrant_snapshot(entrant))
    links_of(entrant)
    return entrant


@dataclass(frozen=True)
class FreePlaces:
    """A competition's free places and who waits for one (after "Nicht erschienen")."""

    competition: Competition
    free: int
    waiting: list[WaitingRegistration]

    @property
    def moving_up(self) -> list[WaitingRegistration]:
        """Who gets a place now: the first ``free`` of the waiting list."""
        return self.waiting[: self.free]


def free_places(tournament: Tournament) -> list[FreePlaces]:
    """Per competition with a capacity and somebody waiting: the places free now and the
    waiting list, first come first."""
    out = []
    for competition in tournament.competitions.filter(capacity__isnull=False):
        waiting = waiting_list(competition)
        if waiting:
            free = max(0, (competition.capacity or 0) - taken_places(competition))
            out.append(FreePlaces(competition, free, waiting))
    return out


def move_up_free(tournament: Tournament, user: Actor) -> list[tuple[WaitingRegistration, Entrant]]:
    """Fill every free place from the waiting list, first come first (each one as
    ``move_up``): who moved up, with their new entrant."""
    require(user, tournament, Action.REGISTER)
    moved = []
    for places in free_places(tournament):
        with transaction.atomic():  # counted again under the competition's lock: two desks
            # pressing at once fill each place once
            Competition.objects.select_for_update().filter(pk=places.competition.pk).first()
            again = next(
                (p for p in free_places(tournament) if p.competition == places.competition), None
            )
            for waiting in again.moving_up if again is not None else []:
                moved.append((waiting, move_up(waiting, user)))
    return moved


def cancel_waiting(waiting: WaitingRegistration, user: Actor) -> None:
    require(user, waiting.tournament, Action.EDIT_ENTRANTS)
    with transaction.atomic():
        fresh = WaitingRegistration.objects.select_for_update().get(pk=waiting.pk)
        if fresh.entrant_id is None and fresh.cancelled_at is None:
            fresh.cancelled_at = timezone.now()
            fresh.save(update_fields=["cancelled_at"])
            log_action(
                waiting.tournament, user, "signup.cancel", fresh, before=_waiting_snapshot(fresh)
            )


SETTINGS_FIELDS = ("registration_open", "capacity", "waiting_list", "registration_closes")


def update_settings(competition: Competition, user: Actor, **changes: object) -> Competition:
    """The competition's online registration: open or not, capacity, waiting list, closing
    time (audited). A capacity must be at least 1."""
    require(user, competition.tournament, Action.EDIT_ENTRANTS)
    unknown = set(changes) - set(SETTINGS_FIELDS)
    if unknown:
        raise ValueError(f"not registration settings: {sorted(unknown)}")
    capacity = changes.get("capacity", competition.capacity)
    if capacity is not None and (not isinstance(capacity, int) or capacity < 1):
        raise DeskError(_("Mindestens ein Platz (oder leer: unbegrenzt)."), "capacity")
    before = {f: _plain(getattr(competition, f)) for f in SETTINGS_FIELDS}
    for field_name, value in changes.items():
        setattr(competition, field_name, value)
    competition.save(update_fields=list(changes) or None)
    after = {f: _plain(getattr(competition, f)) for f in SETTINGS_FIELDS}
    if before != after:
        log_action(
            competition.tournament, user, "signup.settings", competition, before=before, after=after
        )
    return competition


def _plain(value: object) -> object:
    return value.isoformat() if isinstance(value, datetime) else value


def mail_enabled() -> bool:
    return bool(getattr(settings, "EMAIL_ENABLED", False))


def send_confirmation(done: SignedUp, text: str, subject: str, to: str) -> bool:
    """Send the confirmation e-mail when mail is set up; False when it could not be sent
    (logged: the registration stands, and its page shows the same links)."""
    if not mail_enabled() or not to:
        return False
    try:
        send_mail(subject, text, None, [to], fail_silently=False)
    except Exception:  # any SMTP or network failure: logged, the registration stays
        logger.exception("confirmation e-mail to a registrant could not be sent")
        return False
    return True
