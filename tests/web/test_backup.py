"""Backups: the whole tournament as one JSON document; restore into an empty or a busy
database; the automatic backups after confirmed sheets and seating changes; the desk's
download and upload (organisers only)."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from binokel_tournament.models import (
    AuditLog,
    Membership,
    Mode,
    PartyResult,
    Role,
    ScoreSheet,
    SheetStatus,
    Table,
    Tournament,
)
from binokel_tournament.services.demo import create_demo
from binokel_tournament.services.evening.seating import replan_seating
from binokel_tournament.services.evening.standings import compute_standings
from binokel_tournament.services.server import backup
from binokel_tournament.services.server.backup import BackupError, backup_bytes, restore
from binokel_tournament.services.server.integrity import rescore_mismatches
from binokel_tournament.services.sheets.writer import save_sheet

from .desk_urls import first_three_table
from .sheets import full_three_table
from .support import empty_the_database

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo() -> Tournament:
    tournament, _created = create_demo(singles=13, pairs=4, scored_rounds=2)
    return tournament


def standings_summary(t: Tournament) -> dict[str, list[tuple[int, int, int | None]]]:
    return {
        c.mode: [(r.entrant.start_number, r.total, r.place) for r in compute_standings(c).rows]
        for c in t.competitions.order_by("mode")
    }


def test_backup_restore_into_an_empty_database_backup_gives_the_same_bytes(demo):
    first = backup_bytes(demo)
    standings = standings_summary(demo)
    empty_the_database()
    result = restore(first)
    assert sorted(result.created_users) == ["kasse", "orga"]
    second = backup_bytes(result.tournament)
    assert second == first
    assert standings_summary(result.tournament) == standings
    assert rescore_mismatches(result.tournament) == []
    orga = get_user_model().objects.get(username="orga")
    assert orga.check_password("binokel")  # same accounts, same passwords
    assert Membership.objects.get(user=orga).role == Role.ORGANISER


def test_the_document_holds_the_whole_tournament(demo):
    document = json.loads(backup_bytes(demo))
    assert document["format"] == "binokel-backup" and document["version"] == 1
    assert document["tournament"]["slug"] == demo.slug
    assert {c["mode"] for c in document["competitions"]} == {"singles", "pairs"}
    assert len(document["entrants"]) == 17
    assert len(document["tables"]) == demo.round_set.get(number=1).tables.count() * 3
    confirmed = [s for s in document["sheets"] if s["status"] == SheetStatus.CONFIRMED]
    assert confirmed and all(s["version"] >= 1 and len(s["games"]) >= 12 for s in confirmed)
    assert {m["user"]: m["role"] for m in document["members"]} == {
        "orga": "organiser",
        "kasse": "helper",
    }
    assert any(a["action"] == "seating.generate" for a in document["audit"])
    assert all("password" in u for u in document["users"])
    assert "id" not in document["entrants"][0]  # natural keys, never database ids


def test_restore_into_a_busy_database_under_a_new_slug(demo):
    data = backup_bytes(demo)
    with pytest.raises(BackupError, match="schon ein Turnier"):
        restore(data)
    copy = restore(data, slug="demo-kopie").tournament
    assert copy.slug == "demo-kopie" and Tournament.objects.count() == 2
    assert standings_summary(copy) == standings_summary(demo)
    # the sheet history points at the copy's own sheets
    sheet = ScoreSheet.objects.filter(table__round__tournament=copy).first()
    assert AuditLog.objects.filter(
        tournament=copy, object_type="ScoreSheet", object_id=str(sheet.pk)
    )
    again = json.loads(backup_bytes(copy))
    original = json.loads(data)
    again["tournament"]["slug"] = original["tournament"]["slug"]
    # a copy beside its original has a name of its own (the list shows both)
    assert again["tournament"]["name"] == f"{demo.name} (Kopie demo-kopie)"
    again["tournament"]["name"] = original["tournament"]["name"]
    # a copy is an evening of its own in result files
    assert again["tournament"].pop("event_id") != original["tournament"].pop("event_id")
    # the copy's tables have phone links of their own (the original's stay with the original)
    mine = [t.pop("entry_token") for t in again["tables"]]
    theirs = [t.pop("entry_token") for t in original["tables"]]
    assert not set(mine) & set(theirs)
    # a copy counts for no cup (the evening would count twice)
    assert again.pop("series") == [] and original.pop("series")
    assert again == original


def test_a_backup_from_before_an_update_still_restores(demo):
    """Last week's backup lacks the fields added since (table links, the charity settings):
    they take their defaults; everything the backup holds comes back."""
    document = json.loads(backup_bytes(demo))
    for name in ("table_entry", "provisional_table_sheets", "entry_fee_cents"):
        document["tournament"].pop(name)
    for table in document["tables"]:
        table.pop("entry_token")
    copy = restore(json.dumps(document).encode(), slug="vom-letzten-jahr").tournament
    assert copy.table_entry and not copy.provisional_table_sheets and copy.entry_fee_cents == 0
    assert standings_summary(copy) == standings_summary(demo)
    tokens = list(
        Table.objects.filter(round__tournament=copy).values_list("entry_token", flat=True)
    )
    assert len(set(tokens)) == len(tokens) and all(tokens)  # every table a new link of its own


def test_a_backup_written_while_the_file_parts_were_a_json_field_restores(demo):
    """Backups written between the result file's first version and the next held the parts of
    a taken-in evening as a JSON object ({} for an evening played here)."""
    document = json.loads(backup_bytes(demo))
    document["tournament"]["imported"] = {}
    copy = restore(json.dumps(document).encode(), slug="json-feld").tournament
    assert copy.imported == "" and copy.imported_parts == {}
    document["tournament"]["imported"] = {"corrections": [], "extensions": {"b": 1, "a": 2}}
    again = restore(json.dumps(document).encode(), slug="json-feld-2").tournament
    assert list(again.imported_parts["extensions"]) == ["b", "a"]


@pytest.mark.parametrize(
    "spoil",
    [
        lambda d: b"not json",
        lambda d: json.dumps({"format": "other"}).encode(),
        lambda d: json.dumps({**d, "version": 99}).encode(),
        lambda d: json.dumps({**d, "entrants": d["entrants"] + [{"oops": 1}]}).encode(),
        lambda d: json.dumps({**d, "tournament": {**d["tournament"], "rounds": "drei"}}).encode(),
        lambda d: json.dumps({**d, "tournament": {**d["tournament"], "name": "x\u0000"}}).encode(),
        lambda d: json.dumps(
            {**d, "sheets": [{**d["sheets"][0], "table": [9, 9]}, *d["sheets"][1:]]}
        ).encode(),
        lambda d: json.dumps(  # points that the games do not give
            {
                **d,
                "sheets": [
                    {
                        **d["sheets"][0],
                        "games": [
                            {
                                **d["sheets"][0]["games"][0],
                                "parties": [
                                    {**p, "points": p["points"] + 10}
                                    for p in d["sheets"][0]["games"][0]["parties"]
                                ],
                            },
                            *d["sheets"][0]["games"][1:],
                        ],
                    },
                    *d["sheets"][1:],
                ],
            }
        ).encode(),
        lambda d: b"[" * 100_000,
    ],
    ids=[
        "not-json",
        "other-format",
        "other-version",
        "unknown-field",
        "bad-number",
        "nul",
        "missing-table",
        "points-off",
        "deep",
    ],
)
def test_a_broken_backup_is_refused_and_changes_nothing(demo, spoil):
    document = json.loads(backup_bytes(demo))
    tournaments, users, audit = (
        Tournament.objects.count(),
        get_user_model().objects.count(),
        AuditLog.objects.count(),
    )
    with pytest.raises(BackupError):
        restore(spoil(document), slug="kaputt")
    assert Tournament.objects.count() == tournaments
    assert get_user_model().objects.count() == users and AuditLog.objects.count() == audit


def test_the_commands_write_and_read_a_backup(demo, tmp_path):
    out = tmp_path / "demo.json"
    text = StringIO()
    call_command("backup", "--out", str(out), stdout=text)  # --tournament: only one here
    assert out.read_bytes() == backup_bytes(demo) and "Bytes" in text.getvalue()
    with pytest.raises(CommandError, match="schon ein Turnier"):
        call_command("restore", str(out), stdout=StringIO())
    call_command("restore", str(out), "--as", "zweiter-laptop", stdout=text)
    assert "zweiter-laptop" in text.getvalue()
    copy = Tournament.objects.get(slug="zweiter-laptop")  # told apart from its original
    assert copy.name == f"{demo.name} (Kopie zweiter-laptop)" and copy.date == demo.date
    call_command(
        "backup", "--tournament", "zweiter-laptop", "--out", str(tmp_path / "b.json"), stdout=text
    )
    with pytest.raises(CommandError, match="Mehrere Turniere"):
        call_command("backup", "--out", str(tmp_path / "c.json"), stdout=text)
    with pytest.raises(CommandError):
        call_command("restore", str(tmp_path / "missing.json"), stdout=text)


def test_an_automatic_backup_follows_every_change_drafts_included(
    seated, orga, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.BACKUP_DIR = tmp_path
    settings.BACKUP_KEEP = 2
    table = seated.round_set.get(number=1).tables.get(pk=first_three_table(seated))
    with django_capture_on_commit_callbacks(execute=True):
        save_sheet(table, full_three_table(3), orga, expected_version=0)  # a draft
    drafted = backup.list_backups(seated.slug)
    assert [s["status"] for s in json.loads(drafted[0].read_bytes())["sheets"]] == ["draft"]
    with django_capture_on_commit_callbacks(execute=True):
        save_sheet(table, full_three_table(), orga, expected_version=1, confirm=True)
    newest = backup.list_backups(seated.slug)
    assert len(newest) == 2  # BACKUP_KEEP, all within ten minutes
    restored = json.loads(newest[0].read_bytes())
    assert [s["status"] for s in restored["sheets"]] == ["confirmed"]
    for seed in (1, 2):
        with django_capture_on_commit_callbacks(execute=True):
            replan_seating(seated.competitions.get(mode=Mode.PAIRS), seed=seed, user=orga)
    kept = backup.list_backups(seated.slug)
    assert len(kept) == 2 and kept[0].name > kept[1].name  # the newest two, newest first
    assert not [p for p in Path(tmp_path, seated.slug).iterdir() if p.suffix == ".tmp"]


def test_a_backup_that_holds_the_change_already_is_not_written_twice(seated, settings, tmp_path):
    settings.BACKUP_DIR = tmp_path
    import time

    before = time.time()
    assert backup.write_auto_backup(seated.pk, since=before) is not None
    assert backup.write_auto_backup(seated.pk, since=before) is None
    assert len(backup.list_backups(seated.slug)) == 1


def test_the_newest_automatic_backup_continues_the_evening_on_a_second_laptop(
    seated, orga, kasse, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.BACKUP_DIR = tmp_path
    tables = list(seated.round_set.get(number=1).tables.filter(kind="three").order_by("number"))
    with django_capture_on_commit_callbacks(execute=True):
        save_sheet(tables[0], full_three_table(), kasse, expected_version=0, confirm=True)
    with django_capture_on_commit_callbacks(execute=True):
        save_sheet(tables[1], full_three_table(), kasse, expected_version=0, confirm=True)
    newest = backup.list_backups(seated.slug)[0]
    standings = standings_summary(seated)
    empty_the_database()
    call_command("restore", str(newest), stdout=StringIO())
    t = Tournament.objects.get()
    assert standings_summary(t) == standings
    third = t.round_set.get(number=1).tables.filter(kind="three").order_by("number")[2]
    kasse = get_user_model().objects.get(username="kasse")
    save_sheet(third, full_three_table(), kasse, expected_version=0, confirm=True)
    assert ScoreSheet.objects.filter(status=SheetStatus.CONFIRMED).count() == 3
    assert PartyResult.objects.count() == 3 * 12 * 3


def test_the_desk_downloads_and_uploads_backups_for_organisers_only(client, seated, orga, kasse):
    client.force_login(kasse)
    assert client.get(f"/desk/{seated.slug}/sicherung/herunterladen/").status_code == 403
    client.force_login(orga)
    response = client.get(f"/desk/{seated.slug}/sicherung/herunterladen/")
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    data = b"".join(response.streaming_content) if response.streaming else response.content
    assert json.loads(data)["tournament"]["slug"] == seated.slug
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("backup.json", data, content_type="application/json")
    response = client.post("/desk/sicherung-einspielen/", {"file": upload, "slug": "vom-stick"})
    assert response.status_code == 302 and "/desk/vom-stick/" in response["Location"]
    copy = Tournament.objects.get(slug="vom-stick")
    assert Membership.objects.get(tournament=copy, user=orga).role == Role.ORGANISER
    upload = SimpleUploadedFile("backup.json", b"{}", content_type="application/json")
    page = client.post("/desk/sicherung-einspielen/", {"file": upload}, follow=True)
    assert "keine Sicherung" in page.content.decode()
    client.force_login(kasse)
    upload = SimpleUploadedFile("backup.json", data, content_type="application/json")
    assert client.post("/desk/sicherung-einspielen/", {"file": upload}).status_code == 403


@pytest.mark.django_db(transaction=True)
def test_the_server_writes_backups_in_the_background_and_coalesces_a_burst(
    settings, tmp_path, orga, kasse
):
    from .support import make_tournament, member

    settings.BACKUP_DIR = tmp_path
    settings.BACKUP_MIN_INTERVAL = 0
    settings.BACKUP_AUTO = False  # the registrations ask for none
    t = make_tournament(singles=9, pairs=0, modes=[Mode.SINGLES])
    member(t, orga)
    settings.BACKUP_AUTO = True
    settings.BACKUP_IN_BACKGROUND = True
    writer = backup.AutoBackups()
    for _ in range(5):  # five confirmations in a row
        writer.request(t.pk)
    assert writer.flush(timeout=30)
    files = backup.list_backups(t.slug)
    assert 1 <= len(files) <= 2  # the burst shares one backup (a second if it came in late)
    assert json.loads(files[0].read_bytes())["tournament"]["slug"] == t.slug


@pytest.mark.django_db(transaction=True)
def test_under_the_hall_server_a_process_of_its_own_writes_the_backups(
    settings, tmp_path, orga, monkeypatch
):
    import threading

    from .support import make_tournament, member

    settings.BACKUP_DIR = tmp_path
    settings.BACKUP_MIN_INTERVAL = 0
    monkeypatch.setenv(backup.WORKER_ENV, "1")
    t = make_tournament(singles=9, pairs=0, modes=[Mode.SINGLES])
    member(t, orga)
    backup.auto_backups.request(t.pk)  # a web worker only leaves a note
    assert backup.list_backups(t.slug) == []
    note = backup.pending_folder() / str(t.pk)
    assert note.exists()
    stop = threading.Event()
    writer = threading.Thread(target=backup.backup_process_loop, args=(stop, 0.05))
    writer.start()
    try:
        for _ in range(600):  # until the backup is written and the note taken away
            if backup.list_backups(t.slug) and not note.exists():
                break
            stop.wait(0.05)
    finally:
        stop.set()
        writer.join(timeout=30)
    assert len(backup.list_backups(t.slug)) == 1
    assert not (backup.pending_folder() / str(t.pk)).exists()


def test_the_backup_carries_the_money_and_the_prizes(demo):
    """Fees, the donation rule, paid flags, categories, extra donations and the prize table
    with a recorded choice come back as they were (issue 13)."""
    from binokel_tournament.models import Prize
    from binokel_tournament.services.money import charity, prizes

    singles = demo.competitions.get(mode=Mode.SINGLES)
    table = prizes.prize_table(singles)
    prizes.record_choice(table.open_prizes[-1], table.next_chooser, None)
    entrant = demo.entrants.order_by("start_number").first()
    charity.set_paid(entrant, None, donation_paid=True)
    money_before = [(i.entrant.start_number, i.statement) for i in charity.statements(demo)]
    choices_before = sorted(
        Prize.objects.filter(tournament=demo).values_list(
            "description", "chosen_by__start_number", "special", "value_cents"
        )
    )
    document = json.loads(backup_bytes(demo))
    assert {d["description"] for d in document["extra_donations"]} == {"Kuchenverkauf"}
    assert any(p["chosen_by"] is not None for p in document["prizes"])
    assert document["tournament"]["donation_tiers"] == [[1, 50], [5, 100]]
    uids = {p["uid"] for p in document["players"]}
    assert {e["player"] for e in document["entrants"]} <= uids and len(uids) == 13 + 2 * 4
    first = backup_bytes(demo)
    empty_the_database()
    restored = restore(first).tournament
    assert backup_bytes(restored) == first
    assert [(i.entrant.start_number, i.statement) for i in charity.statements(restored)] == (
        money_before
    )
    assert charity.evening(restored).extra_cents == 8550
    assert (
        sorted(
            Prize.objects.filter(tournament=restored).values_list(
                "description", "chosen_by__start_number", "special", "value_cents"
            )
        )
        == choices_before
    )


def test_the_backup_carries_the_tables_phones_and_the_cups(demo):
    """What the tables did on their phones and the cups the evening counts for come back on a
    second laptop; a copy restored beside its original counts for no cup (issues 11, 13)."""
    from django.utils import timezone

    from binokel_tournament.models import Series, TableEntry
    from binokel_tournament.services.money.series import create_series

    table = Table.objects.filter(round__tournament=demo, round__number=3).order_by("number")[0]
    when = timezone.now().replace(microsecond=0)
    TableEntry.objects.create(
        table=table,
        seats_checked_at=when,
        help_requested_at=when,
        last_activity_at=when,
        entries={"g1-declarer": "0", "g1-kind": "normal"},
    )
    cup = create_series("Winter-Cup", None, best=2, require_all=True)
    cup.tournaments.add(demo)
    document = json.loads(backup_bytes(demo))
    assert document["table_entries"] == [
        {
            "confirmed_at": None,
            "confirmed_numbers": [],
            "entries": {"g1-declarer": "0", "g1-kind": "normal"},
            "help_acknowledged_at": None,
            "help_requested_at": when.isoformat(),
            "last_activity_at": when.isoformat(),
            "seats_checked_at": when.isoformat(),
            "table": [3, table.number],
        }
    ]
    assert ("winter-cup", 2, True) in [
        (s["slug"], s["best"], s["require_all"]) for s in document["series"]
    ]
    copy = restore(backup_bytes(demo), slug="demo-kopie").tournament
    assert list(copy.series.all()) == []  # the original evening must not count twice
    assert TableEntry.objects.get(table__round__tournament=copy).help_requested_at == when
    first = backup_bytes(demo)
    empty_the_database()
    Series.objects.all().delete()
    restored = restore(first).tournament
    assert backup_bytes(restored) == first
    cup = Series.objects.get(slug="winter-cup")
    assert list(cup.tournaments.all()) == [restored] and cup.best == 2
    entry = TableEntry.objects.get(table__round__tournament=restored)
    assert (entry.table.round.number, entry.table.number) == (3, table.number)


# --- backups that keep up (issue 24) ---------------------------------------------------------


def test_a_backup_from_the_last_ones_lines_is_byte_for_byte_a_full_backup(demo):
    """The automatic backups encode only what changed since the last one; what they write is
    exactly what a full backup writes, after corrections, new sheets, a new audit entry and a
    re-plan that renumbers tables."""
    from binokel_tournament.services.server.backup import DumpCache

    orga = get_user_model().objects.get(username="orga")
    cache = DumpCache()
    assert backup_bytes(demo, cache=cache) == backup_bytes(demo)
    assert cache.reused == 0 and cache.written > 0
    assert backup_bytes(demo, cache=cache) == backup_bytes(demo)
    assert cache.written == 0 and cache.reused > 0  # nothing changed: nothing encoded
    confirmed = ScoreSheet.objects.filter(table__round__tournament=demo).first()
    open_table = demo.round_set.get(number=3).tables.filter(kind="three").first()
    save_sheet(open_table, full_three_table(), orga, expected_version=0)
    corrected = dict(confirmed.entries, **{"written-total-c1": "17"})
    save_sheet(confirmed.table, corrected, orga, expected_version=confirmed.version)
    assert backup_bytes(demo, cache=cache) == backup_bytes(demo)
    # two sheets and their audit entries encoded anew, everything else reused
    assert 2 <= cache.written <= 6 and cache.reused > 20
    replan_seating(demo.competitions.get(mode=Mode.PAIRS), seed=7, user=orga)
    assert backup_bytes(demo, cache=cache) == backup_bytes(demo)


def test_older_automatic_backups_are_thinned_not_all_kept(settings, tmp_path):
    """The newest BACKUP_KEEP stay; of the older ones, the newest of every ten minutes."""
    settings.BACKUP_DIR = tmp_path
    settings.BACKUP_KEEP = 3
    settings.BACKUP_THIN_MINUTES = 10
    folder = tmp_path / "abend"
    folder.mkdir()
    # a backup every two minutes from 20:00 to 20:58
    names = [f"abend-20261126-20{m:02d}00-000000.json" for m in range(0, 60, 2)]
    for name in names:
        (folder / name).write_text("{}")
    removed = backup.prune("abend")
    kept = sorted(p.name for p in folder.iterdir())
    newest_three = names[-3:]
    assert set(newest_three) <= set(kept)
    # one per ten minutes before those: 20:08, 20:18, 20:28, 20:38, 20:48 (the slot of 20:50
    # holds the newest three already)
    assert sorted(set(kept) - set(newest_three)) == [
        f"abend-20261126-20{m:02d}00-000000.json" for m in (8, 18, 28, 38, 48)
    ]
    assert len(removed) == len(names) - len(kept)


def test_a_failed_backup_is_shown_on_the_desk_and_the_next_one_clears_it(
    seated, orga, settings, tmp_path, client, monkeypatch
):
    settings.BACKUP_DIR = tmp_path / "stick"
    settings.BACKUP_STATUS_DIR = tmp_path / "status"
    client.force_login(orga)
    page = client.get(f"/desk/{seated.slug}/").content.decode()
    assert "Noch keine automatische Sicherung" in page

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(backup.dump, "backup_bytes", full_disk)  # what the writer calls
    with pytest.raises(OSError):
        backup.write_auto_backup(seated.pk)
    status = backup.backup_status(seated)
    assert "No space left on device" in status.problem and status.last_at is None
    page = client.get(f"/desk/{seated.slug}/").content.decode()
    assert "Problem beim Sichern" in page and "No space left on device" in page
    monkeypatch.undo()
    assert backup.write_auto_backup(seated.pk) is not None
    status = backup.backup_status(seated)
    assert status.problem == "" and status.last_at is not None
    assert status.age_seconds() is not None and 0 <= status.age_seconds() < 60
    page = client.get(f"/desk/{seated.slug}/sicherung/").content.decode()
    assert "Letzte automatische Sicherung vor" in page and "Problem" not in page


def test_after_a_crash_the_tournaments_changed_since_their_last_backup_come_first(
    seated, orga, settings, tmp_path
):
    """A change whose backup was never written (the server was killed before) is found at
    the next start from the database itself, with or without the note the crash lost."""
    settings.BACKUP_DIR = tmp_path
    assert backup.changed_since_backup() == [seated.pk]  # seated, never backed up
    backup.write_auto_backup(seated.pk)
    assert backup.changed_since_backup() == []
    table = seated.round_set.get(number=1).tables.get(pk=first_three_table(seated))
    save_sheet(table, full_three_table(), orga, expected_version=0)  # a draft: audited
    assert backup.changed_since_backup() == [seated.pk]


@pytest.mark.django_db(transaction=True)
def test_the_backup_process_starts_with_what_changed_before_a_crash(settings, tmp_path, orga):
    """The server was killed after a save and before its backup, and its note is gone: the
    backup writer, started again, backs that tournament up first."""
    import shutil
    import threading

    from .support import make_tournament, member

    settings.BACKUP_DIR = tmp_path
    settings.BACKUP_AUTO = False  # nothing noted, nothing written before the "crash"
    t = make_tournament(singles=9, pairs=0, modes=[Mode.SINGLES])
    member(t, orga)
    shutil.rmtree(backup.pending_folder(), ignore_errors=True)
    settings.BACKUP_AUTO = True  # the restarted hall
    stop = threading.Event()
    writer = threading.Thread(target=backup.backup_process_loop, args=(stop, 0.05))
    writer.start()
    try:
        for _ in range(400):
            if backup.list_backups(t.slug):
                break
            stop.wait(0.05)
    finally:
        stop.set()
        writer.join(timeout=30)
    newest = backup.list_backups(t.slug)
    assert len(newest) == 1
    assert len(json.loads(newest[0].read_bytes())["entrants"]) == 9


@pytest.mark.django_db(transaction=True)
def test_with_automatic_backups_off_the_backup_process_writes_nothing(settings, tmp_path, orga):
    import threading

    from .support import make_tournament

    settings.BACKUP_DIR = tmp_path
    settings.BACKUP_AUTO = False
    t = make_tournament(singles=9, pairs=0, modes=[Mode.SINGLES])
    stop = threading.Event()
    writer = threading.Thread(target=backup.backup_process_loop, args=(stop, 0.05))
    writer.start()
    stop.wait(0.5)
    stop.set()
    writer.join(timeout=30)
    assert backup.list_backups(t.slug) == []
