"""Counting the melds of one hand (docs/rules.md "Melds"; rule 15)."""

from __future__ import annotations

import dataclasses

import pytest

from scoring import (
    EJL,
    EYES,
    Card,
    MeldCounts,
    Rank,
    RuleSet,
    ScoringError,
    Suit,
    best_trump,
    full_deck,
    hand_meld_total,
    hand_melds,
    meld_total,
)
from tests.scoring.card_labels import card as card_of_label
from tests.scoring.card_labels import hand

HERZ, SCHELLEN, KREUZ, SCHIPPEN = Suit.HERZ, Suit.SCHELLEN, Suit.KREUZ, Suit.SCHIPPEN


RUNDLAUF = "♥K ♥O ♦K ♦O ♣K ♣O ♠K ♠O"


# --- cards ------------------------------------------------------------------------------------
def test_the_deck_has_40_cards_two_of_each():
    deck = full_deck()
    assert len(deck) == 40
    assert len(set(deck)) == 20
    assert all(deck.count(card) == 2 for card in deck)


def test_the_cards_hold_240_eyes():
    assert sum(EYES[card.rank] for card in full_deck()) == 240
    # the seven (played only by rule sets with sevens, issue 15) counts nothing
    assert [EYES[r] for r in Rank] == [11, 10, 4, 3, 2, 0]


@pytest.mark.parametrize(
    ("card", "label"),
    [
        (Card(HERZ, Rank.KOENIG), "♥K"),
        (Card(SCHELLEN, Rank.UNTER), "♦U"),
        (Card(KREUZ, Rank.ZEHN), "♣10"),
        (Card(SCHIPPEN, Rank.ASS), "♠A"),
    ],
)
def test_card_labels_use_suit_symbols(card, label):
    assert card.label() == label
    assert card_of_label(label) == card


def test_a_hand_cannot_hold_a_card_three_times():
    with pytest.raises(ScoringError) as info:
        hand_melds(hand("♥K ♥K ♥K"), HERZ)
    assert info.value.errors[0].field == "cards"
    assert info.value.errors[0].text("en") == "A hand can hold at most two copies of ♥K."


# --- single melds ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cards", "trump", "total"),
    [
        ("♥K ♥O", SCHELLEN, 20),
        ("♥K ♥O", HERZ, 40),
        ("♥K ♥K ♥O ♥O", KREUZ, 40),
        ("♥A ♥10 ♥K ♥O ♥U", KREUZ, 100),
        ("♥A ♥10 ♥K ♥O ♥U", HERZ, 150),
        ("♦U ♠O", HERZ, 40),
        ("♦U ♦U ♠O ♠O", HERZ, 300),
        ("♥U ♦U ♣U ♠U", HERZ, 40),
        ("♥O ♦O ♣O ♠O", HERZ, 60),
        ("♥K ♦K ♣K ♠K", HERZ, 80),
        ("♥A ♦A ♣A ♠A", HERZ, 100),
        ("♥A ♦A ♣A ♠A ♥A ♦A ♣A ♠A", HERZ, 1000),
        ("♥10 ♦10 ♣10 ♠10", HERZ, 0),
    ],
)
def test_meld_table(cards, trump, total):
    assert hand_meld_total(hand(cards), trump) == total


def test_familie_k_and_o_are_not_also_a_paar():
    assert hand_melds(hand("♥A ♥10 ♥K ♥O ♥U"), HERZ) == MeldCounts(trump_familie=1)


def test_familie_with_a_second_k_and_o_of_its_suit_adds_a_paar():
    assert hand_meld_total(hand("♥A ♥10 ♥K ♥O ♥U ♥K ♥O"), HERZ) == 150 + 40


def test_double_familie_counts_as_two_familien():
    double = hand("♥A ♥10 ♥K ♥O ♥U") * 2
    assert hand_melds(double, HERZ) == MeldCounts(trump_doppelfamilie=1)
    assert hand_meld_total(double, HERZ) == 300
    assert hand_meld_total(double, KREUZ) == 200


def test_the_double_familie_is_a_value_of_the_rule_set():
    # issue 9: two Familien (ejl), or a fixed value as other halls play it
    double = hand("♥A ♥10 ♥K ♥O ♥U") * 2
    for plain, trump in [(120, 190), (1000, 1000), (1500, 1500)]:
        rules = with_suit_meld("doppelfamilie", plain, trump)
        assert hand_meld_total(double, HERZ, rules) == trump
        assert hand_meld_total(double, KREUZ, rules) == plain


def with_suit_meld(key, plain, trump, rules=EJL):
    melds = tuple(
        dataclasses.replace(m, plain=plain, trump=trump) if m.key == key else m
        for m in rules.suit_melds
    )
    return dataclasses.replace(rules, suit_melds=melds)


def test_doppelbinokel_replaces_two_binokel():
    assert hand_melds(hand("♦U ♦U ♠O ♠O"), HERZ) == MeldCounts(doppelbinokel=1)


def test_eight_of_a_rank_replaces_four_of_that_rank():
    assert hand_melds(hand("♥A ♦A ♣A ♠A") * 2, HERZ) == MeldCounts(acht_asse=1)


def test_four_of_a_rank_with_one_suit_doubled_is_still_one_meld():
    assert hand_meld_total(hand("♥A ♥A ♦A ♣A ♠A ♦A ♣A"), HERZ) == 100


def test_a_card_serves_in_melds_of_different_kinds():
    # ♠O is in the Binokel, the Schippen Paar and the 4 Ober
    cards = hand("♦U ♠O ♠K ♥O ♣O ♦O")
    assert hand_melds(cards, HERZ) == MeldCounts(paar=1, binokel=1, vier_ober=1)
    assert hand_meld_total(cards, HERZ) == 40 + 20 + 60


def test_eight_unter_with_a_schippen_ober_show_1040():
    assert hand_meld_total(hand("♥U ♦U ♣U ♠U") * 2 + hand("♠O"), HERZ) == 1040


# --- Rundlauf and rule 15 ----------------------------------------------------------------------
@pytest.mark.parametrize("trump", list(Suit))
def test_rundlauf_is_worth_240_whatever_the_trump(trump):
    assert hand_melds(hand(RUNDLAUF), trump) == MeldCounts(rundlauf=1)
    assert hand_meld_total(hand(RUNDLAUF), trump) == 240


def test_rundlauf_with_a_trump_familie_is_200_plus_the_familie():
    cards = hand(RUNDLAUF + " ♥A ♥10 ♥U")
    assert hand_melds(cards, HERZ) == MeldCounts(trump_familie=1, rundlauf=1)
    assert hand_meld_total(cards, HERZ) == 200 + 150


def test_rundlauf_with_a_plain_familie_is_200_plus_the_familie():
    cards = hand(RUNDLAUF + " ♥A ♥10 ♥U")
    assert hand_meld_total(cards, SCHELLEN) == 200 + 100


def test_rundlauf_with_an_extra_paar_counts_the_paar_too():
    assert hand_meld_total(hand(RUNDLAUF + " ♣K ♣O"), HERZ) == 240 + 20


def test_eight_koenige_with_four_ober_are_paare_not_a_rundlauf():
    cards = hand("♥K ♦K ♣K ♠K") * 2 + hand("♥O ♦O ♣O ♠O")
    assert hand_melds(cards, HERZ) == MeldCounts(paar=3, trump_paar=1, vier_ober=1, acht_koenige=1)
    assert hand_meld_total(cards, HERZ) == 1000 + 60 + 40 + 3 * 20


def test_rundlauf_values_are_rules():
    rules = RuleSet(rundlauf_value=300, rundlauf_with_familie_value=250)
    assert hand_meld_total(hand(RUNDLAUF), HERZ, rules) == 300
    assert hand_meld_total(hand(RUNDLAUF + " ♥A ♥10 ♥U"), HERZ, rules) == 250 + 150


# --- meld_total: the desk's calculator of itemised melds ----------------------------------------
@pytest.mark.parametrize(
    ("counts", "total"),
    [
        (MeldCounts(), 0),
        (MeldCounts(paar=2, trump_paar=1), 80),
        (MeldCounts(familie=1, trump_familie=1), 250),
        (MeldCounts(binokel=1, vier_unter=1, vier_ober=1, vier_koenige=1, vier_asse=1), 320),
        (MeldCounts(doppelbinokel=1, acht_asse=1), 1300),
        (MeldCounts(rundlauf=1), 240),
        (MeldCounts(rundlauf=1, familie=1), 300),
        (MeldCounts(rundlauf=1, trump_familie=1), 350),
    ],
)
def test_meld_total_of_itemised_melds(counts, total):
    assert meld_total(counts) == total


def test_negative_counts_are_errors_addressed_to_the_meld():
    with pytest.raises(ScoringError) as info:
        meld_total(MeldCounts(paar=-1))
    assert info.value.errors[0].field == "paar"


def test_meld_counts_round_trip_through_a_dict():
    counts = MeldCounts(paar=2, rundlauf=1, familie=1)
    assert MeldCounts.from_dict(counts.to_dict()) == counts
    with pytest.raises(ScoringError):
        MeldCounts.from_dict({"pair": 1})


def test_itemised_melds_are_named_after_the_rule_sets_meld_table():
    assert meld_total(MeldCounts(doppelfamilie=1, trump_doppelfamilie=1)) == 200 + 300
    with pytest.raises(ScoringError) as info:
        meld_total(MeldCounts(luxusfamilie=1))
    assert info.value.errors[0].field == "luxusfamilie"


# --- the best trump ----------------------------------------------------------------------------
def test_best_trump_picks_the_suit_worth_most():
    cards = hand("♥K ♥O ♣A ♣10 ♣K ♣O ♣U")
    assert best_trump(cards) == (KREUZ, 150 + 20)
    assert hand_meld_total(cards, HERZ) == 100 + 40


def test_best_trump_of_a_hand_without_melds_is_the_first_suit():
    assert best_trump(hand("♥10 ♦10 ♣A ♠U")) == (HERZ, 0)


def test_hand_melds_accepts_the_suit_as_text():
    assert hand_meld_total(hand("♥K ♥O"), "herz", EJL) == 40  # type: ignore[arg-type]
