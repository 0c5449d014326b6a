"""The open result file's checker, in the engine alone: the example of docs/result-format.md
checks out; a changed point, meld, total or rank, a missing game, a wrong donation and a file of a
higher version are found and named; the command says so in German or English."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from scoring import result_file
from scoring.cli import main
from scoring.errors import ScoringError
from scoring.ranking import Entry, places

DOCS = Path(__file__).resolve().parents[2] / "docs"


def example() -> dict:
    """The complete small example of docs/result-format.md (its only JSON block)."""
    text = (DOCS / "result-format.md").read_text(encoding="utf-8")
    block = re.search(r"```json\n(.*?)\n```", text, re.S)
    assert block is not None
    return json.loads(block.group(1))


def problems(doc: dict, lang: str = "de") -> list[str]:
    return [p.text(lang) for p in result_file.check(doc, lang).problems]


def test_the_schema_in_the_docs_is_the_checkers():
    linked = DOCS / "result-format" / "binokel-result-1.schema.json"
    assert json.loads(linked.read_text()) == result_file.schema()


def test_the_example_in_the_docs_checks_out():
    report = result_file.check(example())
    assert report.ok, report.problems
    assert (report.rounds, report.tables, report.games, report.players) == (1, 1, 12, 3)
    assert report.donations


def test_a_changed_point_is_named_with_round_table_game_and_both_values():
    doc = example()
    doc["rounds"][0]["tables"][0]["games"][2]["points"][1] += 10
    (found,) = problems(doc)
    assert found.startswith("Durchgang 1, Tisch 1, Spiel 3: Punkte")
    assert "erwartet" in found and "eingetragen" in found


def test_a_changed_meld_changes_the_games_points_the_totals_and_the_standings():
    doc = example()
    game = doc["rounds"][0]["tables"][0]["games"][0]
    game["columns"][1]["meld"] += 20
    found = problems(doc)
    assert found[0].startswith("Durchgang 1, Tisch 1, Spiel 1: Punkte")
    assert any("Summen" in p for p in found) and any("Rangliste" in p for p in found)


def test_a_wrong_total_and_a_wrong_place_are_found():
    doc = example()
    rows = doc["standings"][0]["rows"]
    rows[0]["total"] -= 10
    assert problems(doc) == [
        f"Rangliste, Startnummer {rows[0]['start_number']}: Summe {rows[0]['total'] + 10} "
        f"erwartet, {rows[0]['total']} eingetragen."
    ]
    doc = example()
    rows = doc["standings"][0]["rows"]
    rows[0]["rank"], rows[1]["rank"] = rows[1]["rank"], rows[0]["rank"]
    assert len(problems(doc)) == 2 and "Platz 1. erwartet, 2. eingetragen" in problems(doc)[0]


def test_a_missing_game_of_a_confirmed_sheet_is_found():
    doc = example()
    doc["rounds"][0]["tables"][0]["games"][11] = None
    assert "auf dem bestätigten Zettel fehlt Spiel 12" in problems(doc)[0]


def test_a_wrong_donation_and_a_wrong_evening_total_are_found():
    doc = example()
    doc["money"]["donations"][0]["cents"] += 50
    doc["money"]["total_cents"] += 1
    found = problems(doc)
    assert any(p.startswith("Spenden, Startnummer") for p in found)
    assert any(p.startswith("Summe des Abends") for p in found)


def test_a_file_of_a_higher_major_version_is_refused_with_a_clear_message():
    doc = example()
    doc["version"] = "2.0"
    with pytest.raises(ScoringError) as refused:
        result_file.read(json.dumps(doc).encode())
    text = refused.value.errors[0].text("de")
    assert "Version 2.0" in text and "bis 1.0" in text
    doc["version"] = "1.7"  # a later 1.x: read as far as 1.0 goes
    assert result_file.read(json.dumps(doc).encode())["version"] == "1.7"


def test_what_the_schema_refuses_is_named_by_its_place():
    doc = example()
    del doc["players"][0]["start_number"]
    doc["rounds"][0]["tables"][0]["kind"] = "five"
    found = {p.field for p in result_file.check(doc).problems}
    assert {"players[0]", "rounds[0].tables[0].kind"} <= found


def test_no_file_carries_an_email_address_a_token_or_a_code():
    doc = example()
    doc["players"][0]["email"] = "anna@example.org"
    assert result_file.check(doc).problems


def test_extensions_of_other_programs_are_allowed():
    doc = example()
    doc["extensions"] = {"skatfreund": {"tisch_farbe": "grün"}}
    doc["players"][0]["ids"] = {"club:CVJM": "0042"}
    assert result_file.check(doc).ok


def test_the_command_exits_0_1_or_2_and_speaks_german_or_english(tmp_path, capsys):
    good = tmp_path / "gut.json"
    good.write_text(json.dumps(example()))
    assert main(["check-result", str(good)]) == 0
    assert capsys.readouterr().out.startswith("Die Datei stimmt.")
    bad = copy.deepcopy(example())
    bad["rounds"][0]["tables"][0]["games"][0]["points"][0] += 10
    wrong = tmp_path / "falsch.json"
    wrong.write_text(json.dumps(bad))
    assert main(["--lang", "en", "check-result", str(wrong), "--json"]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert answer["ok"] is False and answer["problems"][0]["message"].startswith(
        "Round 1, table 1, game 1: points"
    )
    other = tmp_path / "anders.json"
    other.write_text('{"format": "skat"}')
    assert main(["check-result", str(other)]) == 2
    assert "keine binokel-result-Datei" in capsys.readouterr().out


def test_places_share_a_place_only_when_every_value_is_equal():
    entries = [
        Entry("a", 1, (500, 3, 200)),
        Entry("b", 2, (500, 3, 200)),
        Entry("c", 3, (500, 4, 100)),
        Entry("d", 4, (400, 9, 400)),
        Entry("e", 5, (900, 0, 0), unranked=True),
    ]
    placed = {e.key: p.label for e, p in places(entries)}
    assert placed == {"c": "1.", "a": "2. =", "b": "2. =", "d": "4.", "e": ""}
