"""Clubs are spread: round 1 reaches the pigeonhole minimum, later rounds are kept low."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing import Entrant, Mode, check_plan, make_plan
from pairing.bounds import pigeonhole_clashes
from pairing.clubs import relabel
from pairing.planner import singles_groupings
from tests.pairing.pairing_support import field


def clashes(tables, club):
    return sum(
        v - 1 for t in tables for k, v in Counter(club[e] for e in t).items() if k is not None
    )


def brute_force_clashes(sizes, capacities):
    members = [c for c, s in enumerate(sizes) for _ in range(s)]
    best = None
    for tables in itertools.product(range(len(capacities)), repeat=len(members)):
        load = Counter(tables)
        if any(load[t] != cap for t, cap in enumerate(capacities)):
            continue
        per = Counter(zip(tables, members, strict=True))
        value = sum(v - 1 for v in per.values())
        best = value if best is None else min(best, value)
    return best


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.sampled_from([2, 3, 4]), min_size=1, max_size=3)
    .filter(lambda caps: sum(caps) <= 9)  # brute force: tables ** seats assignments
    .flatmap(
        lambda caps: st.tuples(
            st.just(caps),
            st.lists(st.integers(1, 4), min_size=1, max_size=sum(caps)).filter(
                lambda s: sum(s) <= sum(caps)
            ),
        )
    )
)
def test_the_pigeonhole_minimum_is_the_true_minimum(case):
    capacities, sizes = case
    sizes = [*sizes, *([1] * (sum(capacities) - sum(sizes)))]  # club-less fill the rest
    assert pigeonhole_clashes(sizes, capacities) == brute_force_clashes(sizes, capacities)


def test_pigeonhole_examples():
    assert pigeonhole_clashes([1] * 30, [3] * 10) == 0
    assert pigeonhole_clashes([15, 15], [3] * 10) == 10  # at most 2 clubs a table
    assert pigeonhole_clashes([12], [3] * 4) == 8
    assert pigeonhole_clashes([5, 1, 1, 1, 1], [3, 3, 3]) == 2


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(3, 60).filter(lambda n: n != 5),
    clubs=st.integers(1, 8),
    seed=st.integers(0, 10_000),
    data=st.data(),
)
def test_round_one_reaches_the_pigeonhole_minimum(n, clubs, seed, data):
    names = data.draw(
        st.lists(
            st.one_of(st.none(), st.sampled_from([f"Verein {i}" for i in range(clubs)])),
            min_size=n,
            max_size=n,
        )
    )
    people = field(n, names)
    quality = check_plan(make_plan(people, Mode.SINGLES, seed=seed), people)
    assert quality.clubs.value == quality.clubs.bound


def test_a_field_with_one_big_club_puts_one_member_at_every_table_first():
    names = ["TSV"] * 20 + [None] * 40
    people = field(60, names)
    plan = make_plan(people, Mode.SINGLES)
    for t in plan.rounds[0].tables:
        assert sum(1 for s in t.seats if s <= 20) == 1
    assert check_plan(plan, people).clubs.value == 0


def test_club_names_compare_without_case_and_spaces():
    people = [Entrant(i + 1, name) for i, name in enumerate(["TSV", " tsv", "Tsv "] * 3)]
    quality = check_plan(make_plan(people, Mode.SINGLES), people)
    # one club of nine at three tables: six clashes (three different clubs would need none)
    assert quality.clubs.value == quality.clubs.bound == 6


def test_later_rounds_are_spread_too():
    """The spreading pass keeps round 1 at its minimum and cuts clashes in later rounds."""
    n = 90
    groups = singles_groupings(n, 3, random.Random(1))
    club = [i % 6 for i in range(n)]  # six clubs of 15
    naive = relabel(groups, club, random.Random(2), effort=0)
    spread = relabel(groups, club, random.Random(2))

    def total(place_of, rounds):
        who = {p: e for e, p in enumerate(place_of)}
        return sum(clashes([[who[p] for p in t] for t in groups[r]], club) for r in rounds)

    assert total(spread, [0]) == total(naive, [0]) == 0
    assert total(spread, [1, 2]) < total(naive, [1, 2])


@pytest.mark.parametrize("mode", [Mode.SINGLES, Mode.PAIRS])
def test_without_clubs_c_is_zero(mode):
    quality = check_plan(make_plan(field(20), mode))
    assert quality.clubs.value == quality.clubs.bound == 0
