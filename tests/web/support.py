"""Helpers the web tests share: accounts as the commands make them, a small tournament, the
world of two tournaments the role and fuzz tests walk, and what a request could change."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from binokel_tournament.models import (
    AuditLog,
    Membership,
    Mode,
    PartyResult,
    Role,
    Seat,
    Tournament,
)
from binokel_tournament.services.access import CREATE_TOURNAMENT_PERMISSION
from binokel_tournament.services.evening.registration import create_tournament, register_entrant
from binokel_tournament.services.evening.seating import generate_seating
from binokel_tournament.services.server.backup import dump_tournament, to_bytes

ROLES = ["organiser", "helper", "outsider", "anonymous"]


def organiser_account(username: str, password: str = "pw") -> Any:
    """An account as `manage.py organiser` makes it: it may create tournaments."""
    from django.contrib.auth.models import Permission

    user = get_user_model().objects.create_user(username, password=password)
    app_label, codename = CREATE_TOURNAMENT_PERMISSION.split(".")
    user.user_permissions.add(
        Permission.objects.get(content_type__app_label=app_label, codename=codename)
    )
    return user


def member(tournament: Tournament, user: Any, role: str = Role.ORGANISER) -> Membership:
    return Membership.objects.create(tournament=tournament, user=user, role=role)


def make_tournament(singles: int = 9, pairs: int = 4, **fields: Any) -> Tournament:
    t = create_tournament("Testturnier", **fields)
    for i in range(singles):
        register_entrant(
            t.competitions.get(mode=Mode.SINGLES), f"Spieler {i + 1}", club=f"Verein {i % 3}"
        )
    for i in range(pairs):
        register_entrant(t.competitions.get(mode=Mode.PAIRS), f"Paar {i + 1} A", f"Paar {i + 1} B")
    return t


def build_world(seat_the_other: bool) -> dict[str, Any]:
    """The seated test tournament (orga organises, kasse helps, as the conftest's fixtures
    make them) and another tournament whose organiser, "fremd", is nobody in the first."""
    orga = organiser_account("orga")
    kasse = get_user_model().objects.create_user("kasse", password="pw")
    t = make_tournament()
    member(t, orga, Role.ORGANISER)
    member(t, kasse, Role.HELPER)
    for c in t.competitions.all():
        generate_seating(c)
    fremd = organiser_account("fremd")
    other = make_tournament(singles=3, pairs=0, modes=[Mode.SINGLES])
    member(other, fremd)
    if seat_the_other:
        generate_seating(other.competitions.get())
    return {"t": t, "organiser": orga, "helper": kasse, "outsider": fremd, "other": other}


def state(t: Tournament) -> tuple[bytes, int, int, int]:
    """Everything a request could change: the tournament as its backup, the audit rows, the
    memberships and the tournaments."""
    fresh = Tournament.objects.get(pk=t.pk)
    return (
        to_bytes(dump_tournament(fresh)),
        AuditLog.objects.count(),
        Membership.objects.count(),
        Tournament.objects.count(),
    )


def form_defaults() -> dict[str, object]:
    """What the browser posts for an untouched tournament form."""
    from binokel_tournament.forms import TournamentForm

    data: dict[str, object] = {"preset": "ejl", "public_pages": "on"}
    for name, field in TournamentForm().fields.items():
        if field.initial is True:
            data[name] = "on"
        elif field.initial not in (None, False):
            data[name] = field.initial
    return data


def empty_the_database() -> None:
    """What a second laptop has: no tournament, no account (the audit log stays: it outlives
    its tournaments, as a removed tournament's entries)."""
    PartyResult.objects.all().delete()  # results and seats protect their entrants
    Seat.objects.all().delete()
    Tournament.objects.all().delete()
    get_user_model().objects.all().delete()
    assert not AuditLog.objects.filter(tournament__isnull=False).exists()
