"""Vereine as tenants: who belongs to which club, and the scope of every desk request.

A Verein owns its tournaments, its player register and its cups (``Tournament``, ``Player``
and ``Series`` carry ``verein``). Their managers are django-scopes' ``ScopedManager``: a desk
request sees only the Vereine its account belongs to -- set in one place, the middleware
(:class:`binokel_tournament.middleware.VereinScopeMiddleware`), not by each view remembering a
filter -- and a query made outside any scope fails loudly (``ScopeError``). The system's own
entry points (``manage.py``, the backup writer, benchmarks, scripts, the tests' set-up) run
with :func:`system`: they see everything, as the database does.

An account belongs to a Verein with a role (``VereinMember``: Turnierleitung or Helfer) that
applies to all its tournaments; a tournament may still add members of its own (``Membership``).
A laptop holds one Verein and never shows it: the first tournament makes it ("Mein Verein").
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import HttpRequest
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django_scopes import scope, scopes_disabled

from ..models import Role, Tournament, Verein, VereinMember, the_one_verein
from .access import (
    Actor,
    account_id,
    can_create_tournament,
    may_create_by_permission,
    remembered,
    single_verein,
)
from .audit import log_action
from .errors import DeskError

SESSION_KEY = "binokel_verein"  # the Verein an account with several works in


@contextmanager
def system() -> Iterator[None]:
    """The system's view: every Verein (commands, the backup writer, benchmarks, tests)."""
    with scopes_disabled():
        yield


@contextmanager
def desk_scope(user: Actor) -> Iterator[None]:
    """What a desk request of ``user`` may see: the Vereine it belongs to (directly, or by a
    tournament it is a member of)."""
    with scope(verein=verein_ids_of(user)):
        yield


def verein_ids_of(user: Actor) -> list[int]:
    if user is None or not user.is_authenticated or not user.is_active:
        return []
    uid = account_id(user)

    def read() -> list[int]:
        with system():
            clubs = VereinMember.objects.filter(user_id=uid).order_by()
            evenings = Tournament.across_vereine.filter(memberships__user_id=uid).order_by()
            ids = set(
                clubs.values_list("verein_id", flat=True).union(
                    evenings.values_list("verein_id", flat=True)
                )
            )
            if not ids and may_create_by_permission(user):
                only = single_verein()
                if only is not None:
                    ids.add(only.pk)
        return sorted(ids)

    return list(remembered(("vereine", uid), read))


def vereine_of(user: Actor) -> list[Verein]:
    with system():
        return list(Verein.objects.filter(pk__in=verein_ids_of(user)))


def default_verein() -> Verein:
    """Where what is made without naming a Verein goes: the one Verein of the installation,
    made on first use; an installation of several asks to name one."""
    with system():
        try:
            with transaction.atomic():
                pk = the_one_verein()
        except IntegrityError:  # made by a second process a moment ago
            pk = the_one_verein()
        if pk is None:
            raise DeskError(
                _("Hier gibt es mehrere Vereine: bitte den Verein nennen (--verein KURZNAME).")
            )
        return Verein.objects.get(pk=pk)


def verein_by_slug(slug: str) -> Verein:
    with system():
        found = Verein.objects.filter(slug=slug).first()
    if found is None:
        raise DeskError(_("Einen Verein „%(slug)s“ gibt es hier nicht.") % {"slug": slug})
    return found


def create_verein(name: str, slug: str = "", *, district: bool = False) -> Verein:
    """A new Verein (``manage.py verein``); the slug is made from the name when not given."""
    name = name.strip()
    if not name:
        raise DeskError(_("Bitte einen Namen angeben."))
    base = slugify(slug or name)[:80] or "verein"
    with system():
        if slug and Verein.objects.filter(slug=base).exists():
            raise DeskError(_("Den Kurznamen „%(slug)s“ gibt es schon.") % {"slug": base})
        candidate, n = base, 1
        while Verein.objects.filter(slug=candidate).exists():
            n += 1
            candidate = f"{base[:75]}-{n}"
        verein = Verein.objects.create(name=name[:200], slug=candidate, district=district)
        log_action(None, None, "verein.create", verein, None, {"name": verein.name})
    return verein


def set_member(verein: Verein, user: Actor, role: str, by: Actor) -> VereinMember:
    """Make ``user`` a member of ``verein`` with ``role`` (audited)."""
    if role not in Role.values:
        raise DeskError(_("Unbekannte Rolle."))
    with system(), transaction.atomic():
        member, made = VereinMember.objects.update_or_create(
            verein=verein, user_id=account_id(user), defaults={"role": role}
        )
        log_action(
            None,
            by,
            "verein.member",
            member,
            None,
            {"verein": verein.slug, "user": getattr(user, "username", ""), "role": role},
        )
    return member


def organiser_vereine(user: Actor) -> list[Verein]:
    """The Vereine in which ``user`` may create tournaments, run the register and cups."""
    return [v for v in vereine_of(user) if can_create_tournament(user, v)]


def current_verein(request: HttpRequest) -> Verein | None:
    """The Verein the desk works in: the one chosen (kept in the session) among the
    account's, else its first."""
    mine = vereine_of(request.user)
    chosen = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
    for verein in mine:
        if verein.pk == chosen:
            return verein
    return mine[0] if mine else None


def choose_verein(request: HttpRequest, verein_id: int) -> Verein:
    for verein in vereine_of(request.user):
        if verein.pk == verein_id:
            request.session[SESSION_KEY] = verein.pk
            return verein
    raise DeskError(_("Diesem Verein gehören Sie nicht an."))


def tournament_members_q(user: Actor) -> Q:
    """Tournaments an account belongs to: as a member of the tournament or of its Verein."""
    uid = account_id(user)
    return Q(memberships__user_id=uid) | Q(verein__members__user_id=uid)


def verein_for_new(creator: Actor) -> Verein:
    """Where a tournament (or a register entry, a cup) made without naming a Verein goes:
    the creator's one Verein as organiser, else the installation's one Verein."""
    if creator is not None:
        mine = organiser_vereine(creator)
        if len(mine) == 1:
            return mine[0]
    return default_verein()
