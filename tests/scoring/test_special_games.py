"""Durch aufgelegt and Bettel (docs/rules.md "Regional switches"), switched on per rule set with
their values."""

from __future__ import annotations

import dataclasses

import pytest

from scoring import (
    EJL,
    GameInput,
    GameKind,
    PartyInput,
    RuleSet,
    score_game,
    validate_game,
)

AUFGELEGT, BETTEL = GameKind.DURCH_AUFGELEGT, GameKind.BETTEL
# ejl with the 002 regional switches on (a hall that plays them)
REGIONAL = dataclasses.replace(EJL, name="ejl + 002", game_kinds=tuple(GameKind))


def special(kind, declarer, bid, *tricks, no_trick=False, revoked=(), rules=REGIONAL):
    parties = [PartyInput(tricks=t) for t in tricks]
    if no_trick:
        parties[declarer] = dataclasses.replace(parties[declarer], took_trick=False)
    game = GameInput(kind, declarer, bid, tuple(parties), tuple(revoked))
    return score_game(game, rules)


def test_the_kinds_are_one_enumeration_with_their_json_names():
    assert [kind.value for kind in GameKind] == [
        "played",
        "conceded",
        "durch",
        "aufgelegt",
        "bettel",
    ]
    assert [kind for kind in GameKind if kind.is_durch] == [GameKind.DURCH, AUFGELEGT]
    assert [kind for kind in GameKind if kind.is_special] == [GameKind.DURCH, AUFGELEGT, BETTEL]


def test_ejl_plays_neither_rule_14_forbids_special_forms_of_the_durch():
    game = GameInput(AUFGELEGT, 0, None, tuple(PartyInput(tricks=t) for t in (250, 0, 0)))
    assert [e.text("en") for e in validate_game(game)] == [
        "This rule set plays no Durch aufgelegt."
    ]
    bettel = dataclasses.replace(game, kind=BETTEL)
    first = validate_game(bettel)[0]
    assert (first.field, first.text()) == (
        "kind",
        "Nach diesem Regelwerk wird kein Bettel gespielt.",
    )


# --- Durch aufgelegt: "laid up ... 1,500 points" (docs/rules.md "Regional switches") ---------
def test_a_won_durch_aufgelegt_scores_1500_and_the_opponents_nothing():
    result = special(AUFGELEGT, 1, None, 0, 250, 0)
    assert (result.points, result.won) == ((0, 1500, 0), True)


def test_a_lost_durch_aufgelegt_costs_twice_the_bid():
    result = special(AUFGELEGT, 0, 300, 240, 10, 0)
    assert (result.points, result.won) == ((-600, 10, 0), False)


def test_a_lost_durch_aufgelegt_needs_the_bid():
    game = GameInput(AUFGELEGT, 0, None, tuple(PartyInput(tricks=t) for t in (240, 10, 0)))
    assert [(e.field, e.text("en")) for e in validate_game(game, REGIONAL)] == [
        ("bid", "A lost Durch costs 2 × the bid: enter the bid.")
    ]


def test_after_a_durch_aufgelegt_its_player_deals_next_too():
    assert REGIONAL.declarer_deals_next(AUFGELEGT)
    assert not REGIONAL.declarer_deals_next(BETTEL)


# --- Bettel / Untendurch: no trick; 500, 1000 or 1500 by region (docs/rules.md "Regional
# switches") ----------------------------------------------------------------------------------
def test_a_won_bettel_scores_its_value_and_the_opponents_nothing():
    # the declarer took no trick: the sheet marks it, the tricks hold the 4 pressed cards
    result = special(BETTEL, 0, None, 20, 130, 100, no_trick=True)
    assert (result.points, result.won) == ((1000, 0, 0), True)


@pytest.mark.parametrize("value", [500, 1000, 1500])
def test_the_bettel_is_worth_what_the_region_says(value):
    rules = dataclasses.replace(REGIONAL, bettel_won=value)
    assert special(BETTEL, 2, None, 120, 110, 20, no_trick=True, rules=rules).points == (
        0,
        0,
        value,
    )


def test_a_bettel_player_who_took_a_trick_loses_twice_the_bid():
    result = special(BETTEL, 0, 200, 40, 120, 90)
    assert (result.points, result.won) == ((-400, 120, 90), False)


def test_a_revoking_bettel_player_loses():
    assert special(BETTEL, 0, 200, 20, 130, 100, no_trick=True, revoked=[0]).won is False


def test_a_bettel_without_the_no_trick_mark_needs_the_bid_as_a_lost_one():
    game = GameInput(BETTEL, 0, None, tuple(PartyInput(tricks=t) for t in (40, 120, 90)))
    assert [(e.field, e.text("en")) for e in validate_game(game, REGIONAL)] == [
        ("bid", "A lost Bettel costs 2 × the bid: enter the bid.")
    ]


def test_a_bettel_has_no_melds():
    game = GameInput(BETTEL, 0, 200, (PartyInput(0, 40), PartyInput(20, 120), PartyInput(None, 90)))
    assert [(e.field, e.text("en")) for e in validate_game(game, REGIONAL)] == [
        ("parties[1].meld", "A Bettel has no melds: leave the meld empty.")
    ]


def test_the_bettel_at_a_pair_table():
    assert special(BETTEL, 1, None, 226, 24, no_trick=True).points == (0, 1000)


def test_special_game_values_are_rules():
    rules = dataclasses.replace(
        REGIONAL, durch_aufgelegt_won=2000, durch_aufgelegt_lost_factor=1, bettel_lost_factor=3
    )
    assert special(AUFGELEGT, 0, None, 250, 0, 0, rules=rules).points == (2000, 0, 0)
    assert special(AUFGELEGT, 0, 300, 200, 50, 0, rules=rules).points == (-300, 50, 0)
    assert special(BETTEL, 0, 200, 40, 120, 90, rules=rules).points == (-600, 120, 90)


def test_a_rule_set_that_plays_them_describes_them():
    lines = REGIONAL.describe("en")
    assert "Durch aufgelegt: +1500 when won, −2 × bid when lost." in lines
    assert "Bettel (the declarer takes no trick): +1000 when won, −2 × bid when lost." in lines
    assert not any(line.startswith(("Durch aufgelegt", "Bettel")) for line in EJL.describe("en"))


def test_the_kinds_a_rule_set_plays_round_trip_through_json():
    assert RuleSet.from_json(REGIONAL.to_json()) == REGIONAL
    assert REGIONAL.to_dict()["game_kinds"] == [kind.value for kind in GameKind]
