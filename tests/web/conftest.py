from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from binokel_tournament.models import Membership, Mode, Role, Tournament
from binokel_tournament.services.access import CREATE_TOURNAMENT_PERMISSION
from binokel_tournament.services.registration import create_tournament, register_entrant
from binokel_tournament.services.seating import generate_seating


def organiser_account(username: str, password: str = "pw"):
    """An account as `manage.py organiser` makes it: it may create tournaments."""
    from django.contrib.auth.models import Permission

    user = get_user_model().objects.create_user(username, password=password)
    app_label, codename = CREATE_TOURNAMENT_PERMISSION.split(".")
    user.user_permissions.add(
        Permission.objects.get(content_type__app_label=app_label, codename=codename)
    )
    return user


def member(tournament: Tournament, user, role: str = Role.ORGANISER) -> Membership:
    return Membership.objects.create(tournament=tournament, user=user, role=role)


@pytest.fixture
def orga(db):
    """Organiser of the `tournament` fixture."""
    return organiser_account("orga")


@pytest.fixture
def kasse(db):
    """Desk helper of the `tournament` fixture."""
    return get_user_model().objects.create_user("kasse", password="pw")


@pytest.fixture
def desk_client(client, orga):
    client.force_login(orga)
    return client


def make_tournament(singles: int = 9, pairs: int = 4, **fields: object) -> Tournament:
    t = create_tournament("Testturnier", **fields)
    for i in range(singles):
        register_entrant(
            t.competitions.get(mode=Mode.SINGLES), f"Spieler {i + 1}", club=f"Verein {i % 3}"
        )
    for i in range(pairs):
        register_entrant(t.competitions.get(mode=Mode.PAIRS), f"Paar {i + 1} A", f"Paar {i + 1} B")
    return t


@pytest.fixture
def tournament(db, orga, kasse) -> Tournament:
    t = make_tournament()
    member(t, orga, Role.ORGANISER)
    member(t, kasse, Role.HELPER)
    return t


@pytest.fixture
def seated(tournament: Tournament) -> Tournament:
    for c in tournament.competitions.all():
        generate_seating(c)
    return tournament
