"""The club figure C of every round (``clubs_by_round``): round 1's is check_plan's C, every
round's value is its clashes counted independently here and never below its bound, and a
played round's bound is its own value."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing import Mode, PairingError, check_plan, clubs_by_round, make_plan
from tests.pairing.pairing_support import field


def clashes(rnd, club):
    total = 0
    for t in rnd.tables:
        per = Counter((club.get(e) or "").strip().casefold() for e in t.seats)
        total += sum(v - 1 for k, v in per.items() if k)
    return total


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(6, 45).filter(lambda n: n not in (5, 7, 8)),
    clubs=st.integers(1, 5),
    played=st.integers(0, 3),
    seed=st.integers(0, 1000),
    data=st.data(),
)
def test_every_round_has_its_club_figure(n, clubs, played, seed, data):
    names = data.draw(
        st.lists(
            st.one_of(st.none(), st.sampled_from([f"Verein {i}" for i in range(clubs)])),
            min_size=n,
            max_size=n,
        )
    )
    people = field(n, names)
    plan = make_plan(people, Mode.SINGLES, seed=seed)
    figures = clubs_by_round(plan, people, played)
    club = {e.start_number: e.club for e in people}
    assert len(figures) == len(plan.rounds)
    assert [f.value for f in figures] == [clashes(rnd, club) for rnd in plan.rounds]
    for index, figure in enumerate(figures):
        assert figure.value >= figure.bound >= 0
        if index < played:
            assert figure.value == figure.bound
    fresh = check_plan(plan, people)
    assert clubs_by_round(plan, people)[0] == fresh.clubs


def test_a_number_of_played_rounds_beyond_the_plan_is_refused():
    people = field(9, ["A"] * 9)
    plan = make_plan(people, Mode.SINGLES)
    with pytest.raises(PairingError):
        clubs_by_round(plan, people, played=4)
