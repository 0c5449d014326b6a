"""Continuing an evening on a second laptop that holds an older copy of it: a newer backup of
the same evening replaces the copy (asked first at the desk, ``--replace`` on the command
line, audited), in its Verein, keeping the tables' and players' links; a restored organiser
keeps the right to create tournaments and to restore; the desk and the command say which
accounts they did not bring (issue 36, items 10 and 7)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from binokel_tournament.models import (
    AuditLog,
    PersonalLink,
    ScoreSheet,
    SheetStatus,
    Table,
    Tournament,
)
from binokel_tournament.services.access import can_create_tournament
from binokel_tournament.services.evening.players import ensure_links
from binokel_tournament.services.server.backup import backup_bytes, restore
from binokel_tournament.services.server.backup.restore import SlugTaken
from binokel_tournament.services.sheets.writer import save_sheet
from binokel_tournament.services.tenancy import create_verein

from .sheets import full_three_table
from .support import empty_the_database

pytestmark = pytest.mark.django_db


def links(t: Tournament) -> tuple[list[str], list[str]]:
    """The links printed as QR codes: the tables' and the players' own."""
    tables = Table.objects.filter(round__tournament=t).order_by("round__number", "number")
    players = PersonalLink.objects.filter(entrant__tournament=t).order_by("token")
    return [x.entry_token for x in tables], [x.token for x in players]


def confirmed(t: Tournament) -> int:
    return ScoreSheet.objects.filter(
        table__round__tournament=t, status=SheetStatus.CONFIRMED
    ).count()


@pytest.fixture
def two_states(seated, orga):
    """An evening's backup at 20:00 (older) and at 21:00 (a sheet confirmed since)."""
    ensure_links(seated)
    older = backup_bytes(seated)
    table = seated.round_set.get(number=1).tables.filter(kind="three").order_by("number")[0]
    save_sheet(table, full_three_table(), orga, expected_version=0, confirm=True)
    newer = backup_bytes(seated)
    printed = links(seated)
    return older, newer, printed


def test_a_newer_backup_of_the_same_evening_replaces_the_older_copy_keeping_its_links(
    two_states,
):
    older, newer, printed = two_states
    empty_the_database()
    restore(older)  # the second laptop got the 20:00 copy
    with pytest.raises(SlugTaken) as refused:  # not without being asked
        restore(newer)
    assert refused.value.replaceable and "älteren Stand" in refused.value.message
    result = restore(newer, replace=True)
    t = result.tournament
    assert result.replaced and Tournament.objects.filter(slug=t.slug).count() == 1
    assert links(t) == printed  # every printed QR code still works
    assert confirmed(t) == 1
    entry = AuditLog.objects.get(tournament=t, action="backup.replace")
    assert entry.before["confirmed_sheets"] == 0 and entry.after["confirmed_sheets"] == 1


def test_an_older_backup_or_another_evening_does_not_replace_anything(two_states):
    older, newer, _printed = two_states
    empty_the_database()
    restore(newer)
    with pytest.raises(SlugTaken) as refused:  # the copy here is newer than the backup
        restore(older, replace=True)
    assert not refused.value.replaceable and "nach dieser Sicherung" in refused.value.message
    other = json.loads(older)
    other["tournament"]["event_id"] = "ein-anderer-abend"
    with pytest.raises(SlugTaken) as refused:
        restore(other, replace=True)
    assert not refused.value.replaceable and "anderer Abend" in refused.value.message
    assert confirmed(Tournament.objects.get()) == 1


def test_a_replaced_evening_stays_in_its_verein(two_states):
    older, newer, _printed = two_states
    empty_the_database()
    club = create_verein("Binokelfreunde", "bf")
    t = restore(older, verein=club).tournament
    elsewhere = create_verein("Andere", "andere")
    replaced = restore(newer, replace=True, verein=elsewhere).tournament
    assert replaced.verein == club and replaced.slug == t.slug


def test_the_command_replaces_with_replace_and_says_how_otherwise(two_states, tmp_path):
    older, newer, printed = two_states
    (tmp_path / "older.json").write_bytes(older)
    (tmp_path / "newer.json").write_bytes(newer)
    empty_the_database()
    call_command("restore", str(tmp_path / "older.json"), stdout=StringIO())
    with pytest.raises(CommandError, match="--replace"):
        call_command("restore", str(tmp_path / "newer.json"), stdout=StringIO())
    out = StringIO()
    call_command("restore", str(tmp_path / "newer.json"), "--replace", stdout=out)
    assert "ersetzt" in out.getvalue()
    assert "behalten Passwort und Rechte: kasse, orga" in out.getvalue()
    assert links(Tournament.objects.get()) == printed


def test_the_desk_asks_before_it_replaces_and_never_points_to_the_command_line(client, two_states):
    older, newer, printed = two_states
    empty_the_database()
    t = restore(older).tournament
    orga = get_user_model().objects.get(username="orga")
    client.force_login(orga)
    upload = SimpleUploadedFile("backup.json", newer, content_type="application/json")
    question = client.post("/desk/sicherung-einspielen/", {"file": upload})
    page = question.content.decode()
    assert question.status_code == 200 and 'id="replace-question"' in page
    assert "älteren Stand" in page and "--" not in page.split('id="replace-question"')[1]
    assert confirmed(Tournament.objects.get()) == 0  # nothing changed before the answer
    token = question.context["token"]
    keep = client.post("/desk/sicherung-einspielen/", {"waiting": token, "answer": "keep"})
    assert keep.status_code == 302 and confirmed(Tournament.objects.get()) == 0
    again = client.post("/desk/sicherung-einspielen/", {"waiting": token, "answer": "replace"})
    assert again.status_code == 302 and confirmed(Tournament.objects.get()) == 0  # used up
    upload = SimpleUploadedFile("backup.json", newer, content_type="application/json")
    token = client.post("/desk/sicherung-einspielen/", {"file": upload}).context["token"]
    done = client.post(
        "/desk/sicherung-einspielen/", {"waiting": token, "answer": "replace"}, follow=True
    )
    assert "bleiben gültig" in done.content.decode()
    replaced = Tournament.objects.get()
    assert replaced.pk != t.pk and confirmed(replaced) == 1 and links(replaced) == printed
    assert AuditLog.objects.get(tournament=replaced, action="backup.replace").username == "orga"
    # a refused restore on the web page names what to do on the page, not a command
    upload = SimpleUploadedFile("backup.json", older, content_type="application/json")
    refused = client.post("/desk/sicherung-einspielen/", {"file": upload}, follow=True)
    text = refused.content.decode()
    assert "schon ein Turnier" in text and "neuen Kurznamen" in text
    assert "--as" not in text and "restore DATEI" not in text


def test_a_restored_organiser_keeps_the_right_to_create_tournaments_and_to_restore(
    seated, tmp_path
):
    from binokel_tournament.services.demo import create_demo

    demo, _made = create_demo(singles=6, pairs=0, scored_rounds=1, slug="demo", name="Demo")
    path = tmp_path / "demo.json"
    path.write_bytes(backup_bytes(demo))
    document = json.loads(path.read_bytes())
    assert {u["username"]: u["may_create_tournaments"] for u in document["users"]} == {
        "kasse": False,
        "orga": True,
    }
    empty_the_database()
    out = StringIO()
    call_command("restore", str(path), stdout=out)
    assert "dürfen hier Turniere anlegen und einspielen: orga" in out.getvalue()
    orga = get_user_model().objects.get(username="orga")
    kasse = get_user_model().objects.get(username="kasse")
    assert can_create_tournament(orga) and not can_create_tournament(kasse)
    call_command("demo", "--entrants", "6", "--pairs", "0", "--slug", "zweite", stdout=StringIO())
    assert Tournament.objects.filter(slug="zweite").exists()
    # the same backup again, at the desk, by the restored organiser: a copy of its own
    copy = restore(path.read_bytes(), slug="kopie", user=orga, create_users=False)
    assert copy.tournament.slug == "kopie" and copy.created_users == []


def test_the_desk_says_which_accounts_it_did_not_bring(client, seated, orga):
    data = backup_bytes(seated)
    get_user_model().objects.filter(username="kasse").delete()
    client.force_login(orga)
    upload = SimpleUploadedFile("backup.json", data, content_type="application/json")
    page = client.post(
        "/desk/sicherung-einspielen/", {"file": upload, "slug": "vom-stick"}, follow=True
    ).content.decode()
    assert "nicht angelegt" in page and "kasse" in page
    assert not get_user_model().objects.filter(username="kasse").exists()
