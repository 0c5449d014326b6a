"""The plan's JSON form (DESIGN.md) and refusing entrant counts that cannot be seated."""

from __future__ import annotations

import json

import pytest

from pairing import Entrant, Mode, PairingError, Plan, TableKind, make_plan, validate_entrant_count
from tests.pairing.pairing_support import field


def test_the_json_shape_is_the_design_contract():
    plan = make_plan(field(7), Mode.SINGLES, 1)
    data = plan.to_dict()
    assert set(data) == {"mode", "rounds"}
    assert data["mode"] == "singles"
    (rnd,) = data["rounds"]
    assert rnd["number"] == 1
    assert [t["kind"] for t in rnd["tables"]] == ["three", "four_sitout"]
    assert all(set(t) == {"number", "kind", "seats"} for t in rnd["tables"])
    assert json.loads(json.dumps(data)) == data


@pytest.mark.parametrize(("n", "mode"), [(31, Mode.SINGLES), (12, Mode.PAIRS)])
def test_a_plan_survives_the_round_trip(n, mode):
    plan = make_plan(field(n), mode)
    again = Plan.from_dict(json.loads(json.dumps(plan.to_dict())))
    assert again == plan
    assert isinstance(again.rounds[0].tables[0].kind, TableKind)


@pytest.mark.parametrize(
    ("data", "field_name"),
    [
        ([], "plan"),
        ({"mode": "trios", "rounds": []}, "mode"),
        ({"mode": "singles", "rounds": "x"}, "rounds"),
        ({"mode": "singles", "rounds": [{"number": "1", "tables": []}]}, "rounds[0].number"),
        (
            {"mode": "singles", "rounds": [{"number": 1, "tables": [{"number": 1, "kind": "x"}]}]},
            "rounds[0].tables[0].kind",
        ),
        (
            {
                "mode": "singles",
                "rounds": [
                    {"number": 1, "tables": [{"number": 1, "kind": "three", "seats": [1, 2, "3"]}]}
                ],
            },
            "rounds[0].tables[0].seats[2]",
        ),
        (
            {
                "mode": "singles",
                "rounds": [
                    {"number": 2, "tables": [{"number": 1, "kind": "three", "seats": [1, 2, 3]}]}
                ],
            },
            "rounds[0].number",
        ),
    ],
)
def test_a_malformed_plan_names_the_field(data, field_name):
    with pytest.raises(PairingError) as err:
        Plan.from_dict(data)
    assert field_name in {e.field for e in err.value.errors}


@pytest.mark.parametrize("n", [3, 4, 6, 7, 8, 9, 1000])
def test_every_einzel_count_from_3_except_5_can_be_seated(n):
    validate_entrant_count(n, Mode.SINGLES)


@pytest.mark.parametrize(
    ("n", "mode"),
    [(0, Mode.SINGLES), (2, Mode.SINGLES), (5, Mode.SINGLES), (1, Mode.PAIRS), (9, Mode.PAIRS)],
)
def test_counts_that_cannot_be_seated_ask_for_an_unranked_substitute(n, mode):
    with pytest.raises(PairingError) as err:
        validate_entrant_count(n, mode)
    (error,) = err.value.errors
    assert error.field == "entrants"
    assert "unranked substitute" in error.text("en")
    assert "außer Konkurrenz" in error.text("en")


def test_duplicate_or_non_positive_start_numbers_are_refused():
    with pytest.raises(PairingError) as err:
        make_plan([Entrant(1), Entrant(1), Entrant(0), Entrant(4)], Mode.SINGLES)
    assert [e.field for e in err.value.errors] == ["entrants[1]", "entrants[2]"]
