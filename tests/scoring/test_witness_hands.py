"""Witness hands and random hands, checked by a separate, deliberately simple meld counter."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
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

SUITS = list(Suit)
FOUR_OF_A_RANK = {Rank.UNTER: 40, Rank.OBER: 60, Rank.KOENIG: 80, Rank.ASS: 100}


def simple_meld_total(cards, trump, rundlauf=240, rundlauf_with_familie=200, double_twice=True):
    """Count melds straight from RULES.md's table, one meld kind after the other.

    "How many times does the hand hold this meld?" is the number of copies of its scarcest
    card; a card may be used again by a meld of another kind.
    """
    have = Counter((card.suit, card.rank) for card in cards)

    def times(*needed):
        return min(have[card] for card in needed)

    total = 0
    familien = {}
    for suit in SUITS:
        familien[suit] = times(*[(suit, rank) for rank in Rank])
        if not double_twice:
            familien[suit] = min(familien[suit], 1)
        paare = times((suit, Rank.KOENIG), (suit, Rank.OBER)) - familien[suit]
        is_trump = suit == trump
        total += familien[suit] * (150 if is_trump else 100) + paare * (40 if is_trump else 20)

    binokel = times((Suit.SCHELLEN, Rank.UNTER), (Suit.SCHIPPEN, Rank.OBER))
    total += {0: 0, 1: 40, 2: 300}[binokel]

    sets = {rank: times(*[(suit, rank) for suit in SUITS]) for rank in FOUR_OF_A_RANK}
    for rank, value in FOUR_OF_A_RANK.items():
        total += {0: 0, 1: value, 2: 1000}[sets[rank]]

    # A Rundlauf is the 4 Könige + 4 Ober + a Paar in every suit, shown together: swap what it
    # is made of (a Familie's K+O stand for the Paar of their suit) for the Rundlauf's value.
    if sets[Rank.KOENIG] == 1 and sets[Rank.OBER] == 1:
        made_of = 80 + 60
        made_of += sum((40 if suit == trump else 20) for suit in SUITS if familien[suit] == 0)
        total -= made_of
        total += rundlauf_with_familie if any(familien.values()) else rundlauf
    return total


def counted_by_the_simple_counter(found, rules=None):
    if rules is None:
        return simple_meld_total(found.cards, found.trump)
    return simple_meld_total(
        found.cards,
        found.trump,
        rules.rundlauf_value,
        rules.rundlauf_with_familie_value,
        rules.double_familie_counts_twice,
    )


@pytest.mark.parametrize("cards", [12, 9])
def test_every_achievable_total_has_a_witness_the_simple_counter_agrees_with(cards):
    for total in sorted(achievable_totals(cards)):
        found = find_witness(total, cards)
        assert found is not None, total
        assert len(found.cards) == cards
        assert max(Counter(found.cards).values()) <= 2
        assert hand_meld_total(found.cards, found.trump) == total
        assert counted_by_the_simple_counter(found) == total, (total, found)


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(double_familie_counts_twice=False),
        RuleSet(rundlauf_value=300, rundlauf_with_familie_value=250),
    ],
    ids=["double Familie once", "other Rundlauf values"],
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
