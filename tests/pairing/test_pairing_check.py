"""check_plan measures any plan; the figures on small hand-made plans."""

from __future__ import annotations

import pytest

from pairing import Entrant, Metric, Mode, PairingError, Plan, Quality, Round, Table, check_plan
from pairing import TableKind as K


def plan_of(*rounds, mode=Mode.SINGLES):
    return Plan(
        mode,
        tuple(
            Round(i + 1, tuple(Table(j + 1, kind, seats) for j, (kind, seats) in enumerate(r)))
            for i, r in enumerate(rounds)
        ),
    )


# 7 entrants: a 3-table and a 4-table each round
SEVEN = plan_of(
    [(K.THREE, (1, 2, 3)), (K.FOUR_SITOUT, (4, 5, 6, 7))],
    [(K.THREE, (1, 4, 5)), (K.FOUR_SITOUT, (2, 3, 6, 7))],
)


def test_repeats_count_every_meeting_after_the_first():
    # pairs meeting twice: 2-3 and 6-7 and 4-5
    assert check_plan(SEVEN).repeats.value == 3


def test_f_is_the_most_rounds_at_a_4_table():
    assert check_plan(SEVEN).four_tables.value == 2  # 6 and 7


def test_seat_balance_counts_first_dealers_and_scorers_outside_the_fair_share():
    # fair share: 2 tables a round / 7 entrants, over 2 rounds = 4/7: 0 or 1 each
    # 1 deals first twice and 6 keeps score twice
    assert check_plan(SEVEN).seat_balance.value == 2
    balanced = plan_of(
        [(K.THREE, (1, 2, 3)), (K.FOUR_SITOUT, (4, 5, 6, 7))],
        [(K.THREE, (5, 4, 1)), (K.FOUR_SITOUT, (3, 6, 2, 7))],
    )
    assert check_plan(balanced).seat_balance.value == 0


def test_the_scorer_at_a_pair_table_is_the_first_pair():
    plan = plan_of([(K.PAIRS, (1, 2))], [(K.PAIRS, (1, 2))], mode=Mode.PAIRS)
    # share 1/2 a round, 1 over two rounds: pair 1 deals and scores twice, pair 2 never
    assert check_plan(plan).seat_balance.value == 4
    assert check_plan(plan).repeats == Metric(1, 1)


def test_clubs_count_members_sitting_with_a_club_mate_in_round_one():
    people = [Entrant(1, "A"), Entrant(2, "A"), Entrant(3, "A"), Entrant(4, "B")]
    people += [Entrant(5, "B"), Entrant(6), Entrant(7)]
    quality = check_plan(SEVEN, people)
    # table 1 holds three of A (2 clashes), table 2 two of B (1); three of A at two tables
    # cannot avoid one clash
    assert quality.clubs == Metric(3, 1)


def test_d_counts_continuing_entrants_at_another_seat():
    moved = plan_of(
        [(K.THREE, (1, 2, 3)), (K.FOUR_SITOUT, (4, 5, 6, 7))],
        [(K.THREE, (1, 5, 4)), (K.FOUR_SITOUT, (2, 3, 6, 7))],
    )
    quality = check_plan(moved, base=SEVEN, played=1)
    assert quality.changes == Metric(2, 0)
    assert "D" in quality.to_dict()
    assert "D" not in check_plan(moved).to_dict()


def test_to_dict_has_the_documented_shape():
    quality = Quality(Metric(0, 0), Metric(1, 1), Metric(0, 0), Metric(2, 1))
    assert quality.to_dict() == {
        "R": {"value": 0, "bound": 0},
        "F": {"value": 1, "bound": 1},
        "S": {"value": 0, "bound": 0},
        "C": {"value": 2, "bound": 1},
    }


def test_a_broken_plan_is_reported_field_by_field():
    broken = plan_of([(K.THREE, (1, 2, 2)), (K.PAIRS, (3, 4))])
    with pytest.raises(PairingError) as err:
        check_plan(broken)
    fields = {e.field for e in err.value.errors}
    assert fields == {"rounds[0].tables[0].seats[2]", "rounds[0].tables[1].kind"}
    short = plan_of([(K.THREE, (1, 2))])
    with pytest.raises(PairingError) as err:
        check_plan(short)
    assert [e.field for e in err.value.errors] == ["rounds[0].tables[0].seats"]


def test_played_must_be_within_the_plan():
    with pytest.raises(PairingError):
        check_plan(SEVEN, played=3)
