"""Fixtures for the exports: a realistic tournament made by the demo generator (13 Einzel so
that one table is a 4-table with a sitting-out dealer, 4 pairs, the first round scored from
really dealt hands) and a logged-in desk client (a member of the demo). The demo is built once
per test session and written back into each test that asks for it (tests/dbsnapshot.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from binokel_tournament.models import Tournament
from binokel_tournament.services.demo import create_demo
from tests.dbsnapshot import Snapshot


@pytest.fixture(scope="session")
def demo_snapshot(django_db_setup, django_db_blocker) -> Snapshot[Tournament]:
    with django_db_blocker.unblock():
        return Snapshot.build(lambda: create_demo(singles=13, pairs=4, scored_rounds=1)[0])


@pytest.fixture
def demo(db, demo_snapshot: Snapshot[Tournament]) -> Tournament:
    return demo_snapshot.restore()


@pytest.fixture
def desk_client(client, demo):
    """The demo's desk helper: printing and downloading is for every member."""
    client.force_login(get_user_model().objects.get(username="kasse"))
    return client
