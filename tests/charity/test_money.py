"""Money rules, pure: tiers, what counts as lost, pairs, statements and the evening's total."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from charity.money import (
    DonationRule,
    DonationTier,
    FeeRule,
    GameOutcome,
    donation_for,
    euro_text,
    euros,
    evening_total,
    lost_games,
    statement,
)

FIFTY_THEN_ONE_EURO = DonationRule((DonationTier(1, 50), DonationTier(5, 100)))


@pytest.mark.parametrize(
    ("lost", "cents"),
    [(0, 0), (1, 50), (4, 200), (5, 300), (6, 400), (10, 800)],
)
def test_fifty_cents_per_lost_game_and_one_euro_from_the_fifth(lost, cents):
    assert FIFTY_THEN_ONE_EURO.amount(lost) == cents


def test_a_tier_that_starts_later_costs_nothing_before():
    rule = DonationRule.from_pairs([[3, 100]])
    assert [rule.amount(n) for n in range(6)] == [0, 0, 0, 100, 200, 300]


def test_tiers_are_sorted_and_round_trip():
    rule = DonationRule.from_pairs([[5, 100], [1, 50]], count_conceded=True)
    assert rule.to_pairs() == [[1, 50], [5, 100]] and rule.count_conceded


def test_only_games_lost_as_declarer_count_and_conceded_only_when_the_rule_says_so():
    games = [
        GameOutcome("played", True, False),  # lost as declarer
        GameOutcome("played", True, True),  # won
        GameOutcome("played", False, False),  # an opponent of a lost game: not lost
        GameOutcome("durch", True, False),  # a lost Durch
        GameOutcome("conceded", True, False),  # abgeschrieben
    ]
    assert lost_games(games, FIFTY_THEN_ONE_EURO) == 2
    with_conceded = DonationRule(FIFTY_THEN_ONE_EURO.tiers, count_conceded=True)
    assert lost_games(games, with_conceded) == 3
    assert donation_for(games, with_conceded) == 150


def test_pairs_pay_per_pair_or_per_player():
    assert FeeRule(800).fee(2) == 800
    assert FeeRule(800, per_player=True).fee(2) == 1600
    assert FeeRule(800, per_player=True).fee(1) == 800


def test_a_statement_and_the_evening_total():
    lost = [GameOutcome("played", True, False)] * 6
    a = statement(1, "Anna", 1, lost, FeeRule(800), FIFTY_THEN_ONE_EURO, True, False)
    b = statement(2, "Bernd / Berta", 2, [], FeeRule(800, True), FIFTY_THEN_ONE_EURO, False, False)
    assert (a.lost, a.fee_cents, a.donation_cents, a.open_cents) == (6, 800, 400, 400)
    assert (b.fee_cents, b.open_cents, b.paid_cents) == (1600, 1600, 0)
    total = evening_total([a, b], [8550])
    assert total.fees_cents == 2400
    assert total.donations_cents == 400
    assert total.total_cents == 2400 + 400 + 8550
    assert total.paid_cents == 800 + 8550
    assert total.open_cents == 400 + 1600


def test_amounts_print_the_german_way():
    assert euro_text(650) == "6,50\u00a0€"
    assert euro_text(123456) == "1.234,56\u00a0€"
    assert euros(650) == Decimal("6.50")


@given(
    st.lists(st.tuples(st.integers(1, 20), st.integers(0, 500)), max_size=4),
    st.integers(0, 40),
)
def test_one_more_lost_game_never_costs_less(pairs, lost):
    rule = DonationRule.from_pairs(pairs)
    assert rule.amount(lost + 1) - rule.amount(lost) == rule.cents_for_game(lost + 1) >= 0
