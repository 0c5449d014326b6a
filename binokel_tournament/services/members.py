"""The members of a tournament, managed by its organisers: add an account (a new one with its
own password, or an existing one), change a role, remove a member, unlock a locked login.
A tournament always keeps at least one organiser."""

from __future__ import annotations

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Membership, Role, Tournament
from .access import Action, Actor, require
from .audit import log_action
from .errors import DeskError

DEMO_PASSWORD = "binokel"  # the demo accounts' password, printed by `make run`
DEMO_PASSWORDS = (DEMO_PASSWORD,)  # published in the demo: never accepted as a real password


def check_new_password(password: str, user: AbstractBaseUser | None = None) -> None:
    """Django's password validators, and never a published demo password."""
    if password in DEMO_PASSWORDS:
        raise DeskError(
            _("Dieses Passwort ist das veröffentlichte Demo-Passwort; bitte ein eigenes wählen."),
            "password",
        )
    try:
        # the stubs ask for auth.User; Django's validators take any account
        password_validation.validate_password(password, user)  # type: ignore[arg-type]
    except ValidationError as exc:
        raise DeskError(" ".join(exc.messages), "password") from exc


def _snapshot(member: Membership) -> dict[str, str]:
    return {"user": member.user.get_username(), "role": member.role}


def add_member(
    tournament: Tournament, username: str, role: str, by: Actor, password: str = ""
) -> Membership:
    """Make an account a member. An unknown username is created as a new account, which then
    needs a password; an existing account keeps its password."""
    require(by, tournament, Action.MEMBERS)
    if role not in Role.values:
        raise DeskError(_("Unbekannte Rolle."), "role")
    User = get_user_model()
    username = username.strip()
    try:
        User.username_validator(username)
    except ValidationError as exc:
        raise DeskError(" ".join(exc.messages), "username") from exc
    if not username or len(username) > 150:
        raise DeskError(
            _("Bitte einen Benutzernamen (höchstens 150 Zeichen) eingeben."), "username"
        )
    with transaction.atomic():
        user = User.objects.filter(username=username).first()
        created = user is None
        if user is None:
            if not password:
                raise DeskError(
                    _("Ein neues Konto braucht ein Passwort (mindestens 8 Zeichen)."), "password"
                )
            user = User(username=username)
            check_new_password(password, user)
            user.set_password(password)
            user.save()
        elif password:
            raise DeskError(
                _(
                    "Das Konto %(user)s gibt es schon; sein Passwort ändert nur es selbst "
                    "(oder die Verwaltung). Passwortfeld bitte leer lassen."
                )
                % {"user": username},
                "password",
            )
        if Membership.objects.filter(tournament=tournament, user=user).exists():
            raise DeskError(
                _("%(user)s ist schon Mitglied dieses Turniers.") % {"user": username}, "username"
            )
        member = Membership.objects.create(tournament=tournament, user=user, role=role)
        log_action(
            tournament,
            by,
            "member.add",
            member,
            after={**_snapshot(member), "new_account": created},
        )
    return member


def _keeps_an_organiser(member: Membership, new_role: str | None) -> None:
    if member.role != Role.ORGANISER or new_role == Role.ORGANISER:
        return
    others = (
        Membership.objects.filter(tournament=member.tournament, role=Role.ORGANISER)
        .exclude(pk=member.pk)
        .exists()
    )
    if not others:
        raise DeskError(_("Ein Turnier braucht mindestens eine Turnierleitung."))


def change_role(member: Membership, role: str, by: Actor) -> Membership:
    require(by, member.tournament, Action.MEMBERS)
    if role not in Role.values:
        raise DeskError(_("Unbekannte Rolle."), "role")
    if role == member.role:
        return member
    with transaction.atomic():
        member = Membership.objects.select_for_update().get(pk=member.pk)
        _keeps_an_organiser(member, role)
        before = _snapshot(member)
        member.role = role
        member.save(update_fields=["role"])
        log_action(member.tournament, by, "member.role", member, before, _snapshot(member))
    return member


def remove_member(member: Membership, by: Actor) -> None:
    require(by, member.tournament, Action.MEMBERS)
    with transaction.atomic():
        member = Membership.objects.select_for_update().get(pk=member.pk)
        _keeps_an_organiser(member, None)
        log_action(member.tournament, by, "member.remove", member, _snapshot(member))
        member.delete()


def unlock_login(tournament: Tournament, username: str, by: Actor) -> int:
    """Lift a login lock-out (django-axes) of one of the tournament's members; returns how many
    failed attempts were forgotten."""
    from axes.utils import reset

    require(by, tournament, Action.MEMBERS)
    member = (
        Membership.objects.filter(tournament=tournament, user__username=username)
        .select_related("user")
        .first()
    )
    if member is None:
        raise DeskError(_("%(user)s ist nicht Mitglied dieses Turniers.") % {"user": username})
    count = reset(username=username)
    log_action(tournament, by, "login.unlock", member.user, after={"user": username})
    return count
