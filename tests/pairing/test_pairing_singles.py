"""Einzel over 3 rounds: the known best values of issue 3 for every N up to 1000."""

from __future__ import annotations

from collections import Counter

import pytest

from pairing import Mode, check_plan, make_plan
from tests.pairing.pairing_support import (
    assert_seated,
    field,
    first_and_scorer,
    known_best,
    most_four_table_rounds,
    repeats,
    seat_positions,
)

# slow: property-based over many field sizes (make check leaves it out)
pytestmark = pytest.mark.slow

EVERY_N_TO_300 = [n for n in range(3, 301) if n != 5]
ABOVE_300 = sorted({*range(301, 1001, 5), 997, 998, 999, 1000})


def _plan_and_check(n: int) -> None:
    plan = make_plan(field(n), Mode.SINGLES)
    assert_seated(plan, range(1, n + 1), 3)
    quality = check_plan(plan)
    # the engine's figures agree with an independent count
    assert quality.repeats.value == repeats(plan)
    assert quality.four_tables.value == most_four_table_rounds(plan)
    if n >= 9:
        r, f = known_best(n)
        assert quality.repeats.value == r
        if f is not None:
            assert quality.four_tables.value == f
    # every figure at its proven bound: R, F, S and (no clubs) C
    assert quality.optimal(), quality.to_dict()
    assert quality.seat_balance.value == 0


@pytest.mark.parametrize("n", EVERY_N_TO_300)
def test_every_field_up_to_300_reaches_the_known_best(n):
    _plan_and_check(n)


@pytest.mark.parametrize("n", ABOVE_300)
def test_fields_up_to_1000_reach_the_known_best(n):
    _plan_and_check(n)


@pytest.mark.parametrize(
    ("n", "r", "f"),
    [(10, 2, 3), (11, 4, 3), (13, 0, 2), (14, 0, 2), (17, 0, 2), (20, 0, 2), (23, 0, 2)],
)
def test_the_exceptional_small_fields(n, r, f):
    quality = check_plan(make_plan(field(n), Mode.SINGLES))
    assert (quality.repeats.value, quality.four_tables.value) == (r, f)
    assert (quality.repeats.bound, quality.four_tables.bound) == (r, f)


@pytest.mark.parametrize("n", [9, 12, 15, 30, 99, 300, 999])
def test_with_3k_entrants_everybody_sits_in_every_seat_exactly_once(n):
    plan = make_plan(field(n), Mode.SINGLES)
    for number, seats in seat_positions(plan).items():
        assert seats == Counter({1: 1, 2: 1, 3: 1}), number


@pytest.mark.parametrize("n", [4, 7, 10, 16, 28, 31, 100, 301, 1000])
def test_first_dealer_and_scorer_are_shared_as_evenly_as_possible(n):
    plan = make_plan(field(n), Mode.SINGLES)
    tables = sum(len(r.tables) for r in plan.rounds)
    low, high = tables // n, -(-tables // n)
    first, scorer = first_and_scorer(plan)
    for number in range(1, n + 1):
        assert low <= first[number] <= high
        assert low <= scorer[number] <= high


def test_4_tables_are_spread_so_nobody_sits_out_twice_when_avoidable():
    plan = make_plan(field(301), Mode.SINGLES)
    at_four = Counter(
        e for r in plan.rounds for t in r.tables if t.kind == "four_sitout" for e in t.seats
    )
    assert len(at_four) == 3 * 4  # one 4-table a round, 12 different entrants
    assert set(at_four.values()) == {1}


def test_n10_keeps_the_pair_that_meets_three_times_at_the_4_table():
    """R = 2 forces one pair to meet in every round, and that pair is at the 4-table."""
    plan = make_plan(field(10), Mode.SINGLES)
    fours = [set(t.seats) for r in plan.rounds for t in r.tables if t.kind == "four_sitout"]
    assert len(set.intersection(*fours)) == 2
