"""Any number of rounds (1-6 must work) and honest figures for each."""

from __future__ import annotations

import pytest

from pairing import Mode, PairingError, check_plan, make_plan
from tests.pairing.pairing_support import (
    assert_seated,
    field,
    first_and_scorer,
    most_four_table_rounds,
    repeats,
)

FIELDS = [3, 4, 6, 7, 8, 9, 10, 11, 18, 19, 20, 26, 30, 31, 50, 101, 302]


@pytest.mark.parametrize("rounds", [1, 2, 4, 5, 6])
@pytest.mark.parametrize("n", FIELDS)
def test_plans_of_1_to_6_rounds_are_valid_and_reported_honestly(n, rounds):
    plan = make_plan(field(n), Mode.SINGLES, rounds)
    assert_seated(plan, range(1, n + 1), rounds)
    quality = check_plan(plan)
    assert quality.repeats.value == repeats(plan) >= quality.repeats.bound
    assert quality.four_tables.value == most_four_table_rounds(plan)
    assert quality.seat_balance.value == 0
    if n >= 18:
        # enough room: no repeats and the fewest 4-table rounds
        assert quality.repeats.value == 0
        assert quality.four_tables.value == quality.four_tables.bound


@pytest.mark.parametrize("rounds", [1, 2])
def test_one_and_two_rounds_are_optimal_for_every_field_up_to_60(rounds):
    for n in [n for n in range(3, 61) if n != 5]:
        quality = check_plan(make_plan(field(n), Mode.SINGLES, rounds))
        assert quality.optimal(), (n, quality.to_dict())


def test_a_single_round_needs_no_search_and_meets_nobody_twice():
    plan = make_plan(field(1000), Mode.SINGLES, 1)
    assert repeats(plan) == 0
    first, scorer = first_and_scorer(plan)
    assert max(first.values()) == max(scorer.values()) == 1


def test_nine_entrants_meet_everybody_once_in_four_rounds():
    """The affine plane of order 3: 4 rounds of 3 tables, every pair exactly once."""
    plan = make_plan(field(9), Mode.SINGLES, 4)
    assert repeats(plan) == 0
    quality = check_plan(plan)
    assert quality.optimal()


def test_five_rounds_of_nine_repeat_as_little_as_counting_allows():
    # each entrant meets 2 a round: 10 meetings, 8 others, so R >= 9 * 2 / 2 = 9
    quality = check_plan(make_plan(field(9), Mode.SINGLES, 5))
    assert quality.repeats.bound == 9
    assert quality.repeats.value == 9


@pytest.mark.parametrize("rounds", [0, -1, 13])
def test_an_impossible_number_of_rounds_is_refused(rounds):
    with pytest.raises(PairingError) as err:
        make_plan(field(9), Mode.SINGLES, rounds)
    assert err.value.errors[0].field == "rounds"
