"""The regional variants (docs/rules.md "Regional switches") as fields an organiser sets on top of
any preset, with the article's own examples."""

from __future__ import annotations

import dataclasses

import pytest

from scoring import (
    EJL,
    PRESETS,
    GameInput,
    GameKind,
    MeldCounts,
    PartyInput,
    RuleSet,
    ScoringError,
    Suit,
    SuitMeld,
    full_deck,
    get_preset,
    hand_meld_total,
    hand_melds,
    meld_total,
    score_game,
    validate_game,
)
from tests.scoring.card_labels import hand

RUNDLAUF = "♥K ♥O ♦K ♦O ♣K ♣O ♠K ♠O"


def played(rules, declarer, bid, *parties, kind=GameKind.PLAYED):
    game = GameInput(kind, declarer, bid, tuple(PartyInput(meld=m, tricks=t) for m, t in parties))
    return score_game(game, rules)


# --- melds -------------------------------------------------------------------------------------
def test_the_rundlauf_is_the_sum_of_what_it_is_made_of():
    # "four kings give 80, four upper give 60 and the trump pair and the three other pairs give
    # 100" -- and with a Familie it counts only 200, its Paar being in the Familie
    assert meld_total(MeldCounts(vier_koenige=1, vier_ober=1, trump_paar=1, paar=3)) == 240
    assert hand_meld_total(hand(RUNDLAUF), Suit.HERZ) == 240
    assert hand_meld_total(hand(RUNDLAUF + " ♥A ♥10 ♥U"), Suit.HERZ) == 200 + 150


def test_in_another_version_the_rundlauf_always_gives_250():
    flat = dataclasses.replace(EJL, rundlauf_value=250, rundlauf_with_familie_value=250)
    assert hand_meld_total(hand(RUNDLAUF), Suit.HERZ, flat) == 250
    assert hand_meld_total(hand(RUNDLAUF + " ♥A ♥10 ♥U"), Suit.HERZ, flat) == 250 + 150


def test_two_single_binokel_give_less_than_the_doppelbinokel():
    assert 2 * EJL.binokel_value == 80 < EJL.doppelbinokel_value == 300
    assert hand_meld_total(hand("♦U ♦U ♠O ♠O"), Suit.HERZ) == 300


def test_the_trump_seven_diss_counts_10_where_sevens_are_played():
    # 48 cards: 14 each at a 3-table and a Dabb of 6 (docs/rules.md "Regional switches")
    rules = dataclasses.replace(
        EJL,
        sevens=True,
        hand_cards=(("three", 14), ("pairs", 11)),
        suit_melds=(*EJL.suit_melds, SuitMeld.of("diss", "7", 0, 10)),
    )
    assert len(full_deck(rules)) == 48 and rules.dabb_size(3) == 6
    assert hand_meld_total(hand("♥7 ♥7 ♣7"), Suit.HERZ, rules) == 20
    assert hand_meld_total(hand("♥7 ♥7 ♣7"), Suit.KREUZ, rules) == 10
    assert hand_meld_total(hand("♥7 ♥7 ♣7"), Suit.HERZ) == 0
    assert hand_melds(hand("♥7 ♣7"), Suit.HERZ, rules) == MeldCounts(trump_diss=1)


# --- the lost game -----------------------------------------------------------------------------
def test_lost_twice_the_bid_or_the_bid_plus_100_with_the_melds_forfeited():
    example_2 = (1, 250, (40, 65), (100, 143), (20, 42))
    assert played(EJL, *example_2).points == (110, -500, 60)
    plus_100 = dataclasses.replace(EJL, lost_factor=1, lost_extra=100)
    assert played(plus_100, *example_2).points == (110, -350, 60)
    assert "Lost game: −(1 × bid + 100); the melds are forfeited." in plus_100.describe("en")


def test_lost_once_the_bid():
    once = dataclasses.replace(EJL, lost_factor=1)
    assert played(once, 1, 250, (40, 65), (100, 143), (20, 42)).points == (110, -250, 60)


# --- going out (conceding) ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("mode", "parties", "expected"),
    [
        # ejl rule 6: half the bid, rounded up to 10
        ("half_bid", [(None, None), (40, None), (0, None)], (-170, 130, 90)),
        # docs/rules.md "Regional switches": "10 points are added for each player (40 with 4
        # players)"
        ("per_player", [(None, None), (40, None), (0, None)], (-170, 70, 30)),
        ("per_player", [(None, None), (40, None)], (-170, 80)),
        # docs/rules.md "dabb": "all opponents get their melds + 40 bonus points each"
        ("per_opponent", [(None, None), (40, None), (0, None)], (-170, 80, 40)),
        ("per_opponent", [(None, None), (40, None)], (-170, 80)),
    ],
)
def test_conceded_modes(mode, parties, expected):
    rules = dataclasses.replace(EJL, conceded_opponent_mode=mode)
    assert played(rules, 0, 170, *parties, kind=GameKind.CONCEDED).points == expected


# --- counting variants ---------------------------------------------------------------------------
VARIANTS = {
    "usual": {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2, "7": 0},
    "A 10 K": {"A": 10, "10": 10, "K": 10, "O": 0, "U": 0, "7": 0},
    "A 10 K O": {"A": 10, "10": 10, "K": 5, "O": 5, "U": 0, "7": 0},
    "A 10": {"A": 15, "10": 15, "K": 0, "O": 0, "U": 0, "7": 0},
}


@pytest.mark.parametrize("name", VARIANTS)
def test_every_counting_variant_still_makes_250_eyes(name):
    # "With the 10 eyes for the last stitch, however, there are always 250 eyes."
    rules = dataclasses.replace(EJL, card_eyes=tuple(VARIANTS[name].items()))
    assert rules.total_eyes == 250
    assert RuleSet.from_json(rules.to_json()) == rules


def test_with_a_counting_variant_a_trick_may_hold_no_eyes():
    rules = dataclasses.replace(EJL, card_eyes=tuple(VARIANTS["A 10"].items()))
    assert rules.trick_min_eyes(3) == 0 and rules.pressed_eyes(3) == (0, 60)
    # the declarer pressed nothing of worth, an opponent took only Unter and Ober
    game = GameInput(
        GameKind.PLAYED,
        0,
        150,
        (PartyInput(100, 150), PartyInput(20, 0, True), PartyInput(0, 100)),
    )
    assert validate_game(game, rules) == []
    assert score_game(game, rules).points == (250, 20, 100)
    assert "Eyes: A 15, 10 15, K 0, O 0, U 0; last trick 10." in rules.describe("en")


def test_card_eyes_are_checked():
    with pytest.raises(ScoringError) as info:
        RuleSet.from_dict({"card_eyes": {"A": -1, "B": 3}})
    assert {e.field: e.text("en") for e in info.value.errors} == {
        "card_eyes.A": "Must be at least 0 (now -1).",
        "card_eyes.B": 'Unknown rank "B"; use A, 10, K, O, U or 7.',
    }


def test_the_switches_sit_on_top_of_any_preset():
    regional = {
        "game_kinds": ["played", "conceded", "durch", "aufgelegt", "bettel"],
        "bettel_won": 500,
        "rundlauf_value": 250,
        "rundlauf_with_familie_value": 250,
        "lost_factor": 1,
        "lost_extra": 100,
        "trick_rounding": "none",
    }
    for name in PRESETS:
        base = get_preset(name).to_dict()
        rules = RuleSet.from_dict({**base, **regional})
        assert rules.plays(GameKind.BETTEL) and rules.bettel_won == 500
        assert (rules.lost_factor, rules.lost_extra) == (1, 100)
        assert RuleSet.from_json(rules.to_json()) == rules
        # a won Bettel scores its value wherever it is switched on
        tricks = [rules.pressed_eyes(3)[0], rules.total_eyes - rules.pressed_eyes(3)[0], 0]
        bettel = GameInput(
            GameKind.BETTEL,
            0,
            None,
            (
                PartyInput(tricks=tricks[0], took_trick=False),
                *map(lambda t: PartyInput(tricks=t), tricks[1:]),
            ),
        )
        assert score_game(bettel, rules).points == (500, 0, 0), name
