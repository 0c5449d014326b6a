from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from binokel_tournament.models import Mode, Tournament
from binokel_tournament.services.registration import create_tournament, register_entrant
from binokel_tournament.services.seating import generate_seating


@pytest.fixture
def orga(db):
    return get_user_model().objects.create_user("orga", password="pw")


@pytest.fixture
def kasse(db):
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
def tournament(db) -> Tournament:
    return make_tournament()


@pytest.fixture
def seated(tournament: Tournament) -> Tournament:
    for c in tournament.competitions.all():
        generate_seating(c)
    return tournament
