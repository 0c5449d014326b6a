"""Re-planning after withdrawals and late arrivals: played rounds never change, R stays
minimal over all rounds, then as few seats as possible change."""

from __future__ import annotations

import itertools

import pytest

from pairing import Entrant, Mode, PairingError, check_plan, make_plan, replan
from tests.pairing.pairing_support import assert_seated, field, repeats

SCENARIOS = [
    # (N, played, withdraw, add)
    (30, 1, [5], [31]),
    (30, 1, [5, 17], []),
    (30, 1, [], [31]),
    (30, 0, [1], []),
    (30, 2, [3, 4, 5], [40]),
    (9, 1, [], [10, 11, 12]),
    (12, 1, [], [13]),
    (13, 1, [1], []),
    (31, 1, [], [32, 33]),
    (100, 1, list(range(1, 11)), []),
    (300, 1, [5, 17, 40], [301, 302]),
    (300, 2, [5], [301, 302, 303, 304]),
]


def run(n, played, withdraw, add, mode=Mode.SINGLES, rounds=3, clubs=None):
    people = field(n, clubs)
    before = make_plan(people, mode, rounds)
    arrivals = [Entrant(a) for a in add]
    after = replan(before, played, people, withdraw=withdraw, add=arrivals)
    quality = check_plan(after, people + arrivals, base=before, played=played)
    return before, after, quality


@pytest.mark.parametrize(("n", "played", "withdraw", "add"), SCENARIOS)
def test_played_rounds_stay_and_the_rest_seats_the_new_field(n, played, withdraw, add):
    before, after, _ = run(n, played, withdraw, add)
    assert after.rounds[:played] == before.rounds[:played]
    now = sorted((set(range(1, n + 1)) - set(withdraw)) | set(add))
    later = type(after)(after.mode, after.rounds[played:])
    assert_seated(later, now, 3 - played, first=played + 1)


@pytest.mark.parametrize(("n", "played", "withdraw", "add"), SCENARIOS)
def test_repeats_stay_minimal_over_all_rounds(n, played, withdraw, add):
    _, after, quality = run(n, played, withdraw, add)
    assert quality.repeats.value == repeats(after) == quality.repeats.bound
    assert quality.four_tables.value == quality.four_tables.bound
    assert quality.seat_balance.value == quality.seat_balance.bound


def test_a_late_arrival_takes_the_seats_of_a_withdrawn_entrant():
    before, after, quality = run(30, 1, [5], [31])
    assert quality.changes.value == quality.changes.bound == 0
    for old, new in zip(before.rounds[1:], after.rounds[1:], strict=True):
        for t_old, t_new in zip(old.tables, new.tables, strict=True):
            assert t_new.seats == tuple(31 if s == 5 else s for s in t_old.seats)


def test_a_re_plan_without_changes_changes_nothing():
    before = make_plan(field(31), Mode.SINGLES)
    assert replan(before, 1, field(31)) == before


def test_few_seats_change_when_a_4_table_becomes_necessary():
    _, _, quality = run(300, 2, [5], [301, 302, 303, 304])
    assert quality.changes.value == quality.changes.bound
    _, _, quality = run(300, 1, [5, 17, 40], [301, 302])
    assert quality.changes.bound <= quality.changes.value <= 2 * quality.changes.bound
    _, _, quality = run(100, 1, list(range(1, 11)), [])
    # 2 rounds x 90 continuing entrants; a plan made afresh would move nearly all of them
    assert quality.changes.bound <= quality.changes.value <= 2 * 90 // 3


@pytest.mark.parametrize(
    ("n", "withdraw", "add"), [(20, [3], [21]), (20, [3, 4], []), (8, [], [9, 10])]
)
def test_pairs_can_be_re_planned(n, withdraw, add):
    before, after, quality = run(n, 1, withdraw, add, mode=Mode.PAIRS)
    assert after.rounds[:1] == before.rounds[:1]
    assert quality.repeats.value == quality.repeats.bound == 0
    assert quality.seat_balance.value == quality.seat_balance.bound


def test_the_desk_passes_every_registered_entrant_including_withdrawn_ones():
    people = field(31)
    before = make_plan(people[:30], Mode.SINGLES)  # 31 withdrew before the plan was made
    after = replan(before, 1, people, withdraw=[7])
    assert all(31 not in r.entrants() and 7 not in r.entrants() for r in after.rounds[1:])


def test_clubs_are_spread_when_round_one_is_re_planned():
    clubs = [f"Verein {i % 5}" for i in range(31)]
    _, _, quality = run(30, 0, [2], [31], clubs=clubs)
    assert quality.clubs.value == quality.clubs.bound


def test_re_planning_is_deterministic():
    before = make_plan(field(60), Mode.SINGLES)
    a = replan(before, 1, field(60), withdraw=[1, 2], add=[Entrant(61)], seed=4)
    b = replan(before, 1, field(60), withdraw=[1, 2], add=[Entrant(61)], seed=4)
    assert a == b


def test_an_unseatable_field_is_refused_with_the_substitute_hint():
    before = make_plan(field(6), Mode.SINGLES)
    with pytest.raises(PairingError) as err:
        replan(before, 1, field(6), withdraw=[6])
    assert "außer Konkurrenz" in err.value.errors[0].text("en")


@pytest.mark.parametrize(
    ("played", "withdraw", "add", "field_name"),
    [
        (4, [], [], "played"),
        (-1, [], [], "played"),
        (1, [99], [], "withdraw"),
        (1, [3], [3], "add"),
        (3, [3], [], "played"),
        (3, [], [13], "played"),
    ],
)
def test_impossible_requests_are_refused(played, withdraw, add, field_name):
    before = make_plan(field(12), Mode.SINGLES)
    with pytest.raises(PairingError) as err:
        replan(before, played, field(12), withdraw=withdraw, add=[Entrant(a) for a in add])
    assert field_name in {e.field for e in err.value.errors}


@pytest.mark.parametrize(
    ("withdraw", "add", "field_name", "message"),
    [
        ([], [3], "add", "Start number 3 is already seated in round 2."),
        ([], [13, 13], "add", "Start number 13 is added twice."),
        ([], [0], "add", "Start number 0 is not positive."),
        ([4, 4], [], "withdraw", "Start number 4 withdraws twice."),
        ([99], [], "withdraw", "Start number 99 is not an entrant of this plan."),
        ([True], [], "withdraw", "true is a yes/no value, not a whole number."),
    ],
)
def test_a_change_that_makes_no_sense_is_refused_with_a_clear_message(
    withdraw, add, field_name, message
):
    before = make_plan(field(12), Mode.SINGLES)
    with pytest.raises(PairingError) as err:
        replan(before, 1, field(12), withdraw=withdraw, add=[Entrant(a) for a in add])
    assert [(e.field, e.text("en")) for e in err.value.errors] == [(field_name, message)]


def test_an_entrant_withdrawn_earlier_cannot_withdraw_again():
    before = make_plan(field(12), Mode.SINGLES)
    after = replan(before, 1, field(12), withdraw=[4], add=[Entrant(13)])
    with pytest.raises(PairingError) as err:
        replan(after, 2, field(13), withdraw=[4])
    (error,) = err.value.errors
    assert error.field == "withdraw"
    assert error.text("en") == "Start number 4 is not seated in round 3: nothing to withdraw."


def test_every_problem_with_the_changes_is_reported_at_once():
    before = make_plan(field(12), Mode.SINGLES)
    with pytest.raises(PairingError) as err:
        replan(
            before,
            1,
            field(12),
            withdraw=[99, 4, 4],
            add=[Entrant(3), Entrant(13), Entrant(13), Entrant(4)],
        )
    assert [(e.field, e.text("en")) for e in err.value.errors] == [
        ("withdraw", "Start number 99 is not an entrant of this plan."),
        ("withdraw", "Start number 4 withdraws twice."),
        ("add", "Start number 3 is already seated in round 2."),
        ("add", "Start number 13 is added twice."),
        ("add", "Start number 4 cannot both withdraw and be added."),
    ]


def test_when_every_round_is_played_the_plan_is_returned_unchanged():
    before = make_plan(field(12), Mode.SINGLES)
    assert replan(before, 3, field(12)) == before


def _partitions(people, size):
    """Every split of ``people`` into tables of ``size`` (4-tables here: 4 or 8 people)."""
    if not people:
        yield ()
        return
    first, rest = people[0], people[1:]
    for others in itertools.combinations(rest, size - 1):
        left = [p for p in rest if p not in others]
        for tail in _partitions(left, size):
            yield ((first, *others), *tail)


@pytest.mark.parametrize(("n", "withdraw", "add"), [(9, [1], []), (9, [4], []), (7, [], [8])])
def test_tiny_re_plans_are_as_good_as_any(n, withdraw, add):
    """Exhaustive: the fewest repeats any choice of the two unplayed rounds can give."""
    before, after, quality = run(n, 1, withdraw, add)
    now = sorted((set(range(1, n + 1)) - set(withdraw)) | set(add))
    splits = list(_partitions(now, 4))  # 8 entrants: two 4-tables a round
    best = min(
        repeats(type(before)(before.mode, before.rounds[:1])) + _extra(before.rounds[0], a, b)
        for a in splits
        for b in splits
    )
    assert quality.repeats.value == best


def _extra(first, a, b):
    met = {}
    for tables in ([t.seats for t in first.tables], a, b):
        for t in tables:
            for pair in itertools.combinations(sorted(t), 2):
                met[pair] = met.get(pair, 0) + 1
    return sum(v - 1 for v in met.values())
