"""Who may do what: accounts are members of tournaments with a role.

Cups (series) and the player register hold players' names, also of those who did not want to
be named in public: the register and every cup of a Verein are for the Verein's organisers
(:func:`may_run_register`), a cup also for the organisers of its evenings
(:func:`series_visible_to`); desk helpers and everybody else do not see them.

- organiser (Turnierleitung): everything in the tournament — rules, seating, registration,
  corrections of confirmed sheets, deleting, members, backups.
- desk helper (Helfer/in am Turniertisch): see the tournament's desk pages, enter and confirm
  score sheets, register late arrivals, record payments and the winners' prize choices; no
  fees, donation rules or prize table, no rules, no (re-)planning, no deleting, no
  corrections of confirmed sheets, no members, no backups.

Every service that changes a tournament calls :func:`require` with the acting user, so the rule
holds whichever page (or future API) calls it; the views add a 404 for tournaments the user does
not belong to. ``user=None`` is the system itself (management commands, the demo generator),
which has the database anyway; a request always passes ``request.user`` (anonymous included).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from typing import Any, TypeAlias, TypeVar

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, PermissionsMixin
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.db.models.signals import post_delete, post_save
from django.utils.translation import gettext as _

from ..models import Membership, Role, Series, Tournament, Verein, VereinMember

Actor: TypeAlias = AbstractBaseUser | AnonymousUser | None

CREATE_TOURNAMENT_PERMISSION = "binokel_tournament.add_tournament"


def account_id(user: Actor) -> Any:
    """The primary key of the stored account behind an actor, for the models' user fields;
    None for the system (commands) and for anonymous visitors."""
    if user is None or not user.is_authenticated:
        return None
    return user.pk


class Action(StrEnum):
    VIEW = "view"  # the tournament's desk pages, standings, printouts, audit log
    ENTER_RESULTS = "enter_results"  # type, save and confirm score sheets
    REGISTER = "register"  # register an entrant (late arrivals) with the quick form
    LINK_PLAYERS = "link_players"  # link entrants to the player register (cups)
    CORRECT_RESULTS = "correct_results"  # change a sheet that is already confirmed
    EDIT_ENTRANTS = "edit_entrants"  # edit, withdraw, import, renumber
    DELETE = "delete"  # delete a mistaken registration
    SEATING = "seating"  # plan, re-plan, lock and unlock rounds
    RULES = "rules"  # the tournament's settings and rule set
    MEMBERS = "members"  # add, change and remove members, unlock logins
    BACKUP = "backup"  # download the tournament as a backup
    TABLE_LINKS = "table_links"  # re-issue a table's phone link
    START_ROUND = "start_round"  # start a planned round (its links open, its seating fixed)
    RECORD_PAYMENTS = "record_payments"  # Startgeld / donation paid, extra donations
    RECORD_PRIZE_CHOICES = "record_prize_choices"  # a winner's choice from the prize table
    MANAGE_CHARITY = "manage_charity"  # fees, donation rule, purpose, the prize table


ROLE_ACTIONS: dict[str, frozenset[Action]] = {
    Role.ORGANISER: frozenset(Action),
    Role.HELPER: frozenset(
        {
            Action.VIEW,
            Action.ENTER_RESULTS,
            Action.START_ROUND,
            Action.REGISTER,
            Action.LINK_PLAYERS,
            Action.RECORD_PAYMENTS,
            Action.RECORD_PRIZE_CHOICES,
        }
    ),
}


class NotAllowed(PermissionDenied):
    """Shown as a 403 page with the message; nothing was changed."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def is_system(user: Actor) -> bool:
    return user is None


def role_of(user: Actor, tournament: Tournament) -> str | None:
    """The stronger of the account's role in the tournament (``Membership``) and in the
    tournament's Verein (``VereinMember``): a Verein's roles apply to all its tournaments."""
    if user is None or not user.is_authenticated or not user.is_active:
        return None
    uid = account_id(user)

    def read() -> set[str]:
        own = Membership.objects.filter(tournament=tournament, user_id=uid).order_by()
        club = VereinMember.objects.filter(verein=tournament.verein_id, user_id=uid).order_by()
        return set(own.values_list("role", flat=True).union(club.values_list("role", flat=True)))

    roles = remembered(("role", tournament.pk, tournament.verein_id, uid), read)
    if Role.ORGANISER in roles:
        return Role.ORGANISER
    return Role.HELPER if roles else None


def role_in(user: Actor, verein_id: int | None) -> str | None:
    """The account's role in a Verein (``VereinMember``)."""
    if user is None or not user.is_authenticated or not user.is_active or verein_id is None:
        return None
    uid = account_id(user)

    def read() -> str | None:
        role: str | None = (
            VereinMember.objects.filter(verein_id=verein_id, user_id=uid)
            .values_list("role", flat=True)
            .first()
        )
        return role

    return remembered(("verein role", verein_id, uid), read)


# --- one request's reading of the roles -----------------------------------------------------
_memo = threading.local()
T = TypeVar("T")


@contextmanager
def one_request() -> Iterator[None]:
    """Within one desk request an account's roles and Vereine are read once: a sheet's save
    asked for them five times (the page's checks, the writer's, the desk's scope), a query
    each, on a busy server each a wait for the database. A change of any membership or
    tournament during the request forgets what was read (:func:`connect`)."""
    outer = getattr(_memo, "facts", None)
    _memo.facts = {} if outer is None else outer
    try:
        yield
    finally:
        _memo.facts = outer


def remembered(key: tuple[Any, ...], read: Callable[[], T]) -> T:
    """``read()``, once per ``key`` within :func:`one_request` (every time outside it)."""
    facts: dict[tuple[Any, ...], Any] | None = getattr(_memo, "facts", None)
    if facts is None:
        return read()
    if key not in facts:
        facts[key] = read()
    value: T = facts[key]
    return value


def _forget(**kwargs: Any) -> None:
    facts = getattr(_memo, "facts", None)
    if facts:
        facts.clear()


def connect() -> None:
    """A membership, a Verein's member or a tournament (its Verein) saved or deleted: the
    roles read in this request are read again (called once, when the app is ready)."""
    for model in (Membership, VereinMember, Tournament):
        for signal in (post_save, post_delete):
            signal.connect(_forget, sender=model, dispatch_uid=f"binokel_roles_{model.__name__}")


def single_verein() -> Verein | None:
    """The one Verein of an installation that has exactly one (a laptop)."""
    first_two = list(Verein.objects.order_by("pk")[:2])
    return first_two[0] if len(first_two) == 1 else None


def may_create_by_permission(user: Actor) -> bool:
    """Superusers, and accounts made before Vereine with the permission "add tournament"."""
    if user is None or not user.is_authenticated or not isinstance(user, PermissionsMixin):
        return False
    return bool(user.is_superuser or user.has_perm(CREATE_TOURNAMENT_PERMISSION))


def can(user: Actor, tournament: Tournament, action: Action) -> bool:
    if is_system(user):
        return True
    role = role_of(user, tournament)
    return role is not None and action in ROLE_ACTIONS.get(role, frozenset())


# what may still be done with an evening taken in from a result file (it is read-only)
READ_ONLY_ACTIONS = frozenset({Action.VIEW, Action.BACKUP, Action.MEMBERS, Action.LINK_PLAYERS})


def require(user: Actor, tournament: Tournament, action: Action) -> None:
    """Raise :class:`NotAllowed` unless ``user`` may do ``action`` in ``tournament``."""
    if is_system(user):
        return
    role = role_of(user, tournament)
    if role is None:
        raise NotAllowed(_("Sie sind nicht Mitglied dieses Turniers."))
    if action not in ROLE_ACTIONS.get(role, frozenset()):
        raise NotAllowed(_("Das darf nur die Turnierleitung."))
    if tournament.read_only and action not in READ_ONLY_ACTIONS:
        raise NotAllowed(
            _(
                "Dieser Abend ist aus einer Ergebnisdatei übernommen und kann hier nur "
                "angesehen werden."
            )
        )


def tournaments_of(user: Actor) -> QuerySet[Tournament]:
    """The tournaments a user belongs to, as a member of the tournament or of its Verein
    (the system sees all)."""
    if user is None:
        return Tournament.objects.all()
    if not user.is_authenticated or not user.is_active:
        return Tournament.objects.none()
    uid = account_id(user)
    vereine = VereinMember.objects.filter(user_id=uid).values("verein_id")
    own = Membership.objects.filter(user_id=uid).values("tournament_id")
    return Tournament.objects.filter(Q(pk__in=own) | Q(verein_id__in=vereine))


def can_create_tournament(user: Actor, verein: Verein | None = None) -> bool:
    """The organisers of a Verein (``manage.py organiser USER --verein SLUG``) may create its
    tournaments and run its register and cups (in ``verein``, or in any of theirs); they
    become the new tournament's organiser. On a laptop of one Verein, superusers and accounts
    with the permission "add tournament" (``manage.py organiser`` without ``--verein``) may
    too: they see the tournaments they belong to, as before Vereine."""
    if user is None:
        return True
    if not user.is_authenticated or not user.is_active:
        return False
    if verein is not None and role_in(user, verein.pk) == Role.ORGANISER:
        return True
    if (
        verein is None
        and VereinMember.objects.filter(user_id=account_id(user), role=Role.ORGANISER).exists()
    ):
        return True
    if not may_create_by_permission(user):
        return False
    only = single_verein()  # a laptop: the accounts `manage.py organiser` makes
    if verein is None:
        return only is not None or not Verein.objects.exists()
    return only is not None and only.pk == verein.pk


def require_create_tournament(user: Actor, verein: Verein | None = None) -> None:
    if not can_create_tournament(user, verein):
        raise NotAllowed(_("Neue Turniere anlegen darf nur eine Turnierleitung."))


def organised_tournaments(user: Actor) -> QuerySet[Tournament]:
    """The tournaments the account organises, as a member of the tournament or of its Verein
    (the system: all)."""
    if user is None:
        return Tournament.objects.all()
    if not user.is_authenticated or not user.is_active:
        return Tournament.objects.none()
    uid = account_id(user)
    vereine = VereinMember.objects.filter(user_id=uid, role=Role.ORGANISER).values("verein_id")
    own = Membership.objects.filter(user_id=uid, role=Role.ORGANISER).values("tournament_id")
    return Tournament.objects.filter(Q(pk__in=own) | Q(verein_id__in=vereine))


def may_run_register(user: Actor, verein: Verein | None) -> bool:
    """Whether the account sees and keeps the Verein's player register and all its cups: its
    organisers (the accounts that may create its tournaments)."""
    return verein is not None and can_create_tournament(user, verein)


def series_visible_to(user: Actor, verein: Verein | None) -> QuerySet[Series]:
    """The cups of the Verein the account may see: all of them for the Verein's organisers,
    else those with an evening the account organises; none for helpers and others."""
    if verein is None:
        return Series.objects.none()
    series = Series.objects.filter(verein=verein)
    if may_run_register(user, verein):
        return series
    return series.filter(tournaments__in=organised_tournaments(user)).distinct()


def can_see_series(user: Actor, series: Series) -> bool:
    return series_visible_to(user, series.verein).filter(pk=series.pk).exists()
