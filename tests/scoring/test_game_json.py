"""The JSON shape of a game (DESIGN.md): reading, writing, and malformed input."""

from __future__ import annotations

import json

import pytest

from scoring import GameInput, GameKind, GameResult, PartyInput, ScoringError

DESIGN_EXAMPLE = {
    "kind": "played",
    "declarer": 0,
    "bid": 200,
    "parties": [{"meld": 60, "tricks": 152}, {"meld": 20, "tricks": 58}, {"meld": 0, "tricks": 40}],
    "revoked": [],
}


def errors_of(data):
    with pytest.raises(ScoringError) as info:
        GameInput.from_dict(data)
    return {e.field: e.text("en") for e in info.value.errors}


def test_design_example_reads_into_dataclasses():
    g = GameInput.from_dict(DESIGN_EXAMPLE)
    assert g == GameInput(
        GameKind.PLAYED,
        0,
        200,
        (PartyInput(60, 152), PartyInput(20, 58), PartyInput(0, 40)),
        (),
    )


def test_to_dict_gives_back_the_design_example():
    assert GameInput.from_dict(DESIGN_EXAMPLE).to_dict() == DESIGN_EXAMPLE


def test_round_trip_keeps_took_trick_and_revoked_and_survives_json_text():
    g = GameInput(
        GameKind.PLAYED,
        1,
        180,
        (PartyInput(0, 200), PartyInput(40, 20, False), PartyInput(20, 30)),
        (2,),
    )
    assert GameInput.from_dict(json.loads(json.dumps(g.to_dict()))) == g
    assert g.to_dict()["parties"][1] == {"meld": 40, "tricks": 20, "took_trick": False}


def test_missing_optional_fields_default_to_nothing():
    g = GameInput.from_dict({"kind": "durch", "declarer": 1, "parties": [{}, {"tricks": 250}]})
    assert g.bid is None
    assert g.revoked == ()
    assert g.parties[0] == PartyInput()


def test_game_result_to_dict():
    assert GameResult((210, 80, 40), True).to_dict() == {"points": [210, 80, 40], "won": True}


def test_not_an_object():
    assert errors_of([1, 2]) == {"": "Expected an object with named fields."}


def test_every_malformed_field_is_named():
    assert errors_of(
        {
            "kind": "gespielt",
            "declarer": "A",
            "bid": 200.5,
            "parties": [{"meld": "60", "tricks": 152, "extra": 1}, 7, {"took_trick": "ja"}],
            "revoked": "B",
            "comment": "x",
        }
    ) == {
        "comment": 'Unknown field "comment".',
        "kind": 'Unknown game kind "gespielt"; use played, conceded or durch.',
        "declarer": "Expected a whole number.",
        "bid": "Expected a whole number.",
        "parties[0].extra": 'Unknown field "extra".',
        "parties[0].meld": "Expected a whole number.",
        "parties[1]": "Expected an object with named fields.",
        "parties[2].took_trick": "Expected true or false.",
        "revoked": "Expected a list.",
    }


def test_kind_and_parties_are_required():
    assert errors_of({"declarer": 0}) == {
        "kind": "This field is required.",
        "parties": "This field is required.",
    }


def test_booleans_are_not_numbers():
    assert errors_of({"kind": "played", "declarer": True, "parties": []}) == {
        "declarer": "Expected a whole number."
    }


def test_revoked_must_hold_party_numbers():
    assert errors_of({"kind": "played", "parties": [], "revoked": ["A"]}) == {
        "revoked": "Expected a whole number."
    }
