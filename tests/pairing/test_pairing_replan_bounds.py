"""Re-plans reach the lower bounds of R, F and S wherever a plan can reach them.

The bounds of a re-plan are counting bounds (:func:`pairing.quality.generic_bounds`); in a few
fields, mostly small ones, no plan reaches them. Those cases of the sample below are listed in
``pairing_support.OPTIMUM`` with the true optimum, proved by CP-SAT
(``test_pairing_exact_cpsat.py``, an optional extra); every other case must meet its bounds
exactly. If :func:`pairing.make_plan` changes, the sample's plans change with it: prove the
new exceptions the same way.
"""

from __future__ import annotations

import itertools
import random

import pytest

from pairing import TableKind
from tests.pairing.pairing_support import (
    OPTIMUM,
    most_four_table_rounds,
    re_plan,
    repeats,
)


def sample(count: int = 150, seed: int = 2024) -> list[tuple[int, int, tuple, tuple]]:
    """(N, played, withdraw, add): 3-round Einzel plans of 9-120 entrants, 1 or 2 rounds
    played, up to 4 withdrawals and up to 4 late arrivals."""
    rng = random.Random(seed)
    cases: list[tuple[int, int, tuple, tuple]] = []
    while len(cases) < count:
        n = rng.randint(9, 120)
        played = rng.randint(1, 2)
        withdraw = tuple(sorted(rng.sample(range(1, n + 1), rng.randint(0, 4))))
        add = tuple(range(n + 1, n + 1 + rng.randint(0, 4)))
        final = n - len(withdraw) + len(add)
        if final < 3 or final == 5 or not (withdraw or add):
            continue
        cases.append((n, played, withdraw, add))
    return cases


#: Cases of the sample whose optimum lies above a bound (proved by CP-SAT, lexicographically:
#: the least R, the least F among plans with that R, the least S among those).
def test_the_sample_is_broad():
    cases = sample()
    assert {played for _, played, _, _ in cases} == {1, 2}
    assert min(n for n, *_ in cases) < 15 and max(n for n, *_ in cases) > 110
    assert any(w and a for _, _, w, a in cases)
    assert any(w and not a for _, _, w, a in cases) and any(a and not w for _, _, w, a in cases)
    assert set(OPTIMUM) <= set(cases)


def case_id(case: tuple[int, int, tuple, tuple]) -> str:
    n, played, withdraw, add = case
    return f"N{n}-played{played}-w{'.'.join(map(str, withdraw))}-a{'.'.join(map(str, add))}"


@pytest.mark.parametrize("case", sample(), ids=case_id)
def test_re_plans_reach_the_bounds_of_r_f_and_s(case):
    n, played, withdraw, add = case
    _, after, quality = re_plan(n, played, withdraw, add)
    best = OPTIMUM.get(case, {})
    figures = quality.to_dict()
    for name in "RFS":
        assert figures[name]["value"] == best.get(name, figures[name]["bound"]), (name, figures)
        assert figures[name]["bound"] <= figures[name]["value"]
    assert quality.repeats.value == repeats(after)
    assert quality.four_tables.value == most_four_table_rounds(after)


def test_a_late_arrival_after_round_1_of_19_keeps_f_at_1():
    """The reviewer's case: F was 3 with a bound of 1."""
    _, after, quality = re_plan(19, 1, (), (20,))
    assert quality.repeats.value == quality.repeats.bound == 0
    assert quality.four_tables.value == quality.four_tables.bound == 1


def test_two_arrivals_and_a_withdrawal_before_round_3_of_13_keep_f_at_2():
    """The reviewer's case: F was 3 with a bound of 2; e.g. round 3
    (2,3,7)(4,6,10,11)(5,8,9,13)(12,14,15) of the reviewer's plan has R 0 and F 2."""
    _, after, quality = re_plan(13, 2, (1,), (14, 15))
    assert quality.repeats.value == quality.repeats.bound == 0
    assert quality.four_tables.value == quality.four_tables.bound == 2


@pytest.mark.parametrize(
    ("n", "withdraw", "add", "seed"),
    [
        (23, (18,), (24, 25, 26, 27), 237),
        (27, (17,), (), 969),
        (12, (), (13, 14, 15, 16), 503),
        (13, (7, 11, 13), (14, 15, 16, 17), 817),
        (19, (6, 8, 19), (), 445),
    ],
)
def test_re_planning_every_round_reaches_f_too(n, withdraw, add, seed):
    _, _, quality = re_plan(n, 0, withdraw, add, seed)
    assert quality.repeats.value == quality.repeats.bound
    assert quality.four_tables.value == quality.four_tables.bound


@pytest.mark.parametrize(
    ("n", "played", "withdraw", "add", "seed"),
    [
        (14, 2, (1, 11), (), 85),
        (47, 2, (27,), (48, 49), 286),
        (17, 2, (4, 8, 9, 17), (), 369),
        (13, 2, (5, 7, 13), (14,), 844),
        (45, 1, (11, 16, 44), (46,), 890),
        (13, 1, (1, 2, 12, 13), (), 297),
    ],
)
def test_seats_stay_balanced_when_the_played_rounds_leave_little_room(
    n, played, withdraw, add, seed
):
    """Each of these once ended one role above its share (S 1, bound 0)."""
    _, _, quality = re_plan(n, played, withdraw, add, seed)
    assert quality.repeats.value == quality.repeats.bound
    assert quality.four_tables.value == quality.four_tables.bound
    assert quality.seat_balance.value == quality.seat_balance.bound == 0


def test_f_cannot_be_1_when_the_fresh_entrants_sat_at_only_three_tables():
    """17 entrants (three 3-tables, two 4-tables), round 1 played, entrant 7 withdraws: the
    4-table of rounds 2 and 3 may only seat entrants not at a 4-table yet, and they all sat at
    the three 3-tables of round 1, so any four of them include two who met: with R = 0, F is at
    least 2 (counting the 4-table places alone would allow 1)."""
    before, after, quality = re_plan(17, 1, (7,), (), 820)
    first = before.rounds[0]
    at_four = {e for t in first.tables if t.kind is TableKind.FOUR_SITOUT for e in t.seats}
    fresh = sorted(after.rounds[1].entrants() - at_four)
    met = {frozenset(p) for t in first.tables for p in itertools.combinations(t.seats, 2)}
    assert all(
        any(frozenset(p) in met for p in itertools.combinations(four, 2))
        for four in itertools.combinations(fresh, 4)
    )
    assert quality.repeats.value == quality.repeats.bound == 0
    assert quality.four_tables.bound == quality.four_tables.value == 2
