"""Luxusfamilie (docs/rules.md "luxusfamilie"): its deck, its meld table, Machtpunkte scaled to
Stichpunkte, the Farbkarten minus points and the Spielmacher who misses his bid -- the source's
examples as tests."""

from __future__ import annotations

import dataclasses
import json

import pytest

from scoring import (
    GameInput,
    GameKind,
    MeldCounts,
    PartyInput,
    ScoringError,
    Suit,
    achievable_pair_totals,
    achievable_totals,
    full_deck,
    get_preset,
    hand_meld_total,
    hand_melds,
    read_game,
    score_game,
    validate_game,
)
from tests.scoring.card_labels import hand

LUXUS = get_preset("luxusfamilie")
HERZ, KREUZ = Suit.HERZ, Suit.KREUZ


def game(declarer, bid, *parties, penalties=None):
    penalties = penalties or [None] * len(parties)
    return GameInput(
        GameKind.PLAYED,
        declarer,
        bid,
        tuple(
            PartyInput(meld=m, tricks=t, penalty=p)
            for (m, t), p in zip(parties, penalties, strict=True)
        ),
    )


# --- 1. Spielvorbereitung ------------------------------------------------------------------------
def test_three_players_16_cards_each_from_48_no_dabb():
    deck = full_deck(LUXUS)
    assert len(deck) == 48 and {card.rank.value for card in deck} == {"A", "10", "K", "O", "U", "7"}
    assert LUXUS.hand_size(3) == 16 and LUXUS.dabb_size(3) == 0
    assert LUXUS.pair_hand_cards is None and LUXUS.table_kinds == ("three", "four_sitout")


def test_it_is_always_played_by_three():
    pair = game(0, 200, (40, 120), (20, 120))
    assert [(e.field, e.text("en")) for e in validate_game(pair, LUXUS)] == [
        ("parties", "This rule set has no pair tables.")
    ]
    assert achievable_pair_totals(LUXUS) == frozenset()


# --- 3. Das Melden -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cards", "trump", "total"),
    [
        ("♥7", HERZ, 10),  # Die Sieben in der Trumpffarbe
        ("♥7 ♥7", HERZ, 20),
        ("♥7", KREUZ, 0),
        ("♥K ♥O", KREUZ, 20),  # Ein Paar
        ("♥K ♥O ♥K ♥O", KREUZ, 60),
        ("♥K ♥O", HERZ, 30),  # Ein Paar in der Trumpffarbe
        ("♥K ♥O ♥K ♥O", HERZ, 90),
        ("♥K ♥O ♥U", KREUZ, 40),  # Eine Familie
        ("♥K ♥O ♥U ♥K ♥O ♥U", KREUZ, 160),
        ("♥K ♥O ♥U", HERZ, 60),
        ("♥K ♥O ♥U ♥K ♥O ♥U", HERZ, 240),
        ("♥A ♥10 ♥K ♥O ♥U", KREUZ, 100),  # Eine Luxusfamilie
        ("♥A ♥10 ♥K ♥O ♥U ♥A ♥10 ♥K ♥O ♥U", KREUZ, 1000),
        ("♥A ♥10 ♥K ♥O ♥U", HERZ, 150),
        ("♥A ♥10 ♥K ♥O ♥U ♥A ♥10 ♥K ♥O ♥U", HERZ, 1500),
        ("♥K ♦K ♣K ♠K", HERZ, 40),  # Vier Könige
        ("♥K ♦K ♣K ♠K ♥K ♦K ♣K ♠K", HERZ, 240 + 0),
        ("♥O ♦O ♣O ♠O", HERZ, 60),  # Vier Damen
        ("♥O ♦O ♣O ♠O ♥O ♦O ♣O ♠O", HERZ, 360),
        ("♥U ♦U ♣U ♠U", HERZ, 80),  # Vier Buben
        ("♥U ♦U ♣U ♠U ♥U ♦U ♣U ♠U", HERZ, 480),
    ],
)
def test_the_table_of_single_and_double_values(cards, trump, total):
    assert hand_meld_total(hand(cards), trump, LUXUS) == total


@pytest.mark.parametrize(
    ("cards", "plain", "trump"),
    [
        # "Bei einer Familie mit doppeltem Paar zählt das zweite Paar dreifach (100 bzw. 150)"
        ("♥K ♥O ♥U ♥K ♥O", 100, 150),
        # "Bei einer Luxusfamilie mit doppeltem Paar ... fünffach (200 bzw. 300)"
        ("♥A ♥10 ♥K ♥O ♥U ♥K ♥O", 200, 300),
        # "Bei einer Luxusfamilie mit doppelter Familie ... fünffach (300 bzw. 450)"
        ("♥A ♥10 ♥K ♥O ♥U ♥K ♥O ♥U", 300, 450),
    ],
)
def test_the_three_combinations(cards, plain, trump):
    assert hand_meld_total(hand(cards), KREUZ, LUXUS) == plain
    assert hand_meld_total(hand(cards), HERZ, LUXUS) == trump


def test_a_suit_shows_one_combination_and_other_kinds_of_meld_besides():
    cards = hand("♥A ♥10 ♥K ♥O ♥U ♥K ♥O ♦K ♣K ♠K ♥7")
    assert hand_melds(cards, HERZ, LUXUS) == MeldCounts(
        trump_luxusfamilie_doppelpaar=1, vier_koenige=1, trump_diss=1
    )
    assert hand_meld_total(cards, HERZ, LUXUS) == 300 + 40 + 10


def test_the_meld_sets_of_16_card_hands_are_luxusfamilies_own():
    totals = achievable_totals(16, LUXUS)
    assert max(totals) == 1980 and totals != achievable_totals(12)
    # the trump seven makes odd tens possible
    assert 10 in totals and 10 not in achievable_totals(12)


# --- 5. Ermittlung der Gesamtpunktzahl ------------------------------------------------------------
@pytest.mark.parametrize(
    ("macht", "stich"),
    [
        (0, 0),
        (59, 59),
        (60, 60),
        (61, 62),
        (90, 120),
        (120, 180),
        (150, 270),
        (180, 360),
        (210, 480),
        (240, 600),
    ],
)
def test_machtpunkte_become_stichpunkte(macht, stich):
    # "Ab dem 60. Machtpunkt zählt jeder weitere Punkt doppelt (90 = 120), ab dem 120.
    # dreifach (150 = 270), ab dem 180. vierfach (210 = 480)"
    assert LUXUS.trick_points(macht) == stich


def test_the_machtpunkte_of_all_three_sum_to_240():
    bad = game(0, 300, (140, 120), (40, 80), (0, 50))
    assert [(e.field, e.text("en")) for e in validate_game(bad, LUXUS)] == [
        ("parties", "The tricks of all parties must add up to 240 (now 250).")
    ]


def test_meld_plus_stichpunkte_reaches_the_bid():
    result = score_game(game(0, 300, (140, 120), (40, 80), (0, 40)), LUXUS)
    # 140 + 180 = 320 >= 300; the others: 40 + 100, 0 + 40
    assert (result.points, result.won) == ((320, 140, 40), True)


def test_the_spielmacher_who_misses_the_bid_loses_his_points_and_gets_minus_the_bid():
    result = score_game(game(1, 400, (40, 80), (140, 120), (0, 40)), LUXUS)
    assert (result.points, result.won) == ((140, -400, 40), False)


def test_the_others_may_score_anything_even_below_zero():
    # "Die Punktzahl der anderen Spieler darf beliebig sein."
    result = score_game(game(0, 200, (60, 210), (0, 30), (0, 0), penalties=[None, 50, 100]), LUXUS)
    assert result.points == (60 + 480, -20, -100)


# --- 4. Farbkarten: minus points, per player and game -------------------------------------------
def test_minus_points_come_off_the_machtpunkte_before_they_are_scaled():
    # "werden daraus (nach Abzug der Minuspunkte) die Stichpunkte ermittelt": 90 - 20 = 70 -> 80
    result = score_game(game(1, 200, (40, 90), (140, 110), (0, 40), penalties=[20, 0, 0]), LUXUS)
    assert result.points == (40 + 80, 140 + 110 + 50, 40)


def test_minus_points_can_make_the_spielmacher_miss_his_bid():
    # 140 + scale(110) = 290 >= 290; with 20 minus points: 140 + scale(90) = 260 < 290
    assert score_game(game(0, 290, (140, 110), (0, 90), (0, 40)), LUXUS).won is True
    missed = score_game(game(0, 290, (140, 110), (0, 90), (0, 40), penalties=[20, 0, 0]), LUXUS)
    assert (missed.won, missed.points[0]) == (False, -290)


def test_minus_points_after_scaling_are_a_rule_of_the_set():
    after = dataclasses.replace(LUXUS, penalty_before_scaling=False)
    result = score_game(game(1, 200, (40, 90), (140, 110), (0, 40), penalties=[20, 0, 0]), after)
    assert result.points == (40 + 120 - 20, 140 + 160, 40)


@pytest.mark.parametrize(("penalty", "ok"), [(20, True), (70, True), (150, True), (30, False)])
def test_minus_points_are_a_sum_of_20_50_and_100(penalty, ok):
    errors = validate_game(
        game(0, 200, (40, 90), (0, 110), (0, 40), penalties=[penalty, 0, 0]), LUXUS
    )
    assert (errors == []) is ok
    if not ok:
        assert errors[0].text("en") == "Minus points are a sum of 20, 50, 100 (now 30)."


def test_minus_points_are_entered_as_a_positive_number():
    errors = validate_game(game(0, 200, (40, 90), (0, 110), (0, 40), penalties=[-20, 0, 0]), LUXUS)
    assert [e.field for e in errors] == ["parties[0].penalty"]


def test_other_rule_sets_have_no_minus_points():
    errors = validate_game(game(0, 200, (60, 152), (20, 58), (0, 40), penalties=[20, 0, 0]))
    assert [(e.field, e.text("en")) for e in errors] == [
        ("parties[0].penalty", "This rule set has no minus points: leave them empty.")
    ]


def test_minus_points_are_read_from_the_game_json():
    data = {
        "kind": "played",
        "declarer": 1,
        "bid": 200,
        "parties": [
            {"meld": 40, "tricks": 90, "penalty": 20},
            {"meld": 140, "tricks": 110},
            {"meld": 0, "tricks": 40},
        ],
        "revoked": [],
    }
    read = read_game(json.loads(json.dumps(data)), LUXUS)
    assert read.parties[0].penalty == 20
    assert read.to_dict() == {
        **data,
        "parties": [
            data["parties"][0],
            *[{"meld": m, "tricks": t} for m, t in ((140, 110), (0, 40))],
        ],
    }
    with pytest.raises(ScoringError) as info:
        read_game({**data, "parties": [{"meld": 40, "tricks": 90, "penalty": "20"}, {}, {}]}, LUXUS)
    assert "parties[0].penalty" in [e.field for e in info.value.errors]


def test_only_played_games():
    assert LUXUS.game_kinds == (GameKind.PLAYED,)
