"""Rule sets: defaults, JSON round trip, field-addressed errors, descriptions."""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path

import pytest

from scoring import EJL, PRESETS, TIE_BREAKS, GameKind, RuleSet, ScoringError

REPO = Path(__file__).resolve().parents[2]


def errors_of(data):
    with pytest.raises(ScoringError) as info:
        RuleSet.from_dict(data)
    return {e.field: e.text("en") for e in info.value.errors}


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_survives_a_json_round_trip(name):
    rules = PRESETS[name]
    assert RuleSet.from_json(rules.to_json()) == rules
    assert RuleSet.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


def test_a_changed_rule_set_survives_a_json_round_trip():
    rules = dataclasses.replace(
        EJL,
        name="Hausregel",
        min_bid=200,
        trick_rounding="none",
        games_per_round=(("three", 9), ("pairs", 8), ("four_sitout", 12)),
        tie_breaks=("best_round",),
    )
    assert RuleSet.from_json(rules.to_json()) == rules


def test_json_shape_is_plain_objects_and_lists():
    data = EJL.to_dict()
    assert data["games_per_round"] == {"three": 12, "pairs": 12, "four_sitout": 16}
    assert data["tie_breaks"] == ["declarer_wins", "best_round"]
    assert data["name"] == "ejl"


def test_missing_rules_keep_their_ejl_default():
    assert RuleSet.from_dict({"min_bid": 200}) == dataclasses.replace(EJL, min_bid=200)
    assert RuleSet.from_dict({}) == EJL


def test_games_per_round_may_also_be_given_as_pairs():
    rules = RuleSet.from_dict(
        {"games_per_round": [["three", 15], ["pairs", 15], ["four_sitout", 20]]}
    )
    assert rules.games_for("three") == 15


def test_ejl_defaults_match_rules_md():
    assert (EJL.min_bid, EJL.bid_step, EJL.lost_factor) == (150, 10, 2)
    assert (EJL.durch_won, EJL.durch_lost_factor) == (1000, 2)
    assert (EJL.rundlauf_value, EJL.rundlauf_with_familie_value) == (240, 200)
    assert EJL.conceded_opponent_mode == "half_bid"
    assert EJL.meld_needs_trick
    melds = {m.key: (m.cards_text(), m.plain, m.trump) for m in EJL.suit_melds}
    assert melds == {
        "paar": ("K O", 20, 40),
        "familie": ("A 10 K O U", 100, 150),
        # docs/rules.md "Decisions": a double Familie counts as two Familien
        "doppelfamilie": ("A A 10 10 K K O O U U", 200, 300),
    }
    assert dict(EJL.four_of_a_rank) == {"A": 100, "10": 0, "K": 80, "O": 60, "U": 40, "7": 0}
    assert set(dict(EJL.eight_of_a_rank).values()) == {1000, 0}
    assert (EJL.binokel_value, EJL.doppelbinokel_value) == (40, 300)
    assert not EJL.opponents_half_bid_on_lost
    assert [EJL.games_for(kind) for kind in ("three", "pairs", "four_sitout")] == [12, 12, 16]
    assert EJL.rounds == 3
    assert EJL.tie_breaks == ("declarer_wins", "best_round")


def test_unknown_table_kind_is_an_error():
    with pytest.raises(ScoringError) as info:
        EJL.games_for("five")
    assert info.value.errors[0].field == "table_kind"


def test_unknown_rules_and_wrong_types_are_all_reported_by_name():
    assert errors_of(
        {
            "min_bid": "150",
            "meld_needs_trick": 1,
            "trick_rounding": 10,
            "tie_breaks": "best_round",
            "games_per_round": [1, 2],
            "lost_factr": 2,
        }
    ) == {
        "min_bid": "Expected a whole number.",
        "meld_needs_trick": "Expected true or false.",
        "trick_rounding": "Expected a text.",
        "tie_breaks": "Expected a list.",
        "games_per_round": "Expected an object with named fields.",
        "lost_factr": 'There is no rule called "lost_factr".',
    }


def test_values_out_of_range_are_reported_by_name():
    assert errors_of(
        {
            "bid_step": 0,
            "lost_factor": -1,
            "rundlauf_value": 245,
            "conceded_opponent_mode": "half",
            "rounds": 0,
            "name": " ",
            "games_per_round": {"three": 0, "six": 3},
            "tie_breaks": ["best_round", "best_round"],
        }
    ) == {
        "bid_step": "Must be at least 1 (now 0).",
        "lost_factor": "Must be at least 0 (now -1).",
        "rundlauf_value": "Must be a multiple of 10 (now 245).",
        # issue 15 adds per_opponent (docs/rules.md "dabb": meld + 40 for every opponent)
        "conceded_opponent_mode": (
            'Must be one of: half_bid, per_player, per_opponent (now "half").'
        ),
        "rounds": "Must be at least 1 (now 0).",
        "name": "Must not be empty.",
        "games_per_round.three": "Must be at least 1 (now 0).",
        "games_per_round.six": 'Unknown table kind "six"; use three, pairs or four_sitout.',
        "games_per_round": "Games per round are missing for: pairs, four_sitout.",
        "tie_breaks[1]": '"best_round" appears more than once.',
    }


def test_building_an_invalid_rule_set_in_code_raises_too():
    with pytest.raises(ScoringError) as info:
        RuleSet(bid_step=0)
    assert [e.field for e in info.value.errors] == ["bid_step"]


def test_invalid_json_text_is_reported_on_the_empty_field():
    with pytest.raises(ScoringError) as info:
        RuleSet.from_json("{min_bid: 150")
    assert info.value.errors[0].field == ""
    assert info.value.errors[0].text("de").startswith("Die Eingabe ist kein gültiges JSON")


def test_not_an_object():
    assert errors_of([1]) == {"": "Expected an object with named fields."}


def test_the_engine_knows_exactly_the_tie_breaks_the_standings_implement():
    assert list(TIE_BREAKS) == ["declarer_wins", "best_round"]
    assert set(EJL.tie_breaks) <= set(TIE_BREAKS)
    # the standings' metric registry, read as text: the engine stays free of Django
    source = (REPO / "binokel_tournament" / "services" / "evening" / "standings.py").read_text(
        "utf-8"
    )
    metric_keys = {
        node.value.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Assign)
        and [getattr(t, "id", None) for t in node.targets] == ["key"]
        and isinstance(node.value, ast.Constant)
    }
    assert metric_keys - {"total"} == set(TIE_BREAKS)


@pytest.mark.parametrize("tie_breaks", [("head_to_head",), ("declarer_wins", "total")])
def test_an_unknown_tie_break_is_rejected_in_code(tie_breaks):
    with pytest.raises(ScoringError) as info:
        RuleSet(tie_breaks=tie_breaks)
    assert [e.field for e in info.value.errors] == ["tie_breaks"]


def test_an_unknown_tie_break_is_rejected_from_json_naming_the_known_ones():
    assert errors_of({"tie_breaks": ["declarer_wins", "head_to_head"]}) == {
        "tie_breaks": 'Unknown tie-break "head_to_head"; choose from: declarer_wins, best_round.'
    }
    with pytest.raises(ScoringError) as info:
        RuleSet.from_dict({"tie_breaks": ["head_to_head"]})
    assert info.value.errors[0].text("de") == (
        "Unbekanntes Kriterium bei Punktgleichheit „head_to_head“; möglich sind: "
        "declarer_wins, best_round."
    )


def test_every_tie_break_has_a_label_in_both_languages():
    rules = RuleSet(tie_breaks=("best_round", "declarer_wins"))
    assert rules.describe("en")[-1] == (
        "Ties: the best single round, then more games won as declarer, otherwise a shared place."
    )


# --- every problem at once: a type error does not hide the others -----------------------------
def test_type_errors_and_value_errors_are_reported_together():
    assert errors_of({"lost_factor": True, "rounds": 0, "rundlauf_value": 245}) == {
        "lost_factor": "Expected a whole number.",
        "rundlauf_value": "Must be a multiple of 10 (now 245).",
        "rounds": "Must be at least 1 (now 0).",
    }


def test_errors_come_in_the_order_of_the_rules_unknown_rules_last():
    with pytest.raises(ScoringError) as info:
        RuleSet.from_dict({"lost_factr": 2, "rounds": 0, "name": 5, "min_bid": 0})
    assert [e.field for e in info.value.errors] == ["name", "min_bid", "rounds", "lost_factr"]


def test_an_entry_of_the_wrong_type_does_not_hide_the_other_entries_problems():
    assert errors_of(
        {
            "games_per_round": {"three": "12", "pairs": 0},
            "tie_breaks": [1, "best_round", "best_round"],
        }
    ) == {
        "games_per_round.three": "Expected a whole number.",
        "games_per_round.pairs": "Must be at least 1 (now 0).",
        "games_per_round": "Games per round are missing for: four_sitout.",
        "tie_breaks[0]": "Expected a text.",
        "tie_breaks[2]": '"best_round" appears more than once.',
    }


@pytest.mark.parametrize(
    "changes",
    [
        {"name": 5},
        {"min_bid": "150"},
        {"meld_needs_trick": 1},
        {"trick_rounding": None},
        {"games_per_round": {"three": 12, "pairs": 12, "four_sitout": 16}},
        {"games_per_round": (("three", 12.0), ("pairs", 12), ("four_sitout", 16))},
        {"tie_breaks": ["best_round"]},
    ],
)
def test_a_rule_of_the_wrong_type_built_in_code_is_a_bug_and_raises_type_error(changes):
    with pytest.raises(TypeError, match=next(iter(changes))):
        RuleSet(**changes)


def test_ejl_description_in_german():
    assert EJL.describe() == [
        "Reizen: ab 150, in Schritten von 10.",
        "Gewonnenes Spiel: Spielmacher erhält Meldung + Stiche.",
        "Verlorenes Spiel: −2 × Reizwert.",
        "Gegenspieler erhalten immer Meldung + Stiche.",
        "Abgeschrieben: Spielmacher −1 × Reizwert; jeder Gegenspieler Meldung + halber Reizwert "
        "(auf 10 aufgerundet).",
        "Durch: gewonnen +1000, verloren −2 × Reizwert.",
        "Stiche werden auf 10 gerundet (ab 5 aufwärts); über Gewinn oder Verlust entscheiden die "
        "genauen Augen.",
        "Ohne Stich verfällt das Gemeldete.",
        "Verworfen: der Spielmacher verliert das Spiel; bei einem Gegenspieler zählen die Stiche "
        "nicht.",
        "Rundlauf 240; mit Familie 200 + Familie.",
        "Eine doppelte Familie zählt als zwei Familien.",
        "3 Durchgänge; Spiele je Durchgang: 12 am Dreiertisch, 12 am Vierertisch (Paare), 16 am "
        "Vierertisch mit aussetzendem Geber.",
        "Bei Punktgleichheit: mehr gewonnene Spiele als Spielmacher, dann der beste Durchgang, "
        "sonst geteilter Platz.",
    ]


def test_description_follows_the_fields():
    rules = RuleSet.from_dict(
        {
            "lost_factor": 3,
            "trick_rounding": "none",
            "meld_needs_trick": False,
            "double_familie_counts_twice": False,  # as saved before issue 9
            "tie_breaks": [],
        }
    )
    lines = rules.describe("en")
    assert "Lost game: −3 × bid." in lines
    assert "Tricks count exactly, without rounding." in lines
    assert "The meld counts even without a trick." in lines
    assert "A double Familie counts as one Familie and one Paar." in lines
    assert lines[-1] == "Ties: a shared place."


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_is_described_in_both_languages_with_no_untranslated_line(name):
    german = PRESETS[name].describe("de")
    english = PRESETS[name].describe("en")
    assert len(german) == len(english) > 5
    assert all(de != en for de, en in zip(german, english, strict=True))


# --- the kinds of game a rule set plays (issue 9) -----------------------------------------------
def test_game_kinds_are_a_list_of_kinds_in_json():
    assert EJL.to_dict()["game_kinds"] == ["played", "conceded", "durch"]
    rules = RuleSet.from_dict({"game_kinds": ["played", "conceded"]})
    assert rules.game_kinds == (GameKind.PLAYED, GameKind.CONCEDED)


def test_game_kinds_must_be_known_distinct_and_include_played():
    assert errors_of({"game_kinds": ["played", "solo", "played"]}) == {
        "game_kinds[1]": (
            'Unknown game kind "solo"; use one of: '
            + ", ".join(kind.value for kind in GameKind)
            + "."
        ),
        "game_kinds[2]": '"played" appears more than once.',
    }
    assert errors_of({"game_kinds": ["durch"]}) == {
        "game_kinds": 'The game kinds must include "played".'
    }
