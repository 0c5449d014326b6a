"""The meld totals a hand can show, computed by a DP over the four suits: they must be exactly
the sets docs/rules.md documents (the documented lists are spelled out here, never in the
engine)."""

from __future__ import annotations

import dataclasses

import pytest

from scoring import (
    EJL,
    RuleSet,
    ScoringError,
    achievable_pair_totals,
    achievable_totals,
    nearest_totals,
)


def tens(first, last):
    return set(range(first, last + 1, 10))


def odd_tens(first, last):
    return {x for x in tens(first, last) if (x // 10) % 2 == 1}


TOP = 3000  # "all above" is checked up to here

# docs/rules.md "Impossible meld totals": "a 12-card hand cannot show 10, 30 … 130 (odd tens),
# 410, 430, 610–990, the odd tens 1010–1130, 1170, 1200–1290, the odd tens 1310–1370, and nothing
# above 1380."
IMPOSSIBLE_12 = (
    odd_tens(10, 130)
    | {410, 430}
    | tens(610, 990)
    | odd_tens(1010, 1130)
    | {1170}
    | tens(1200, 1290)
    | odd_tens(1310, 1370)
    | tens(1390, TOP)
)
# "A 9-card hand cannot show 10 … 130 (odd tens), 310 … 430 (odd tens), 480, 500–990, 1010, 1030
# or anything above 1040."
IMPOSSIBLE_9 = (
    odd_tens(10, 130) | odd_tens(310, 430) | {480} | tens(500, 990) | {1010, 1030} | tens(1050, TOP)
)


def test_12_card_totals_are_exactly_those_rules_md_documents():
    assert achievable_totals(12) == frozenset(tens(0, TOP) - IMPOSSIBLE_12)


def test_9_card_totals_are_exactly_those_rules_md_documents():
    assert achievable_totals(9) == frozenset(tens(0, TOP) - IMPOSSIBLE_9)


@pytest.mark.parametrize(
    ("total", "possible"),
    [(0, True), (140, True), (700, True), (980, False), (990, False), (1020, True), (2080, True)],
)
def test_pair_totals_examples(total, possible):
    # 980 would take two hands of 490, each with the Doppelbinokel (exact since issue 9)
    assert (total in achievable_pair_totals()) is possible


def test_the_sets_are_computed_once_and_cached():
    assert achievable_totals(12) is achievable_totals(12)
    assert achievable_pair_totals() is achievable_pair_totals()


def test_presets_with_the_same_meld_rules_share_the_sets():
    assert achievable_totals(12, RuleSet(name="x", min_bid=200)) is achievable_totals(12)


def test_meld_rules_change_the_sets():
    once = dataclasses.replace(
        EJL,
        suit_melds=tuple(
            dataclasses.replace(m, plain=120, trump=190) if m.key == "doppelfamilie" else m
            for m in EJL.suit_melds
        ),
    )
    bigger_rundlauf = RuleSet(rundlauf_value=300, rundlauf_with_familie_value=250)
    assert achievable_totals(12, once) != achievable_totals(12)
    assert achievable_totals(12, bigger_rundlauf) != achievable_totals(12)


@pytest.mark.parametrize(
    ("total", "cards", "expected"),
    [
        (410, 12, (400, 420)),
        (1390, 12, (1380, None)),
        (10, 12, (0, 20)),
        (480, 9, (470, 490)),
        (990, None, (700, 1000)),
    ],
)
def test_nearest_possible_totals(total, cards, expected):
    assert nearest_totals(total, cards) == expected


@pytest.mark.parametrize("cards", [-1, 41])
def test_hand_sizes_outside_the_deck_are_errors(cards):
    with pytest.raises(ScoringError):
        achievable_totals(cards)
