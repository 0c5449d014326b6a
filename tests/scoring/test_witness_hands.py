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

SUITS = list(Suit)
MELD_RANKS = (Rank.UNTER, Rank.OBER, Rank.KOENIG, Rank.ASS)


def simple_meld_total(cards, trump, rules=EJL):
    """Count melds straight from RULES.md's table, one meld kind after the other, with the
    values of the rule set (a classic table: Paar, Familie, double Familie, 4/8 of a rank,
    Binokel, Rundlauf).

    "How many times does the hand hold this meld?" is the number of copies of its scarcest
    card; a card may be used again by a meld of another kind.
    """
    have = Counter((card.suit, card.rank) for card in cards)
    value = {m.key: (m.plain, m.trump) for m in rules.suit_melds}
    four, eight = dict(rules.four_of_a_rank), dict(rules.eight_of_a_rank)

    def times(*needed):
        return min(have[card] for card in needed)

    def worth(key, suit):
        return value[key][1 if suit == trump else 0]

    total = 0
    familien = {}
    for suit in SUITS:
        familien[suit] = times(*[(suit, rank) for rank in Rank if rank is not Rank.SIEBEN])
        paare = times((suit, Rank.KOENIG), (suit, Rank.OBER)) - familien[suit]
        if familien[suit] == 2:
            total += worth("doppelfamilie", suit)
        else:
            total += familien[suit] * worth("familie", suit)
        total += paare * worth("paar", suit)

    binokel = times((Suit.SCHELLEN, Rank.UNTER), (Suit.SCHIPPEN, Rank.OBER))
    total += {0: 0, 1: rules.binokel_value, 2: rules.doppelbinokel_value}[binokel]

    sets = {rank: times(*[(suit, rank) for suit in SUITS]) for rank in MELD_RANKS}
    for rank in MELD_RANKS:
        total += {0: 0, 1: four[rank.value], 2: eight[rank.value]}[sets[rank]]

    # A Rundlauf is the 4 Könige + 4 Ober + a Paar in every suit, shown together: swap what it
    # is made of (a Familie's K+O stand for the Paar of their suit) for the Rundlauf's value.
    if rules.rundlauf_value and sets[Rank.KOENIG] == 1 and sets[Rank.OBER] == 1:
        made_of = four["K"] + four["O"]
        made_of += sum(worth("paar", suit) for suit in SUITS if familien[suit] == 0)
        total -= made_of
        with_familie = any(familien.values())
        total += rules.rundlauf_with_familie_value if with_familie else rules.rundlauf_value
    return total


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
