"""Scoring a conceded game (Abschreiben, rule 6)."""

from __future__ import annotations

import pytest

from scoring import EJL, GameInput, GameKind, PartyInput, RuleSet, get_preset, score_game
from scoring.engine import half_bid


def conceded(declarer, bid, *melds, rules=EJL):
    parties = tuple(PartyInput(meld=m) for m in melds)
    return score_game(GameInput(GameKind.CONCEDED, declarer, bid, parties), rules)


@pytest.mark.parametrize(
    ("bid", "half"), [(150, 80), (160, 80), (170, 90), (200, 100), (210, 110), (250, 130)]
)
def test_half_the_bid_is_rounded_up_to_ten(bid, half):
    assert half_bid(bid) == half


def test_declarer_loses_the_bid_once_and_opponents_get_half_the_bid_plus_meld():
    result = conceded(1, 200, 40, None, 0)
    assert result.points == (140, -200, 100)
    assert result.won is False


def test_the_declarers_own_meld_does_not_count_when_conceding():
    assert conceded(0, 150, 100, 20, 0).points == (-150, 100, 80)


def test_conceded_opponents_keep_their_meld_although_no_trick_is_played():
    # rule 13 needs a trick only in a played game: nobody takes a trick when conceding
    assert conceded(0, 150, None, 60, 0).points[1] == 140


def test_declarer_factor_is_a_rule():
    assert conceded(0, 200, None, 0, 0, rules=RuleSet(conceded_declarer_factor=2)).points[0] == (
        -400
    )


def test_klassisch_gives_each_opponent_its_meld_plus_30_at_a_three_table():
    result = conceded(0, 200, None, 40, 0, rules=get_preset("klassisch"))
    assert result.points == (-200, 70, 30)


def test_klassisch_gives_the_other_pair_its_meld_plus_40_at_a_pair_table():
    result = conceded(1, 200, 60, None, rules=get_preset("klassisch"))
    assert result.points == (100, -200)


def test_per_player_bonus_is_a_rule():
    rules = RuleSet(conceded_opponent_mode="per_player", conceded_bonus_per_player=20)
    assert conceded(2, 300, 0, 0, None, rules=rules).points == (60, 60, -300)
