"""The plan's JSON form (docs/architecture.md) and refusing entrant counts that cannot be seated."""

from __future__ import annotations

import json
import time

import pytest

from pairing import (
    Entrant,
    Mode,
    PairingError,
    Plan,
    TableKind,
    make_plan,
    replan,
    validate_entrant_count,
)
from pairing.model import MAX_ENTRANTS
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
    [(1, Mode.SINGLES), (2, Mode.SINGLES), (5, Mode.SINGLES), (1, Mode.PAIRS), (9, Mode.PAIRS)],
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


@pytest.mark.parametrize(
    ("n", "mode", "message"),
    [
        (
            1,
            Mode.SINGLES,
            "1 entrant cannot be seated: an Einzel competition needs at least 3. "
            "Add 2 unranked substitutes (außer Konkurrenz).",
        ),
        (
            2,
            Mode.SINGLES,
            "2 entrants cannot be seated: an Einzel competition needs at least 3. "
            "Add an unranked substitute (außer Konkurrenz).",
        ),
        (
            1,
            Mode.PAIRS,
            "1 pair cannot be seated: a Paare competition needs at least 2 pairs. "
            "Add an unranked substitute pair (außer Konkurrenz).",
        ),
        (0, Mode.SINGLES, "There are no entrants to seat: an Einzel competition needs at least 3."),
        (0, Mode.PAIRS, "There are no pairs to seat: a Paare competition needs at least 2 pairs."),
    ],
)
def test_small_counts_are_named_in_the_singular_or_plural_they_need(n, mode, message):
    with pytest.raises(PairingError) as err:
        validate_entrant_count(n, mode)
    (error,) = err.value.errors
    assert (error.field, error.text("en")) == ("entrants", message)
    assert "(s)" not in error.text("de") and "(e)" not in error.text("de")


def test_everyone_withdrawing_is_refused_without_asking_for_substitutes():
    before = make_plan(field(3), Mode.SINGLES)
    with pytest.raises(PairingError) as err:
        replan(before, 1, field(3), withdraw=[1, 2, 3])
    (error,) = err.value.errors
    assert error.text("en").startswith("There are no entrants to seat")


@pytest.mark.parametrize("mode", [Mode.SINGLES, Mode.PAIRS])
def test_more_entrants_than_a_plan_takes_are_refused_at_once(mode):
    start = time.perf_counter()
    with pytest.raises(PairingError) as err:
        make_plan(field(MAX_ENTRANTS + 2), mode)
    assert time.perf_counter() - start < 1
    (error,) = err.value.errors
    assert error.field == "entrants"
    assert f"at most {MAX_ENTRANTS}" in error.text("en")
    validate_entrant_count(MAX_ENTRANTS, mode)


def test_a_plan_file_with_yes_no_or_empty_values_names_them_plainly():
    data = {
        "mode": True,
        "rounds": [
            {
                "number": 1,
                "tables": [{"number": 1, "kind": None, "seats": [True, None, 1.5, "x", [3]]}],
            }
        ],
    }
    with pytest.raises(PairingError) as err:
        Plan.from_dict(data)
    texts = {e.field: e.text("en") for e in err.value.errors}
    assert texts == {
        "mode": "Unknown mode true: use singles or pairs.",
        "rounds[0].tables[0].kind": "The table kind is missing: use three, four_sitout or pairs.",
        "rounds[0].tables[0].seats[0]": "true is a yes/no value, not a whole number.",
        "rounds[0].tables[0].seats[1]": "A whole number is missing (the value is empty).",
        "rounds[0].tables[0].seats[2]": "1.5 is not a whole number.",
        "rounds[0].tables[0].seats[3]": "x is not a whole number.",
        "rounds[0].tables[0].seats[4]": "[3] is not a whole number.",
    }
    for text in texts.values():
        assert "True" not in text and "None" not in text


@pytest.mark.parametrize(
    ("call", "field_name"),
    [
        (lambda: make_plan([Entrant(True), Entrant(2), Entrant(3)], Mode.SINGLES), "entrants[0]"),
        (lambda: make_plan(field(9), Mode.SINGLES, rounds=True), "rounds"),
    ],
)
def test_a_yes_no_value_is_not_taken_for_a_number(call, field_name):
    with pytest.raises(PairingError) as err:
        call()
    (error,) = err.value.errors
    assert (error.field, error.text("en")) == (
        field_name,
        "true is a yes/no value, not a whole number.",
    )
