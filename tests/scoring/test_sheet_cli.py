"""The command line contract of the score-sheet issue: ``python -m scoring sheet``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from scoring.cli import main

REPO = Path(__file__).resolve().parents[2]

GAME_1 = {
    "kind": "played",
    "declarer": 0,
    "bid": 200,
    "revoked": [],
    "dealer": None,
    "columns": [{"meld": 60, "tricks": 152}, {"meld": 20, "tricks": 58}, {"meld": 0, "tricks": 40}],
}


def sheet(*args: str, data: object) -> tuple[int, object]:
    out = io.StringIO()
    code = main(["sheet", *args], io.BytesIO(json.dumps(data).encode()), out)
    return code, json.loads(out.getvalue())


def test_a_sheet_prints_every_games_dealer_sitting_out_points_and_the_totals():
    durch = {
        "kind": "durch",
        "declarer": 1,
        "columns": [{"tricks": 0}, {"tricks": 250}, {"tricks": 0}],
    }
    code, out = sheet(data={"table": "three", "games": [GAME_1, durch, GAME_1]})
    assert code == 0
    assert out == {
        "games": [
            {"number": 1, "dealer": 0, "sits_out": None, "points": [210, 80, 40], "won": True},
            {"number": 2, "dealer": 1, "sits_out": None, "points": [0, 1000, 0], "won": True},
            # the Durch player (seat 1) deals the game after the Durch
            {"number": 3, "dealer": 1, "sits_out": None, "points": [210, 80, 40], "won": True},
        ],
        "totals": [420, 1160, 80],
    }


def test_at_a_four_table_the_dealers_column_is_empty_and_scores_zero():
    game = {
        "kind": "played",
        "declarer": 1,
        "bid": 200,
        "columns": [{}, {"meld": 60, "tricks": 152}, {"meld": 20, "tricks": 58}, {"tricks": 40}],
    }
    code, out = sheet(data={"table": "four_sitout", "games": [game]})
    assert code == 0
    assert out["games"] == [
        {"number": 1, "dealer": 0, "sits_out": 0, "points": [0, 210, 80, 40], "won": True}
    ]


def test_a_pair_table_has_two_columns_and_four_seats():
    game = {
        "kind": "played",
        "declarer": 0,
        "bid": 250,
        "columns": [{"meld": 140, "tricks": 160}, {"meld": 20, "tricks": 90}],
    }
    code, out = sheet(data={"table": "pairs", "games": [game] * 5})
    assert code == 0
    assert [g["dealer"] for g in out["games"]] == [0, 1, 2, 3, 0]
    assert out["games"][0]["points"] == [300, 110]  # docs/rules.md pair-table example


def test_an_invalid_sheet_exits_2_naming_every_problem():
    bad_tricks = {
        **GAME_1,
        "columns": [
            {"meld": 60, "tricks": 152},
            {"meld": 20, "tricks": 58},
            {"meld": 0, "tricks": 41},
        ],
    }
    bad_dealer = {**GAME_1, "dealer": 7, "bid": 140}
    code, out = sheet(
        "--lang", "en", data={"table": "three", "games": [GAME_1, bad_tricks, bad_dealer]}
    )
    assert code == 2
    assert out == {
        "errors": [
            {
                "field": "games[1].columns",
                "message": "The tricks of all parties must add up to 250 (now 251).",
            },
            {
                "field": "games[2].dealer",
                "message": "The dealer must be one of the 3 seats at this table.",
            },
            {"field": "games[2].bid", "message": "The bid must be at least 150 (now 140)."},
        ]
    }


def test_shape_errors_are_reported_by_field():
    code, out = sheet(data={"table": "five", "games": {}, "extra": 1})
    assert code == 2
    fields = [e["field"] for e in out["errors"]]
    assert fields == ["extra", "table", "games"]


def test_a_scorers_sum_that_differs_is_a_warning_and_the_sheet_still_scores():
    game = {**GAME_1, "written": [210, 90, None]}
    code, out = sheet(data={"table": "three", "games": [game]})
    assert code == 0
    assert out["warnings"] == [
        {"field": "games[0].written[1]", "message": "Listenführer 90, berechnet 80."}
    ]


def test_the_command_runs_as_a_module_with_a_rule_set_file(tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"durch_player_deals_next": False}), encoding="utf-8")
    durch = {
        "kind": "durch",
        "declarer": 1,
        "columns": [{"tricks": 0}, {"tricks": 250}, {"tricks": 0}],
    }
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "sheet", "--rules", str(rules)],
        input=json.dumps({"table": "three", "games": [durch, GAME_1]}).encode(),
        capture_output=True,
        cwd=REPO,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert [g["dealer"] for g in out["games"]] == [0, 1]  # the rotation, not the Durch player


def test_a_preset_scores_the_sheet_with_its_rules_not_ejls():
    conceded = {"kind": "conceded", "declarer": 0, "bid": 200, "columns": [{}, {}, {}]}
    _code, ejl = sheet(data={"table": "three", "games": [conceded]})
    code, klassisch = sheet("--preset", "klassisch", data={"table": "three", "games": [conceded]})
    assert code == 0
    assert ejl["games"][0]["points"] == [-200, 100, 100]  # opponents ceil10(bid / 2)
    assert klassisch["games"][0]["points"] == [-200, 30, 30]  # 10 per player at a 3-table


def test_an_unknown_preset_exits_2_naming_it():
    code, out = sheet("--preset", "nope", data={"table": "three", "games": []})
    assert code == 2
    assert out["errors"][0]["field"] == "preset"
