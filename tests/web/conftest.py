"""Fixtures of the web tests: the accounts orga (organiser) and kasse (desk helper), a small
tournament with both competitions, the same seated, and the two-tournament world of the role
and fuzz tests (built once per session, tests/dbsnapshot.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from binokel_tournament.models import Role, Tournament
from binokel_tournament.services.evening.seating import generate_seating
from tests.dbsnapshot import Snapshot

from .support import build_world, make_tournament, member, organiser_account


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


@pytest.fixture(scope="session")
def world_snapshots(django_db_setup, django_db_blocker) -> dict[bool, Snapshot[dict]]:
    """build_world without and with the other tournament seated, each built once."""
    with django_db_blocker.unblock():
        return {seat: Snapshot.build(lambda seat=seat: build_world(seat)) for seat in (False, True)}
