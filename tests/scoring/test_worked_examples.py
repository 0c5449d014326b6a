"""Every worked example of docs/rules.md, scored by the ejl preset."""

from __future__ import annotations

import pytest

from scoring import GameInput, GameKind, PartyInput, score_game

A, B, C = 0, 1, 2

# (kind, declarer, bid, [(meld, tricks) per party], revoked, expected points)
THREE_TABLE_ROWS = {
    "1 played, A wins 200": ("played", A, 200, [(60, 152), (20, 58), (0, 40)], (), (210, 80, 40)),
    "2 played, B loses 250": (
        "played",
        B,
        250,
        [(40, 65), (100, 143), (20, 42)],
        (),
        (110, -500, 60),
    ),
    "3 played, exact eyes decide (226 < 230)": (
        "played",
        A,
        230,
        [(80, 146), (0, 54), (40, 50)],
        (),
        (-460, 50, 90),
    ),
    "4 played, A took no trick and loses its meld": (
        "played",
        C,
        180,
        [(60, 0), (20, 75), (40, 175)],
        (),
        (0, 100, 220),
    ),
    "5 conceded by A at 170": (
        "conceded",
        A,
        170,
        [(None, None), (40, None), (0, None)],
        (),
        (-170, 130, 90),
    ),
    "6 durch won by B": ("durch", B, None, [(None, 0), (None, 250), (None, 0)], (), (0, 1000, 0)),
    "7 A revoked as declarer": (
        "played",
        A,
        150,
        [(100, 120), (0, 80), (20, 50)],
        (A,),
        (-300, 80, 70),
    ),
    "8 B revoked as opponent": (
        "played",
        A,
        200,
        [(40, 170), (60, 50), (0, 30)],
        (B,),
        (210, 60, 30),
    ),
}


def _game(kind, declarer, bid, parties, revoked):
    return GameInput(
        kind=GameKind(kind),
        declarer=declarer,
        bid=bid,
        parties=tuple(PartyInput(meld=m, tricks=t) for m, t in parties),
        revoked=tuple(revoked),
    )


@pytest.mark.parametrize("row", THREE_TABLE_ROWS.values(), ids=THREE_TABLE_ROWS.keys())
def test_three_table_example_scores_as_rules_md_says(row):
    kind, declarer, bid, parties, revoked, expected = row
    assert score_game(_game(kind, declarer, bid, parties, revoked)).points == expected


def test_example_3_is_lost_although_rounded_eyes_would_reach_the_bid():
    result = score_game(_game("played", A, 230, [(80, 146), (0, 54), (40, 50)], ()))
    assert 80 + 150 >= 230  # rounded, it would have been won
    assert result.won is False


def test_pair_table_declaring_pair_wins_250_with_meld_140_and_tricks_160():
    result = score_game(_game("played", 0, 250, [(140, 160), (20, 90)], ()))
    assert result.points == (300, 110)
    assert result.won is True


def test_pair_table_conceded_210_gives_the_other_pair_half_the_bid_plus_meld():
    result = score_game(_game("conceded", 0, 210, [(None, None), (60, None)], ()))
    assert result.points == (-210, 170)
    assert result.won is False
