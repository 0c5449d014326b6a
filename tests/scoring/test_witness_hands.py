"""Witness hands and random hands, checked by a separate, deliberately simple meld counter."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
    EJL,
    Rank,
    RuleSet,
    Suit,
    achievable_totals,
    find_witness,
    full_deck,
    hand_meld_total,
    witness,
)
from tests.scoring.card_labels import hand
from tests.scoring.simple_counters import simple_meld_total

SUITS = list(Suit)


def counted_by_the_simple_counter(found, rules=EJL):
    return simple_meld_total(found.cards, found.trump, rules)


@pytest.mark.parametrize("cards", [12, 9])
def test_every_achievable_total_has_a_witness_the_simple_counter_agrees_with(cards):
    for total in sorted(achievable_totals(cards)):
        found = find_witness(total, cards)
        assert found is not None, total
        assert len(found.cards) == cards
        assert max(Counter(found.cards).values()) <= 2
        assert hand_meld_total(found.cards, found.trump) == total
        assert counted_by_the_simple_counter(found) == total, (total, found)


def with_suit_meld(key, plain, trump):
    melds = tuple(
        dataclasses.replace(m, plain=plain, trump=trump) if m.key == key else m
        for m in EJL.suit_melds
    )
    return dataclasses.replace(EJL, suit_melds=melds)


@pytest.mark.parametrize(
    "rules",
    [
        with_suit_meld("doppelfamilie", 120, 190),
        with_suit_meld("doppelfamilie", 1500, 1500),
        RuleSet(rundlauf_value=300, rundlauf_with_familie_value=250),
        RuleSet(rundlauf_value=250, rundlauf_with_familie_value=250),
    ],
    ids=[
        "double Familie as Familie and Paar",
        "double Familie 1500",
        "other Rundlauf values",
        "flat Rundlauf 250",
    ],
)
def test_witnesses_follow_the_meld_rules_of_the_rule_set(rules):
    for total in sorted(achievable_totals(12, rules)):
        found = find_witness(total, 12, rules)
        assert found is not None
        assert counted_by_the_simple_counter(found, rules) == total


def test_witness_gives_just_the_cards():
    found = find_witness(310, 12)
    assert found is not None
    assert witness(310, 12) == found.cards


@pytest.mark.parametrize(("total", "cards"), [(410, 12), (1390, 12), (480, 9), (25, 12)])
def test_impossible_totals_have_no_witness(total, cards):
    assert witness(total, cards) is None


DECK = full_deck()
# Decks that make big melds likely: without the 10s, and only K, O, U with the two Binokel cards
NO_TENS = tuple(card for card in DECK if card.rank is not Rank.ZEHN)
MELD_RICH = tuple(card for card in DECK if card.rank in (Rank.KOENIG, Rank.OBER, Rank.UNTER))


def deals(size):
    return st.sampled_from([DECK, NO_TENS, MELD_RICH]).flatmap(
        lambda deck: st.permutations(deck).map(lambda cards: cards[:size])
    )


@settings(max_examples=300, deadline=None)
@given(cards=deals(12), trump=st.sampled_from(SUITS))
def test_any_dealt_12_card_hand_shows_a_total_from_the_computed_set(cards, trump):
    total = hand_meld_total(cards, trump)
    assert total in achievable_totals(12)
    assert total == simple_meld_total(cards, trump)


@settings(max_examples=300, deadline=None)
@given(cards=deals(9), trump=st.sampled_from(SUITS))
def test_any_dealt_9_card_hand_shows_a_total_from_the_computed_set(cards, trump):
    total = hand_meld_total(cards, trump)
    assert total in achievable_totals(9)
    assert total == simple_meld_total(cards, trump)


def test_simple_counter_sanity_against_the_meld_table():
    assert simple_meld_total(hand("♥K ♥O ♦K ♦O ♣K ♣O ♠K ♠O"), Suit.KREUZ) == 240
    assert simple_meld_total(hand("♥K ♥O ♦K ♦O ♣K ♣O ♠K ♠O ♥A ♥10 ♥U"), Suit.HERZ) == 350
    assert simple_meld_total(hand("♦U ♦U ♠O ♠O"), Suit.HERZ) == 300
