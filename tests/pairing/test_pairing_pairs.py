"""Paare: tables of two pairs, a round-robin gives R = 0 for every even count."""

from __future__ import annotations

import pytest

from pairing import Mode, PairingError, check_plan, make_plan
from tests.pairing.pairing_support import assert_seated, field, first_and_scorer, repeats


@pytest.mark.parametrize("n", range(2, 301, 2))
def test_every_even_count_of_pairs_meets_nobody_twice(n):
    plan = make_plan(field(n), Mode.PAIRS)
    assert_seated(plan, range(1, n + 1), 3)
    quality = check_plan(plan)
    expected = 0 if n >= 4 else 2  # two pairs can only meet each other
    assert repeats(plan) == quality.repeats.value == quality.repeats.bound == expected
    assert quality.four_tables.value == quality.four_tables.bound == 0
    assert quality.seat_balance.value == 0
    assert quality.optimal()


@pytest.mark.parametrize("rounds", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("n", [2, 4, 6, 8, 20, 150])
def test_more_rounds_repeat_only_once_the_round_robin_is_used_up(n, rounds):
    plan = make_plan(field(n), Mode.PAIRS, rounds)
    assert_seated(plan, range(1, n + 1), rounds)
    fresh_rounds = n - 1
    assert repeats(plan) == max(0, rounds - fresh_rounds) * n // 2
    quality = check_plan(plan)
    assert quality.optimal()
    first, _ = first_and_scorer(plan)
    for number in range(1, n + 1):
        assert rounds // 2 <= first[number] <= -(-rounds // 2)


@pytest.mark.parametrize("n", [1, 3, 7, 151])
def test_an_odd_number_of_pairs_or_fewer_than_two_is_refused(n):
    with pytest.raises(PairingError) as err:
        make_plan(field(n), Mode.PAIRS)
    (error,) = err.value.errors
    assert error.field == "entrants"
    assert "außer Konkurrenz" in error.text("en")
    assert str(n) in error.text("en")
