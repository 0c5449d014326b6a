"""Two desks saving the same sheet at once, on PostgreSQL with two real connections: the second
waits for the first one's row lock, then gets a conflict — never a silent overwrite."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from binokel_tournament.models import ScoreSheet, TableKind
from binokel_tournament.services.sheets.inputs import opened_text
from binokel_tournament.services.sheets.operations import SheetConflict
from binokel_tournament.services.sheets.writer import save_sheet

from .sheets import full_three_table, game_entries

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_desks_saving_one_sheet_at_once_get_one_conflict(seated, orga, kasse):
    """Both desks type game 2 from the same sheet (version 1), differently: the second waits
    for the first one's row lock and is refused with both versions; its game 3 is not half
    written either. (Desks typing the same values, or different games, do not conflict: the
    sheet's writer compares each game with the state it was typed from.)"""
    assert connections["default"].vendor == "postgresql"
    table = seated.round_set.get(number=1).tables.filter(kind=TableKind.THREE).first()
    save_sheet(table, full_three_table(1), orga, expected_version=0)
    barrier = threading.Barrier(2)
    outcomes: dict[str, object] = {}
    # the page says which state it was opened on, as the desk's form does: a desk whose
    # save comes second still compares with version 1, not with what the other just wrote
    opened = {"opened": opened_text(full_three_table(1))}
    typed = {
        "a": {
            **full_three_table(1),
            **game_entries(2, 1, 200, [60, 20, 0], [152, 58, 40]),
            **opened,
        },
        "b": {
            **full_three_table(1),
            **game_entries(2, 2, 210, [20, 60, 0], [58, 152, 40]),
            **game_entries(3, 1, 200, [60, 20, 0], [152, 58, 40]),
            **opened,
        },
    }

    def desk(name, user):
        try:
            barrier.wait(timeout=10)
            outcomes[name] = save_sheet(table, typed[name], user, expected_version=1)
        except SheetConflict as exc:
            outcomes[name] = exc
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=desk, args=("a", orga)),
        threading.Thread(target=desk, args=("b", kasse)),
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
    assert sheet.entries["g2-bid"] == typed[winner]["g2-bid"]
    games = 2 if winner == "a" else 3
    assert len([k for k in sheet.entries if k.endswith("-kind")]) == games  # nothing half
    refused = conflicts[0]
    assert refused.version == 2 and [c.number for c in refused.conflicts] == [2]
    loser = "b" if winner == "a" else "a"
    part = refused.conflicts[0]  # both versions of game 2, to compare and choose
    assert part.mine["g2-bid"] == typed[loser]["g2-bid"]
    assert part.theirs["g2-bid"] == typed[winner]["g2-bid"]
