"""``python -m pairing``: plan, check and replan print JSON; errors exit 2 with field messages."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pairing import Plan
from scoring.errors import translate
from tests.pairing.pairing_support import known_best, repeats

# slow: the command line in processes of its own (make check leaves it out)
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]


def cli(*args, stdin=None):
    done = subprocess.run(
        [sys.executable, "-m", "pairing", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        input=stdin,
        timeout=120,
    )
    return done.returncode, json.loads(done.stdout) if done.stdout.strip() else None


@pytest.mark.parametrize("n", [10, 11, 13, 30, 301])
def test_plan_then_check_shows_the_known_best(n, tmp_path):
    code, data = cli("plan", "--mode", "singles", "--entrants", str(n))
    assert code == 0
    assert data["mode"] == "singles" and [r["number"] for r in data["rounds"]] == [1, 2, 3]
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(data))
    code, quality = cli("check", str(path))
    assert code == 0
    assert set(quality) == {"R", "F", "S", "C"}
    r, f = known_best(n)
    assert quality["R"] == {"value": r, "bound": r}
    assert quality["F"]["value"] == quality["F"]["bound"]
    if f is not None:
        assert quality["F"]["value"] == f
    assert quality["S"] == {"value": 0, "bound": 0}


def test_pairs_start_numbers_rounds_and_seed(tmp_path):
    code, data = cli(
        "plan",
        "--mode",
        "pairs",
        "--start-numbers",
        "2,4,6,8,10,12",
        "--rounds",
        "5",
        "--seed",
        "3",
    )
    assert code == 0
    plan = Plan.from_dict(data)
    assert len(plan.rounds) == 5
    assert all(r.entrants() == {2, 4, 6, 8, 10, 12} for r in plan.rounds)
    assert repeats(plan) == 0  # 6 pairs: 5 rounds of a round-robin


@pytest.mark.parametrize("form", ["json", "csv"])
def test_clubs_come_from_json_or_csv(form, tmp_path):
    clubs = {n: f"Verein {n % 3}" for n in range(1, 13)}
    path = tmp_path / f"clubs.{form}"
    if form == "json":
        path.write_text(json.dumps({str(k): v for k, v in clubs.items()}))
    else:
        path.write_text("start_number,club\n" + "".join(f"{k},{v}\n" for k, v in clubs.items()))
    code, data = cli("plan", "--mode", "singles", "--entrants", "12", "--clubs", str(path))
    assert code == 0
    for table in data["rounds"][0]["tables"]:
        assert len({clubs[s] for s in table["seats"]}) == 3
    plan_path = tmp_path / "plan.json"
    plan_path.write_text(json.dumps(data))
    code, quality = cli("check", str(plan_path), "--clubs", str(path))
    assert quality["C"] == {"value": 0, "bound": 0}


def test_replan_keeps_played_rounds_and_check_reports_d(tmp_path):
    code, data = cli("plan", "--mode", "singles", "--entrants", "30")
    before = tmp_path / "before.json"
    before.write_text(json.dumps(data))
    code, after = cli(
        "replan", "--plan", str(before), "--played", "1", "--withdraw", "5,17", "--add", "46"
    )
    assert code == 0
    assert after["rounds"][0] == data["rounds"][0]
    seated = {s for t in after["rounds"][2]["tables"] for s in t["seats"]}
    assert seated == (set(range(1, 31)) - {5, 17}) | {46}
    after_path = tmp_path / "after.json"
    after_path.write_text(json.dumps(after))
    code, quality = cli("check", str(after_path), "--base", str(before), "--played", "1")
    assert code == 0
    assert quality["R"] == {"value": 0, "bound": 0}
    assert quality["D"]["value"] >= quality["D"]["bound"]


def test_a_plan_can_be_read_from_stdin():
    code, data = cli("plan", "--mode", "singles", "--entrants", "9")
    code, quality = cli("check", "-", stdin=json.dumps(data))
    assert code == 0 and quality["R"] == {"value": 0, "bound": 0}


def test_errors_exit_2_in_german_by_default_and_english_on_request():
    code, data = cli("plan", "--mode", "singles", "--entrants", "5")
    assert code == 2
    (error,) = data["errors"]
    msgid = (
        "5 entrants cannot be seated at 3-tables and 4-tables. Add an unranked substitute "
        "(außer Konkurrenz) to make 6."
    )
    assert error == {"field": "entrants", "message": translate(msgid, "de")}
    code, data = cli("plan", "--mode", "pairs", "--entrants", "7", "--lang", "en")
    assert code == 2
    assert data["errors"][0]["field"] == "entrants"
    assert "außer Konkurrenz" in data["errors"][0]["message"]


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["plan", "--mode", "trios", "--entrants", "9"], "arguments"),
        (["plan", "--mode", "singles"], "entrants"),
        (["plan", "--mode", "singles", "--start-numbers", "1,2,x"], "start_numbers"),
        (["check", "/nonexistent/plan.json"], "file"),
        (["replan", "--plan", "/nonexistent/plan.json", "--played", "1"], "plan"),
    ],
)
def test_bad_input_names_the_field(args, field):
    code, data = cli(*args, "--lang", "en")
    assert code == 2
    assert data["errors"][0]["field"] == field


def test_a_malformed_plan_file_is_reported(tmp_path):
    path = tmp_path / "plan.json"
    path.write_text('{"mode": "singles", "rounds": [{"number": 1, "tables": []}]}')
    code, data = cli("check", str(path), "--lang", "en")
    assert code == 2
    assert data["errors"][0]["field"] == "rounds[0].tables"


def test_every_bad_start_number_is_reported_at_once():
    code, data = cli("plan", "--mode", "singles", "--start-numbers", "1,2,0,-4,x,2", "--lang", "en")
    assert code == 2
    assert data["errors"] == [
        {"field": "start_numbers", "message": "Start number 0 is not positive."},
        {"field": "start_numbers", "message": "Start number -4 is not positive."},
        {"field": "start_numbers", "message": "x is not a whole number."},
        {"field": "start_numbers", "message": "Start number 2 appears twice."},
    ]


def test_a_huge_field_is_refused_at_once():
    start = time.perf_counter()
    code, data = cli("plan", "--mode", "singles", "--entrants", "60000", "--lang", "en")
    assert time.perf_counter() - start < 20
    assert code == 2
    (error,) = data["errors"]
    assert error["field"] == "entrants"
    assert "at most 2000" in error["message"]


def test_adding_an_entrant_who_is_seated_already_is_refused(tmp_path):
    code, data = cli("plan", "--mode", "singles", "--entrants", "12")
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(data))
    code, data = cli(
        "replan", "--plan", str(path), "--played", "1", "--add", "3,13,13", "--lang", "en"
    )
    assert code == 2
    assert data["errors"] == [
        {"field": "add", "message": "Start number 13 appears twice."},
        {"field": "add", "message": "Start number 3 is already seated in round 2."},
    ]
    code, data = cli("replan", "--plan", str(path), "--played", "1", "--add", "3", "--lang", "en")
    assert code == 2
    assert data["errors"] == [
        {"field": "add", "message": "Start number 3 is already seated in round 2."},
    ]


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("clubs.csv", "start_number,club\n1,TSV A\n2,TSV B\n1,TSV C\n"),
        ("clubs.json", '{"1": "TSV A", "2": "TSV B", "01": "TSV C"}'),
    ],
)
def test_a_start_number_listed_twice_in_the_clubs_is_refused(name, text, tmp_path):
    path = tmp_path / name
    path.write_text(text)
    code, data = cli(
        "plan", "--mode", "singles", "--entrants", "9", "--clubs", str(path), "--lang", "en"
    )
    assert code == 2
    assert data["errors"] == [{"field": "clubs", "message": "Start number 1 appears twice."}]
