"""A save writes only the games that changed, and what is stored is always the whole sheet as
scored: unchanged games keep their rows, a changed game is replaced, a game that a Durch moves
to another dealer is rewritten, a removed game is gone, and the points stay those the engine
gives (``manage.py verify``'s check)."""

from __future__ import annotations

import pytest

from binokel_tournament.models import Game, PartyResult, TableKind
from binokel_tournament.services.server.integrity import rescore_mismatches
from binokel_tournament.services.sheets.writer import save_sheet

from .sheets import full_three_table, game_entries

pytestmark = pytest.mark.django_db


def stored(table) -> dict[int, tuple[int, int, list[int]]]:
    """Game number -> (row id, dealer, points in column order) as stored."""
    out = {}
    for game in Game.objects.filter(sheet__table=table).order_by("number"):
        points = list(
            PartyResult.objects.filter(game=game)
            .order_by("entrant__start_number")
            .values_list("points", flat=True)
        )
        out[game.number] = (game.pk, game.dealer, points)
    return out


def rows_of(outcome) -> dict[int, tuple[int, list[int]]]:
    """Game number -> (dealer, points by start number) as the engine scored the sheet."""
    columns = outcome.evaluation.layout.columns
    order = sorted(columns, key=lambda c: c.entrant.start_number)
    return {
        row.number: (row.dealer, [row.points[c.number] for c in order])
        for row in outcome.evaluation.rows
        if row.points is not None
    }


def test_only_changed_games_are_rewritten_and_the_stored_sheet_is_always_whole(seated, orga):
    table = seated.round_set.get(number=1).tables.filter(kind=TableKind.THREE).first()
    entries = full_three_table()
    first = save_sheet(table, entries, orga, expected_version=0)
    before = stored(table)
    assert {n: (d, p) for n, (_pk, d, p) in before.items()} == rows_of(first)

    # game 3 played differently: only game 3 gets a new row
    entries.update(game_entries(3, 2, 250, [40, 100, 20], [65, 143, 42]))
    second = save_sheet(table, entries, orga, expected_version=1)
    after = stored(table)
    assert {n for n in after if after[n][0] != before[n][0]} == {3}
    assert {n: (d, p) for n, (_pk, d, p) in after.items()} == rows_of(second)

    # a Durch in game 1 moves the deal: every game whose dealer changed is rewritten
    entries = {k: v for k, v in entries.items() if not k.startswith("g1-")}
    entries.update(game_entries(1, 3, 200, None, [0, 0, 250], kind="durch"))
    third = save_sheet(table, entries, orga, expected_version=2)
    moved = stored(table)
    assert third.evaluation.valid
    assert {n: (d, p) for n, (_pk, d, p) in moved.items()} == rows_of(third)
    assert moved[2][1] == 3 and moved[2][0] != after[2][0]

    # a removed game is gone; confirming the same entries writes no game at all
    entries = {k: v for k, v in entries.items() if not k.startswith("g12-")}
    save_sheet(table, entries, orga, expected_version=3)
    trimmed = stored(table)
    assert sorted(trimmed) == list(range(1, 12))
    save_sheet(table, entries, orga, expected_version=4, confirm=True)
    assert stored(table) == trimmed
    assert rescore_mismatches(seated) == []
