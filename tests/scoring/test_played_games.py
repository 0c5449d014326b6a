"""Scoring a played game: winning on exact eyes, rounding, rule 13, revokes, pair tables."""

from __future__ import annotations

import dataclasses

import pytest

from scoring import EJL, GameInput, GameKind, PartyInput, RuleSet, ScoringError, score_game
from scoring.engine import round10


def played(declarer, bid, *parties, revoked=(), took_trick=None, rules=EJL):
    party_inputs = [PartyInput(meld=m, tricks=t) for m, t in parties]
    if took_trick is not None:
        party_inputs[declarer] = dataclasses.replace(party_inputs[declarer], took_trick=took_trick)
    game = GameInput(GameKind.PLAYED, declarer, bid, tuple(party_inputs), tuple(revoked))
    return score_game(game, rules)


@pytest.mark.parametrize(
    ("eyes", "rounded"),
    [(0, 0), (4, 0), (5, 10), (74, 70), (75, 80), (145, 150), (144, 140), (250, 250)],
)
def test_tricks_round_to_the_nearest_ten_with_five_rounding_up(eyes, rounded):
    assert round10(eyes) == rounded


def test_declarer_wins_when_meld_plus_exact_eyes_reach_the_bid_exactly():
    result = played(0, 200, (60, 140), (20, 60), (0, 50))
    assert result.won is True
    assert result.points == (200, 80, 50)


def test_declarer_one_eye_short_loses_twice_the_bid():
    result = played(0, 200, (60, 139), (20, 61), (0, 50))
    assert result.won is False
    assert result.points[0] == -400


def test_winning_declarer_scores_meld_plus_rounded_tricks_even_far_above_the_bid():
    assert played(1, 150, (0, 25), (300, 205), (0, 20)).points == (30, 510, 20)


def test_opponents_score_meld_plus_tricks_whether_the_declarer_wins_or_loses():
    won = played(0, 150, (0, 200), (40, 26), (20, 24))
    lost = played(0, 250, (0, 200), (40, 26), (20, 24))
    assert won.points[1:] == lost.points[1:] == (70, 40)


def test_opponent_without_a_trick_loses_its_meld():
    assert played(0, 150, (20, 200), (100, 0), (40, 50)).points == (220, 0, 90)


def test_declarer_marked_without_trick_loses_meld_and_keeps_only_the_pressed_cards():
    # 300 meld + 30 pressed eyes would reach 300, but without a trick the meld is gone.
    result = played(0, 300, (300, 30), (40, 120), (20, 100), took_trick=False)
    assert result.won is False
    assert result.points == (-600, 160, 120)


def test_declarer_marked_as_having_taken_a_trick_keeps_the_meld():
    result = played(0, 300, (300, 30), (40, 120), (20, 100), took_trick=True)
    assert result.won is True
    assert result.points[0] == 330


def test_declarer_always_holds_the_pressed_cards_so_0_eyes_is_no_game_to_score():
    with pytest.raises(ScoringError) as info:
        played(0, 150, (200, 0), (40, 120), (20, 130))
    assert [e.field for e in info.value.errors] == ["parties[0].tricks"]


def test_declarer_with_only_the_pressed_cards_loses_the_meld_and_the_game():
    result = played(0, 150, (200, 8), (40, 120), (20, 122), took_trick=False)
    assert result.won is False
    assert result.points == (-300, 160, 140)


def test_melds_count_without_a_trick_when_the_rule_set_says_so():
    rules = RuleSet(meld_needs_trick=False)
    assert played(0, 150, (20, 200), (100, 0), (40, 50), rules=rules).points == (220, 100, 90)


def test_revoking_declarer_loses_even_with_enough_points():
    result = played(0, 150, (100, 200), (0, 30), (0, 20), revoked=[0])
    assert result.won is False
    assert result.points == (-300, 30, 20)


def test_revoking_opponent_keeps_its_meld_but_its_tricks_count_zero():
    assert played(0, 150, (0, 150), (60, 70), (20, 30), revoked=[1]).points == (150, 60, 50)


def test_revoking_opponent_that_took_no_trick_also_loses_its_meld():
    assert played(0, 150, (0, 200), (60, 0), (20, 50), revoked=[1]).points == (200, 0, 70)


def test_declarer_and_opponent_both_revoking():
    assert played(0, 150, (100, 150), (60, 70), (20, 30), revoked=[0, 1]).points == (
        -300,
        60,
        50,
    )


def test_pair_table_pair_that_took_no_trick_loses_its_meld():
    assert played(0, 200, (100, 250), (80, 0)).points == (350, 0)


def test_pair_table_lost_game_costs_twice_the_bid():
    assert played(1, 300, (40, 130), (120, 120)).points == (170, -600)


def test_exact_trick_counting_without_rounding():
    rules = RuleSet(trick_rounding="none")
    assert played(0, 200, (60, 152), (20, 58), (0, 40), rules=rules).points == (212, 78, 40)


def test_lost_factor_is_a_rule():
    rules = RuleSet(lost_factor=3)
    assert played(0, 200, (0, 100), (0, 100), (0, 50), rules=rules).points[0] == -600
