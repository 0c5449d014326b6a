"""The JSON shape of a game (docs/architecture.md "Command-line contracts"): reading, writing, and
malformed input."""

from __future__ import annotations

import json

import pytest

from scoring import (
    GameInput,
    GameKind,
    GameRead,
    GameResult,
    PartyInput,
    ScoringError,
    read_game,
)

KINDS = ", ".join(kind.value for kind in GameKind)  # the issue 15 kinds came after "durch"
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
        "kind": f'Unknown game kind "gespielt"; use one of: {KINDS}.',
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


# --- read_game: every problem at once, of type and of content -----------------------------------
def all_errors_of(data, lang="en"):
    with pytest.raises(ScoringError) as info:
        read_game(data)
    return [(e.field, e.text(lang)) for e in info.value.errors]


BAD_TYPE_AND_BAD_VALUES = {
    "kind": "played",
    "declarer": 0,
    "bid": 155,
    "parties": [{"meld": 30, "tricks": "x"}, {"meld": 20, "tricks": 58}, {"meld": 0, "tricks": 40}],
}


def test_a_type_error_does_not_hide_the_other_problems_of_the_game():
    assert all_errors_of(BAD_TYPE_AND_BAD_VALUES) == [
        ("bid", "The bid must be a multiple of 10 (now 155)."),
        (
            "parties[0].meld",
            "No 12-card hand can show a meld of 30; the nearest possible totals are 20 and 40.",
        ),
        ("parties[0].tricks", "Expected a whole number."),
    ]


def test_an_unknown_kind_does_not_hide_the_other_problems_of_the_game():
    fields = [field for field, _ in all_errors_of({**BAD_TYPE_AND_BAD_VALUES, "kind": "bogus"})]
    assert fields == ["kind", "bid", "parties[0].meld", "parties[0].tricks"]


def test_a_field_of_the_wrong_type_is_reported_once_and_its_own_checks_are_skipped():
    # tricks unreadable: no "tricks must add up to 250", no "took a trick but 0 eyes"
    data = {
        **BAD_TYPE_AND_BAD_VALUES,
        "bid": "200",
        "declarer": 1.5,
        "parties": [{"tricks": "x", "took_trick": True}, 7, {"tricks": 40}],
        "revoked": [0, "A"],
    }
    assert [field for field, _ in all_errors_of(data)] == [
        "declarer",
        "bid",
        "parties[0].tricks",
        "parties[1]",
        "revoked",
    ]


def test_unreadable_parties_leave_no_count_or_range_errors_behind():
    data = {"kind": "played", "declarer": 5, "bid": 3000, "parties": "A, B, C", "revoked": [4]}
    assert all_errors_of(data) == [("parties", "Expected a list.")]


def test_unknown_fields_come_last_after_the_checked_ones():
    data = {"note": 1, **BAD_TYPE_AND_BAD_VALUES, "bid": 200}
    data["parties"] = [{"meld": 60, "tricks": 152, "eyes": 1}, {"tricks": 58}, {"tricks": 40}]
    assert [field for field, _ in all_errors_of(data)] == ["note", "parties[0].eyes"]


def test_read_game_gives_the_valid_game():
    assert read_game(DESIGN_EXAMPLE) == GameInput.from_dict(DESIGN_EXAMPLE)


def test_read_keeps_what_it_could_read_and_names_what_it_could_not():
    read = GameInput.read({"kind": "played", "bid": "200", "parties": [{"tricks": "x"}, 3]})
    assert read.game == GameInput(GameKind.PLAYED, None, None, (PartyInput(), PartyInput()))
    assert sorted(read.problems) == ["bid", "parties[0].tricks", "parties[1]"]
    assert GameInput.read("x") == GameRead(None, {"": (read_error("x"),)})


def read_error(data):
    with pytest.raises(ScoringError) as info:
        GameInput.from_dict(data)
    (error,) = info.value.errors
    return error
