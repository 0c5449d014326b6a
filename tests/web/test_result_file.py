"""The open result file through the database: every kind an evening writes follows the schema
and checks out; written, taken into an empty database and written again it is the same file
(every preset and the 002 switches; Einzel and Paare; 3-, 4- and pair tables; a withdrawal, a
correction, a substitute pair); a file for the public names nobody who declined; an entries file
registers with the waiting list and consent; a file that does not check out stores nothing; an
evening taken in is read-only; the example of the docs, made by hand, comes in."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from binokel_tournament.exports.result_file import ResultFileExporter, document, to_bytes
from binokel_tournament.models import (
    Entrant,
    Mode,
    PartyResult,
    ScoreSheet,
    Tournament,
    WaitingRegistration,
)
from binokel_tournament.services.access import NotAllowed
from binokel_tournament.services.evening.registration import (
    create_tournament,
    register_entrant,
    update_entrant,
)
from binokel_tournament.services.evening.seating import generate_seating, replan_seating
from binokel_tournament.services.evening.simulation import simulate_round
from binokel_tournament.services.evening.standings import compute_standings
from binokel_tournament.services.imports import ResultRefused, import_result
from binokel_tournament.services.money.prizes import add_prize
from binokel_tournament.services.server.integrity import rescore_mismatches
from binokel_tournament.services.sheets.writer import save_sheet
from scoring import result_file
from tests.scoring.test_result_file import example
from tests.support import start_round

from .support import empty_the_database

pytestmark = pytest.mark.django_db

PRESETS = ("ejl", "klassisch", "preisbinokel", "dabb", "luxusfamilie")
SWITCHES_002 = {  # the regional switches of seed 002 on top of ejl
    "aufgelegt_bettel": {"game_kinds": ["played", "conceded", "durch", "aufgelegt", "bettel"]},
    "lost_bid_plus_100": {"lost_factor": 1, "lost_extra": 100},
}


def played_evening(preset: str = "ejl", rules_json: dict | None = None) -> Tournament:
    """Two rounds of Einzel (ten players: 3- and 4-tables) and Paare (three pairs and a
    substitute pair out of competition), with money and prizes, one player withdrawn after
    round 1, one correction of a confirmed sheet."""
    t = create_tournament(
        f"Abend {preset}",
        rounds=2,
        preset=preset,
        rules_json=rules_json or {},
        entry_fee_cents=800,
        fee_per_player=True,
        donation_tiers=[[1, 50], [4, 100]],
        town="Esslingen",
        organiser_club="CVJM Esslingen",
    )
    singles, pairs = t.competitions.get(mode=Mode.SINGLES), t.competitions.get(mode=Mode.PAIRS)
    for i in range(10):
        e = register_entrant(singles, f"Spielerin {i + 1}", club="CVJM" if i % 2 else "")
        if i == 3:
            update_entrant(e, public_name=False)
    for i in range(3):
        register_entrant(pairs, f"Paar {i + 1} A", f"Paar {i + 1} B")
    register_entrant(pairs, "Ersatz A", "Ersatz B", unranked=True)  # fills a table
    for c in (singles, pairs):
        generate_seating(c)
    add_prize(singles, None, "Präsentkorb", 3000)
    simulate_round(t.round_set.get(number=1), None, seed=1)
    # a correction of a confirmed sheet: the scorer's figure of game 1, column 1
    sheets = ScoreSheet.objects.filter(table__round__number=1, table__round__tournament=t)
    sheet = sheets.filter(status="confirmed").first()
    save_sheet(sheet.table, {**sheet.entries, "g1-c1-written": "1"}, None, sheet.version)
    withdrawn = singles.entrants.get(start_number=2)
    update_entrant(withdrawn, withdrawn=True)
    replan_seating(singles)
    start_round(t.round_set.get(number=2))
    simulate_round(t.round_set.get(number=2), None, seed=2)
    return t


def places(t: Tournament) -> dict[str, list[tuple[int, int, int | None]]]:
    return {
        c.mode: [(r.entrant.start_number, r.total, r.place) for r in compute_standings(c).rows]
        for c in t.competitions.order_by("mode")
    }


def written(t: Tournament, kind: str = "results", public: bool = False) -> bytes:
    return to_bytes(document(t, kind, public))


@pytest.mark.parametrize(
    ("preset", "rules_json"),
    [
        # the quick tier takes the first preset; the whole suite every one and each switch
        pytest.param(p, None, id=p, marks=() if p == PRESETS[0] else pytest.mark.slow)
        for p in PRESETS
    ]
    + [pytest.param("ejl", s, id=k, marks=pytest.mark.slow) for k, s in SWITCHES_002.items()],
)
def test_written_taken_in_and_written_again_is_the_same_file(preset, rules_json):
    t = played_evening(preset, rules_json)
    first = written(t)
    doc = json.loads(first)
    report = result_file.check(doc)
    assert report.ok, report.problems[:3]
    kinds = {tb["kind"] for r in doc["rounds"] for tb in r["tables"]}
    assert kinds == {"three", "four_sitout", "pairs"}
    assert doc["withdrawals"] == [{"competition": "singles", "start_number": 2, "after_round": 1}]
    assert [c["game"] for c in doc["corrections"]] == [1]
    assert any(p.get("unranked") for p in doc["players"])
    standings = {
        c.mode: [(r.entrant.start_number, r.total, r.place) for r in compute_standings(c).rows]
        for c in t.competitions.all()
    }
    empty_the_database()
    done = import_result(first, None)
    assert done.tournament.read_only and done.kind == "results"
    assert written(done.tournament) == first
    again = done.tournament
    assert {
        c.mode: [(r.entrant.start_number, r.total, r.place) for r in compute_standings(c).rows]
        for c in again.competitions.all()
    } == standings
    assert rescore_mismatches(again) == []


def test_every_kind_follows_the_schema_and_the_invitation_and_entries_check_out():
    t = played_evening()
    WaitingRegistration.objects.create(
        tournament=t,
        competition=t.competitions.get(mode=Mode.SINGLES),
        name="Wanda Warte",
        email="wanda@example.org",
        public_name=True,
    )
    for kind in result_file.KINDS:
        for public in (False, True):
            doc = json.loads(written(t, kind, public))
            assert result_file.validate(doc) == [], (kind, public)
            assert result_file.check(doc).ok, (kind, public)
    entries = json.loads(written(t, "entries"))
    assert entries["players"][-1] == {
        "competition": "singles",
        "status": "waiting",
        "public": True,
        "name": {"full": "Wanda Warte"},
    }


def test_a_file_for_the_public_names_nobody_who_declined_and_no_file_holds_secrets():
    t = played_evening()
    declined = t.entrants.get(public_name=False)
    public = json.loads(written(t, "results", public=True))
    row = next(p for p in public["players"] if p["start_number"] == declined.start_number)
    assert row == {"competition": "singles", "start_number": declined.start_number, "public": False}
    text = written(t, "results", public=True).decode()
    assert declined.name not in text
    for kind in result_file.KINDS:
        text = written(t, kind).decode()
        assert "@" not in text  # no e-mail address
        for table in t.round_set.get(number=1).tables.all():
            assert table.entry_token not in text
        for link in declined.personal_links.all():
            assert link.token not in text and link.code not in text


def test_an_entries_file_registers_with_the_waiting_list_and_consent():
    t = played_evening()
    WaitingRegistration.objects.create(
        tournament=t, competition=t.competitions.get(mode=Mode.SINGLES), name="Wanda Warte"
    )
    entries = written(t, "entries")
    numbers = sorted(t.entrants.values_list("start_number", flat=True))
    declined = t.entrants.get(public_name=False).start_number
    empty_the_database()
    done = import_result(entries, None)
    assert done.kind == "entries" and done.waiting == 1
    here = done.tournament
    assert sorted(here.entrants.values_list("start_number", flat=True)) == numbers
    assert not here.entrants.get(start_number=declined).public_name
    assert here.waiting_registrations.get().name == "Wanda Warte"
    assert not here.read_only
    # the same entries again register nobody twice
    again = import_result(entries, None)
    assert again.tournament == here and again.entrants == 0


def test_a_file_that_does_not_check_out_stores_nothing():
    t = played_evening()
    doc = json.loads(written(t))
    doc["rounds"][0]["tables"][0]["games"][0]["points"][0] += 10
    empty_the_database()
    with pytest.raises(ResultRefused) as refused:
        import_result(json.dumps(doc).encode(), None)
    assert "Durchgang 1, Tisch 1, Spiel 1: Punkte" in refused.value.message
    assert not Tournament.objects.exists() and not Entrant.objects.exists()
    with pytest.raises(CommandError, match="kein gültiges JSON"):
        call_command("import_result", "/dev/null")  # not even JSON


def test_an_evening_taken_in_is_read_only():
    t = played_evening()
    data = written(t)
    empty_the_database()
    from tests.web.support import organiser_account

    anna = organiser_account("anna")
    done = import_result(data, anna)  # anna made it: its organiser
    entrant = done.tournament.entrants.first()
    with pytest.raises(NotAllowed, match="Ergebnisdatei"):
        update_entrant(entrant, anna, club="Neu")
    sheet = ScoreSheet.objects.filter(table__round__tournament=done.tournament).first()
    with pytest.raises(NotAllowed):
        save_sheet(sheet.table, {**sheet.entries, "g1-bid": "500"}, anna, sheet.version)
    assert PartyResult.objects.filter(entrant__tournament=done.tournament).exists()


def test_the_example_of_the_docs_made_by_hand_comes_in_and_is_written_out_again():
    done = import_result(json.dumps(example()).encode(), None)
    t = done.tournament
    assert t.name == "Probeabend" and t.read_only and t.entrants.count() == 3
    doc = document(t, "results")
    assert doc["generator"]["program"] == "binokel-tournament"
    assert result_file.check(doc).ok
    hand = example()
    for key in ("rounds", "standings", "players", "money", "event"):
        assert doc[key] == hand[key], key


def test_extensions_are_kept_when_the_file_is_read_and_written_again():
    doc = example()
    # in an order no database sorts them into (PostgreSQL's jsonb sorts keys by length)
    doc["extensions"] = {"skatfreund": {"tische": [1, 2], "farbe": "grün"}, "ab": {"zz": 1, "a": 2}}
    done = import_result(json.dumps(doc).encode(), None)
    again = to_bytes(document(Tournament.objects.get(pk=done.tournament.pk), "results"))
    assert json.loads(again)["extensions"] == doc["extensions"]
    written = again.decode()
    assert written.index('"tische"') < written.index('"farbe"') < written.index('"zz"')
    assert written.index('"skatfreund"') < written.index('"ab"')


def test_the_commands_write_check_and_take_in_a_file(tmp_path, capsys):
    t = played_evening()
    out = tmp_path / "abend.json"
    call_command("export_result", "--tournament", t.slug, "--out", str(out))
    from scoring.cli import main

    assert main(["check-result", str(out)]) == 0
    empty_the_database()
    call_command("import_result", str(out))
    assert Tournament.objects.get().read_only
    exporter = ResultFileExporter(Tournament.objects.get(), "results")
    assert exporter.render().content == out.read_bytes()


def test_one_prize_per_person_travels_with_the_file_only_where_it_is_on():
    """Issue 36: the club's setting decides who wins the special prizes, so the evening taken
    in elsewhere keeps it; a file of an evening without it has no such field (the same bytes
    as before the setting existed)."""
    t = played_evening()
    assert "one_prize_per_person" not in json.loads(written(t))["event"]
    Tournament.objects.filter(pk=t.pk).update(one_prize_per_person=True)
    t.refresh_from_db()
    first = written(t)
    doc = json.loads(first)
    assert doc["event"]["one_prize_per_person"] is True
    assert result_file.check(doc).ok
    empty_the_database()
    again = import_result(first, None).tournament
    assert again.one_prize_per_person is True
    assert written(again) == first
