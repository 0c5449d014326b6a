"""Two desks saving the same sheet at once, on PostgreSQL with two real connections: the second
waits for the first one's row lock, then gets a conflict — never a silent overwrite."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from binokel_tournament.models import ScoreSheet, TableKind
from binokel_tournament.services.sheets.operations import SheetConflict
from binokel_tournament.services.sheets.writer import save_sheet

from .sheets import full_three_table

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_desks_saving_one_sheet_at_once_get_one_conflict(seated, orga, kasse):
    assert connections["default"].vendor == "postgresql"
    table = seated.round_set.get(number=1).tables.filter(kind=TableKind.THREE).first()
    save_sheet(table, full_three_table(1), orga, expected_version=0)
    barrier = threading.Barrier(2)
    outcomes: dict[str, object] = {}

    def desk(name, user, games):
        try:
            barrier.wait(timeout=10)
            outcomes[name] = save_sheet(table, full_three_table(games), user, expected_version=1)
        except SheetConflict as exc:
            outcomes[name] = exc
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=desk, args=("a", orga, 2)),
        threading.Thread(target=desk, args=("b", kasse, 3)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    conflicts = [o for o in outcomes.values() if isinstance(o, SheetConflict)]
    assert len(outcomes) == 2 and len(conflicts) == 1
    sheet = ScoreSheet.objects.get(table=table)
    assert sheet.version == 2
    winner = "a" if conflicts[0] is outcomes["b"] else "b"
    expected_games = 2 if winner == "a" else 3
    assert len([k for k in sheet.entries if k.endswith("-kind")]) == expected_games
    assert conflicts[0].sheet.version == 2
