"""Property tests: whatever the field, every plan is valid, honest and reproducible."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pairing import Entrant, Mode, check_plan, make_plan, replan
from tests.pairing.pairing_support import assert_seated, field, most_four_table_rounds, repeats

singles = st.integers(3, 120).filter(lambda n: n != 5)


@settings(max_examples=30, deadline=None)
@given(n=singles, rounds=st.integers(1, 4), seed=st.integers(0, 2**31))
def test_every_plan_seats_everyone_once_and_no_figure_beats_its_bound(n, rounds, seed):
    plan = make_plan(field(n), Mode.SINGLES, rounds, seed)
    assert_seated(plan, range(1, n + 1), rounds)
    quality = check_plan(plan)
    assert quality.repeats.value == repeats(plan) >= quality.repeats.bound
    assert quality.four_tables.value == most_four_table_rounds(plan)
    assert quality.seat_balance.value >= quality.seat_balance.bound == 0
    assert make_plan(field(n), Mode.SINGLES, rounds, seed) == plan


@settings(max_examples=20, deadline=None)
@given(n=st.integers(1, 60).map(lambda k: 2 * k), rounds=st.integers(1, 6), seed=st.integers())
def test_pairs_never_repeat_before_the_round_robin_is_used_up(n, rounds, seed):
    plan = make_plan(field(n), Mode.PAIRS, rounds, seed)
    assert_seated(plan, range(1, n + 1), rounds)
    assert repeats(plan) == max(0, rounds - (n - 1)) * n // 2


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(9, 90),
    played=st.integers(0, 2),
    data=st.data(),
    seed=st.integers(0, 1000),
)
def test_re_plans_keep_played_rounds_and_reach_the_repeat_bound(n, played, data, seed):
    people = field(n)
    before = make_plan(people, Mode.SINGLES, 3, seed)
    withdraw = data.draw(st.lists(st.integers(1, n), max_size=4, unique=True))
    add = [Entrant(n + 1 + i) for i in range(data.draw(st.integers(0, 4)))]
    if n - len(withdraw) + len(add) in (5,) or n - len(withdraw) + len(add) < 3:
        return
    after = replan(before, played, people, withdraw=withdraw, add=add, seed=seed)
    assert after.rounds[:played] == before.rounds[:played]
    now = (set(range(1, n + 1)) - set(withdraw)) | {e.start_number for e in add}
    for rnd in after.rounds[played:]:
        assert sorted(s for t in rnd.tables for s in t.seats) == sorted(now)
    quality = check_plan(after, people + add, base=before, played=played)
    assert quality.repeats.value >= quality.repeats.bound
    if len(now) >= 18:  # tiny fields: see test_pairing_replan's exhaustive comparison
        assert quality.repeats.value == quality.repeats.bound
    assert quality.changes is not None
    assert quality.changes.value >= quality.changes.bound
