"""The command line contract of docs/architecture.md: ``python -m scoring score|melds|rules``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring import achievable_pair_totals, achievable_totals, get_preset
from scoring.cli import main

# slow: the command line in processes of its own (make check leaves it out)
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]

DESIGN_EXAMPLE = {
    "kind": "played",
    "declarer": 0,
    "bid": 200,
    "parties": [{"meld": 60, "tricks": 152}, {"meld": 20, "tricks": 58}, {"meld": 0, "tricks": 40}],
    "revoked": [],
}


def run(*args, stdin=""):
    done = subprocess.run(
        [sys.executable, "-m", "scoring", *args],
        input=stdin.encode("utf-8"),
        capture_output=True,
        cwd=REPO,
        timeout=60,
    )
    return done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")


def test_score_one_game_prints_its_points():
    code, out, _ = run("score", stdin=json.dumps(DESIGN_EXAMPLE))
    assert code == 0
    assert out.strip() == '{"points": [210, 80, 40], "won": true}'


def test_score_a_list_gives_a_list():
    durch = {"kind": "durch", "declarer": 1, "parties": [{"tricks": 0}, {"tricks": 250}]}
    code, out, _ = run("score", stdin=json.dumps([DESIGN_EXAMPLE, durch]))
    assert code == 0
    assert json.loads(out) == [
        {"points": [210, 80, 40], "won": True},
        {"points": [0, 1000], "won": True},
    ]


def test_invalid_game_exits_2_naming_every_problem_in_german():
    bad = {**DESIGN_EXAMPLE, "bid": 140}
    bad["parties"] = [{"meld": 60, "tricks": 150}, {"meld": 25, "tricks": 58}, {"tricks": 40}]
    code, out, _ = run("score", stdin=json.dumps(bad))
    assert code == 2
    assert json.loads(out) == {
        "errors": [
            {"field": "bid", "message": "Der Reizwert muss mindestens 150 sein (jetzt 140)."},
            {
                "field": "parties[1].meld",
                "message": "Die Meldung muss durch 10 teilbar sein (jetzt 25).",
            },
            {
                "field": "parties",
                "message": "Die Stiche aller Parteien müssen zusammen 250 ergeben (jetzt 248).",
            },
        ]
    }


def test_errors_in_a_list_are_prefixed_with_the_game_index_and_can_be_english():
    bad = {**DESIGN_EXAMPLE, "parties": [{"meld": 60, "tricks": 152}, {"tricks": 300}, {}]}
    code, out, _ = run("score", "--lang", "en", stdin=json.dumps([DESIGN_EXAMPLE, bad, "x"]))
    assert code == 2
    assert json.loads(out) == {
        "errors": [
            {
                "field": "[1].parties[1].tricks",
                "message": "The tricks must be between 0 and 250 (now 300).",
            },
            {"field": "[2]", "message": "Expected an object with named fields."},
        ]
    }


def test_malformed_game_is_reported_by_field():
    code, out, _ = run("score", "--lang", "en", stdin='{"kind": "played", "bid": "200"}')
    assert code == 2
    # the missing declarer is reported too: a type error does not stop the other checks
    assert [e["field"] for e in json.loads(out)["errors"]] == ["declarer", "bid", "parties"]


@pytest.mark.parametrize("text", ["", "{kind: played}", "[1, 2"])
def test_invalid_json_exits_2_with_an_error_on_the_empty_field(text):
    code, out, _ = run("score", stdin=text)
    assert code == 2
    errors = json.loads(out)["errors"]
    assert [e["field"] for e in errors] == [""]
    assert errors[0]["message"].startswith("Die Eingabe ist kein gültiges JSON")


def test_score_with_a_rules_file(tmp_path):
    rules = tmp_path / "klassisch.json"
    code, out, _ = run("rules", "--preset", "klassisch")
    assert code == 0
    rules.write_text(out, encoding="utf-8")
    conceded = {
        "kind": "conceded",
        "declarer": 0,
        "bid": 200,
        "parties": [{}, {"meld": 40}, {"meld": 0}],
    }
    code, out, _ = run("score", "--rules", str(rules), stdin=json.dumps(conceded))
    assert (code, json.loads(out)) == (0, {"points": [-200, 70, 30], "won": False})


def test_bad_rules_file_is_reported(tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text('{"min_bid": "viel"}', encoding="utf-8")
    code, out, _ = run("score", "--rules", str(rules), "--lang", "en", stdin="{}")
    assert code == 2
    assert json.loads(out)["errors"] == [
        {"field": "rules.min_bid", "message": "Expected a whole number."}
    ]
    code, out, _ = run("score", "--rules", str(tmp_path / "missing.json"), stdin="{}")
    assert code == 2
    assert json.loads(out)["errors"][0]["field"] == "rules"


def test_melds_prints_the_sorted_achievable_totals():
    for args, expected in [
        (["--cards", "12"], achievable_totals(12)),
        (["--cards", "9"], achievable_totals(9)),
        (["--pair"], achievable_pair_totals()),
    ]:
        code, out, _ = run("melds", *args)
        assert code == 0
        assert json.loads(out) == sorted(expected)


def test_melds_witness_prints_a_hand_showing_the_total():
    code, out, _ = run("melds", "--witness", "310", "--cards", "12")
    assert code == 0
    shown = json.loads(out)
    assert set(shown) == {"total", "cards", "trump"}
    assert shown["total"] == 310
    assert len(shown["cards"]) == 12
    assert shown["trump"] in {"herz", "schellen", "kreuz", "schippen"}


def test_melds_witness_of_an_impossible_total_exits_2():
    code, out, _ = run("melds", "--witness", "410", "--cards", "12", "--lang", "en")
    assert code == 2
    assert json.loads(out) == {
        "errors": [{"field": "witness", "message": "No 12-card hand shows a meld of exactly 410."}]
    }


def test_rules_prints_a_preset_as_json():
    code, out, _ = run("rules", "--preset", "preisbinokel")
    assert code == 0
    assert json.loads(out) == get_preset("preisbinokel").to_dict()


def test_rules_describe_prints_lines():
    code, out, _ = run("rules", "--preset", "ejl", "--describe", "--lang", "en")
    assert code == 0
    assert "Lost game: −2 × bid." in json.loads(out)


def test_unknown_preset_exits_2():
    code, out, _ = run("rules", "--preset", "nope")
    assert code == 2
    assert json.loads(out)["errors"][0]["field"] == "preset"


def run_in_process(*args, stdin=""):
    out = io.StringIO()
    code = main(list(args), io.BytesIO(stdin.encode("utf-8")), out)
    return code, json.loads(out.getvalue())


# --- every problem at once, type errors included ----------------------------------------------
BAD_TYPE_AND_BAD_VALUES = {
    "kind": "played",
    "declarer": 0,
    "bid": 155,
    "parties": [{"meld": 30, "tricks": "x"}, {"meld": 20, "tricks": 58}, {"meld": 0, "tricks": 40}],
}


def test_a_type_error_does_not_hide_the_other_problems_of_a_game():
    code, out, err = run("score", "--lang", "en", stdin=json.dumps(BAD_TYPE_AND_BAD_VALUES))
    assert (code, err) == (2, "")
    assert json.loads(out) == {
        "errors": [
            {"field": "bid", "message": "The bid must be a multiple of 10 (now 155)."},
            {
                "field": "parties[0].meld",
                "message": (
                    "No 12-card hand can show a meld of 30; the nearest possible totals are 20 "
                    "and 40."
                ),
            },
            {"field": "parties[0].tricks", "message": "Expected a whole number."},
        ]
    }


def test_an_unknown_kind_does_not_hide_the_other_problems_of_a_game():
    bogus = {**BAD_TYPE_AND_BAD_VALUES, "kind": "bogus"}
    code, out = run_in_process("score", stdin=json.dumps([DESIGN_EXAMPLE, bogus]))
    assert code == 2
    assert [e["field"] for e in out["errors"]] == [
        "[1].kind",
        "[1].bid",
        "[1].parties[0].meld",
        "[1].parties[0].tricks",
    ]


def test_a_type_error_in_a_rules_file_does_not_hide_the_other_problems(tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text('{"lost_factor": true, "rounds": 0, "rundlauf_value": 245}', "utf-8")
    code, out = run_in_process("score", "--rules", str(rules), "--lang", "en", stdin="{}")
    assert code == 2
    assert out["errors"] == [
        {"field": "rules.lost_factor", "message": "Expected a whole number."},
        {"field": "rules.rundlauf_value", "message": "Must be a multiple of 10 (now 245)."},
        {"field": "rules.rounds", "message": "Must be at least 1 (now 0)."},
    ]


def test_an_unknown_tie_break_in_a_rules_file_is_rejected(tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text('{"tie_breaks": ["head_to_head"]}', "utf-8")
    code, out = run_in_process("score", "--rules", str(rules), stdin=json.dumps(DESIGN_EXAMPLE))
    assert code == 2
    assert [e["field"] for e in out["errors"]] == ["rules.tie_breaks"]


# --- input no parser can take --------------------------------------------------------------
def test_deeply_nested_input_exits_2_with_a_json_error_not_a_traceback():
    code, out, err = run("score", stdin="[" * 200_000)
    assert (code, err) == (2, "")
    assert json.loads(out) == {
        "errors": [
            {"field": "", "message": "Die Eingabe ist zu tief verschachtelt, um gelesen zu werden."}
        ]
    }


def test_deeply_nested_rules_file_exits_2(tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text("{" + '"a":{' * 100_000, "utf-8")
    code, out = run_in_process("score", "--rules", str(rules), "--lang", "en", stdin="{}")
    assert code == 2
    assert out["errors"] == [
        {"field": "rules", "message": "The input is nested too deeply to be read."}
    ]


def test_a_rules_file_that_is_not_utf8_exits_2(tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_bytes(b'{"name": "\xff"}')
    code, out = run_in_process("score", "--rules", str(rules), stdin="{}")
    assert code == 2
    assert [e["field"] for e in out["errors"]] == ["rules"]


# --- the command line itself ---------------------------------------------------------------
@pytest.mark.parametrize(
    "args",
    [
        [],
        ["bogus"],
        ["score", "--nope"],
        ["melds", "--cards", "10"],
        ["melds", "--witness", "310", "--pair"],
        ["--lang", "fr", "score"],
    ],
)
def test_a_wrong_command_line_exits_2_with_the_json_error_shape(args):
    code, out, err = run(*args)
    assert (code, err) == (2, "")
    (error,) = json.loads(out)["errors"]
    assert error["field"] == "arguments"
    assert error["message"].startswith("Ungültige Kommandozeile: ")


@pytest.mark.parametrize(
    "args", [["--lang", "en", "melds", "--cards", "10"], ["melds", "--cards", "10", "--lang=en"]]
)
def test_a_wrong_command_line_is_reported_in_the_language_asked_for(args):
    code, out = run_in_process(*args)
    assert code == 2
    assert out["errors"][0]["message"].startswith("Invalid command line: ")


@pytest.mark.parametrize(
    "args",
    [
        ["--lang", "en", "score"],
        ["score", "--lang", "en"],
        ["--lang", "de", "score", "--lang", "en"],
    ],
)
def test_lang_may_come_before_or_after_the_command(args):
    code, out = run_in_process(*args, stdin='{"kind": "played"}')
    assert code == 2
    assert {"field": "declarer", "message": "Enter the declarer."} in out["errors"]


def test_lang_before_the_command_applies_to_the_rules_description():
    code, out = run_in_process("--lang", "en", "rules", "--describe")
    assert code == 0
    assert "Lost game: −2 × bid." in out


def test_rules_prints_what_rule_set_to_json_writes():
    out = io.StringIO()
    assert main(["rules", "--preset", "klassisch"], io.BytesIO(), out) == 0
    assert out.getvalue() == get_preset("klassisch").to_json() + "\n"


# --- warnings: only when there are any ----------------------------------------------------------
def test_a_bid_no_hand_can_make_is_scored_with_a_warning():
    typo = {**DESIGN_EXAMPLE, "bid": 2000}
    code, out = run_in_process("score", "--lang", "en", stdin=json.dumps([DESIGN_EXAMPLE, typo]))
    assert code == 0
    assert out == [
        {"points": [210, 80, 40], "won": True},
        {
            "points": [-4000, 80, 40],
            "won": False,
            "warnings": [
                {
                    "field": "bid",
                    "message": (
                        "No hand can make a bid above 1630 (the highest meld + 250 for all "
                        "tricks); now 2000. A typo?"
                    ),
                }
            ],
        },
    ]
