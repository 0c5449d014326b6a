"""A pair's meld: what two hands dealt from the *same* deck, melding with the same trump, can
show together (docs/rules.md "Impossible meld totals", exact). Cross-checked by brute force on small
decks and by random deals; the examples in docs/rules.md of sums no pair can show."""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
    EJL,
    Card,
    Rank,
    Suit,
    achievable_pair_totals,
    achievable_totals,
    full_deck,
    hand_meld_total,
)
from scoring.meld_sets import pair_totals, single_hands
from tests.scoring.simple_counters import simple_meld_total

K, A = Rank.KOENIG, Rank.ASS
OB, UN = Rank.OBER, Rank.UNTER


def hands_of(types, cards):
    """Every way to hold ``cards`` cards of ``types`` kinds, at most two of each."""
    if types == 0:
        if cards == 0:
            yield ()
        return
    for n in range(min(2, cards) + 1):
        for rest in hands_of(types - 1, cards - n):
            yield (n, *rest)


def brute_force(ranks, cards, rules=EJL):
    """Every hand of ``cards`` cards from a deck of ``ranks`` in four suits (two copies each),
    counted by the simple counter; then every pair of hands that fits into one deck."""
    types = [Card(suit, rank) for suit in Suit for rank in ranks]
    hands = list(hands_of(len(types), cards))
    singles, pairs = set(), set()
    for trump in Suit:
        by_total: dict[int, list[tuple[int, ...]]] = {}
        for counts in hands:
            held = [card for card, n in zip(types, counts, strict=True) for _ in range(n)]
            by_total.setdefault(simple_meld_total(held, trump, rules), []).append(counts)
        singles |= set(by_total)
        for first, second in product(sorted(by_total), repeat=2):
            if first > second or first + second in pairs:
                continue
            if any(
                all(a + b <= 2 for a, b in zip(one, two, strict=True))
                for one in by_total[first]
                for two in by_total[second]
            ):
                pairs.add(first + second)
    return singles, pairs


@pytest.mark.parametrize(
    ("ranks", "cards"),
    [((K, OB, UN), 4), ((K, OB, UN), 6), ((A, K, OB, UN), 4)],
    ids=["K O U, 4 cards", "K O U, 6 cards", "A K O U, 4 cards"],
)
def test_the_dp_finds_exactly_what_brute_force_finds_on_small_decks(ranks, cards):
    singles, pairs = brute_force(ranks, cards)
    assert set(single_hands(EJL.meld_table, ranks, cards)) == singles
    assert pair_totals(EJL.meld_table, ranks, cards) == pairs
    # and the small decks do show sums no pair can reach (two Doppelbinokel, say)
    assert {a + b for a in singles for b in singles} - pairs


def test_pair_totals_are_sums_of_two_9_card_totals_but_not_every_sum():
    nine = achievable_totals(9)
    sums = {a + b for a in nine for b in nine}
    assert achievable_pair_totals() < sums
    assert {total for total in sums if total <= 700} <= achievable_pair_totals()


def test_rules_md_examples_are_sums_no_pair_can_show():
    nine = achievable_totals(9)
    sums = {a + b for a in nine for b in nine}
    examples = {1150, 1170, *range(1190, 1331, 20), 1450, 1530}
    assert examples <= sums
    assert not examples & achievable_pair_totals()


def test_two_hands_of_490_would_both_need_the_doppelbinokel():
    # 490 = Doppelbinokel + trump Familie + trump Paar; the deck has only two ♦U and two ♠O
    assert 490 in achievable_totals(9)
    assert 980 not in achievable_pair_totals()


def test_two_eights_of_different_ranks_fit_into_one_deck():
    # 8 Könige + trump Ober (1040) and 8 Unter + ♠O (1040, with a Binokel)
    assert max(achievable_pair_totals()) == 2080


def test_the_pair_set_is_computed_once():
    assert achievable_pair_totals() is achievable_pair_totals()


DECK = full_deck()


@settings(max_examples=200, deadline=None)
@given(cards=st.permutations(DECK), trump=st.sampled_from(list(Suit)))
def test_any_two_hands_dealt_from_one_deck_show_a_pair_total(cards, trump):
    first, second = cards[:9], cards[9:18]
    total = hand_meld_total(first, trump) + hand_meld_total(second, trump)
    assert total in achievable_pair_totals()


@settings(max_examples=200, deadline=None)
@given(
    ranks=st.sampled_from([(K, OB, UN), (A, K, OB, UN), (Rank.ZEHN, K, OB, UN)]),
    data=st.data(),
    trump=st.sampled_from(list(Suit)),
)
def test_two_hands_from_a_meld_rich_deck_show_a_pair_total(ranks, data, trump):
    deck = [Card(suit, rank) for suit in Suit for rank in ranks for _ in range(2)]
    cards = data.draw(st.permutations(deck))
    first, second = cards[:9], cards[9:18]
    total = simple_meld_total(first, trump) + simple_meld_total(second, trump)
    assert total in achievable_pair_totals()
    assert Counter(first) + Counter(second) <= Counter(deck)
