"""Scoring a Durch (rule 14): all tricks or nothing, no melds, no trump."""

from __future__ import annotations

import dataclasses

from scoring import (
    EJL,
    GameInput,
    GameKind,
    PartyInput,
    RuleSet,
    get_preset,
    score_game,
    validate_game,
)


def durch(declarer, bid, *tricks, revoked=(), rules=EJL):
    parties = tuple(PartyInput(tricks=t) for t in tricks)
    return score_game(GameInput(GameKind.DURCH, declarer, bid, parties, tuple(revoked)), rules)


def test_won_durch_scores_1000_and_the_opponents_nothing():
    result = durch(2, None, 0, 0, 250)
    assert result.points == (0, 0, 1000)
    assert result.won is True


def test_won_durch_with_a_bid_entered_still_scores_1000():
    assert durch(0, 300, 250, 0, 0).points == (1000, 0, 0)


def test_lost_durch_costs_twice_the_bid_and_opponents_score_their_rounded_tricks():
    result = durch(0, 400, 226, 16, 8)
    assert result.won is False
    assert result.points == (-800, 20, 10)


def test_revoking_durch_player_loses_even_with_every_trick():
    assert durch(0, 300, 250, 0, 0, revoked=[0]).points == (-600, 0, 0)


def test_revoking_opponent_in_a_lost_durch_scores_no_tricks():
    assert durch(0, 300, 200, 50, 0, revoked=[1]).points == (-600, 0, 0)


def test_pair_table_durch():
    assert durch(1, None, 0, 250).points == (0, 1000)
    assert durch(1, 350, 30, 220).points == (30, -700)


def test_durch_values_are_rules():
    rules = RuleSet(durch_won=500, durch_lost_factor=1)
    assert durch(0, None, 250, 0, 0, rules=rules).points == (500, 0, 0)
    assert durch(0, 300, 240, 10, 0, rules=rules).points == (-300, 10, 0)


def test_half_the_bid_for_the_opponents_of_a_lost_game_applies_to_a_lost_durch_too():
    # preisbinokel itself plays no Durch (docs/rules.md "preisbinokel"); a hall that plays one with
    # preisbinokel's lost-game rule gives the opponents half the bid here too
    rules = dataclasses.replace(
        get_preset("preisbinokel"), game_kinds=(GameKind.PLAYED, GameKind.DURCH)
    )
    assert durch(0, 300, 240, 10, 0, rules=rules).points == (-600, 160, 150)


def test_preisbinokel_refuses_a_durch_with_a_clear_message():
    game = GameInput(GameKind.DURCH, 0, None, tuple(PartyInput(tricks=t) for t in (250, 0, 0)))
    errors = validate_game(game, get_preset("preisbinokel"))
    assert [(e.field, e.text("en")) for e in errors] == [("kind", "This rule set plays no Durch.")]
    assert errors[0].text() == "Nach diesem Regelwerk wird kein Durch gespielt."
    assert validate_game(game) == []
