"""The automatic backups on the night: named in the tournament's time (what the desk shows),
and a backup that cannot be written -- the tournament's folder replaced by a file, BACKUP_DIR
unreachable -- is shown at the desk and tried again by the writer (issue 36, items 4 and 8)."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from binokel_tournament.models import Mode
from binokel_tournament.services.server import backup

pytestmark = pytest.mark.django_db


def test_an_automatic_backup_is_named_in_the_tournaments_time(seated, settings, tmp_path):
    settings.BACKUP_DIR = tmp_path
    settings.TIME_ZONE = "Europe/Berlin"
    path = backup.write_auto_backup(seated.pk)
    assert path is not None
    status = backup.backup_status(seated)
    local = timezone.localtime(status.last_at, ZoneInfo("Europe/Berlin"))
    # the clock the desk shows ("Letzte automatische Sicherung … (21:30:05 Uhr)")
    assert path.name.startswith(f"{seated.slug}-{local:%Y%m%d-%H%M%S}")
    assert path.name.endswith(f"{local:%z}.json")  # +0100 in winter, +0200 in summer
    assert backup.file_time(path.name) == status.last_at


def test_backups_of_the_hour_that_repeats_in_autumn_stay_in_their_order(settings, tmp_path):
    """When the clocks go back, 02:10 (+0100) comes after 02:50 (+0200); names from before
    (UTC, no offset) still count."""
    settings.BACKUP_DIR = tmp_path
    settings.BACKUP_KEEP = 10
    folder = tmp_path / "abend"
    folder.mkdir()
    zone = ZoneInfo("Europe/Berlin")
    times = [
        datetime(2026, 10, 25, 0, 40, tzinfo=UTC),  # 02:40 +0200
        datetime(2026, 10, 25, 0, 50, tzinfo=UTC),  # 02:50 +0200
        datetime(2026, 10, 25, 1, 10, tzinfo=UTC),  # 02:10 +0100
    ]
    names = [f"abend-{backup.file_stamp(at.timestamp(), zone)}.json" for at in times]
    assert names[1] > names[2]  # by name the newest would look older
    older = "abend-20261024-220000-000000.json"  # written before, in UTC
    for name in [*names, older]:
        (folder / name).write_text("{}")
    assert [p.name for p in backup.list_backups("abend")] == [*reversed(names), older]
    assert [backup.file_time(n) for n in names] == times


def the_folder_replaced_by_a_file(settings, tmp_path, slug):  # type: ignore[no-untyped-def]
    settings.BACKUP_DIR = tmp_path / "stick"
    (tmp_path / "stick").mkdir()
    (tmp_path / "stick" / slug).write_text("not a folder")


def stick_pulled_out(settings, tmp_path, slug):  # type: ignore[no-untyped-def]
    (tmp_path / "stick").write_text("the mount point is gone")  # BACKUP_DIR is no folder
    settings.BACKUP_DIR = tmp_path / "stick"


@pytest.mark.parametrize(
    "break_it, error",
    # a file where the folder should be fails where the folder is made or where its lock is
    # opened inside it (the private folder's maker leaves an existing path alone)
    [(the_folder_replaced_by_a_file, "Error: "), (stick_pulled_out, "NotADirectoryError")],
)
def test_a_backup_folder_that_cannot_be_made_is_shown_at_the_desk(
    seated, orga, settings, tmp_path, client, break_it, error
):
    settings.BACKUP_STATUS_DIR = tmp_path / "status"
    settings.BACKUP_DIR = tmp_path / "first"
    assert backup.write_auto_backup(seated.pk) is not None  # a good backup a moment ago
    break_it(settings, tmp_path, seated.slug)
    with pytest.raises(OSError):
        backup.write_auto_backup(seated.pk)
    status = backup.backup_status(seated)
    assert error in status.problem and status.problem_at is not None
    client.force_login(orga)
    for url in (f"/desk/{seated.slug}/", f"/desk/{seated.slug}/sicherung/"):
        page = client.get(url)
        assert page.status_code == 200
        assert "Problem beim Sichern" in page.content.decode()
        assert error in page.content.decode()
    # the line the desk asks for again every few seconds says it too
    line = client.get(f"/desk/{seated.slug}/sicherung/stand/").content.decode()
    assert "Problem beim Sichern" in line and error in line and 'hx-trigger="every' in line


@pytest.mark.django_db(transaction=True)
def test_the_writer_tries_a_failed_backup_again_without_a_new_change(settings, tmp_path, orga):
    from .support import make_tournament, member

    settings.BACKUP_AUTO = False  # the set-up asks for none
    t = make_tournament(singles=9, pairs=0, modes=[Mode.SINGLES])
    member(t, orga)
    settings.BACKUP_DIR = tmp_path / "stick"
    settings.BACKUP_STATUS_DIR = tmp_path / "status"
    settings.BACKUP_MIN_INTERVAL = 0
    settings.BACKUP_RETRY_SECONDS = 0.2
    settings.BACKUP_AUTO = True
    settings.BACKUP_IN_BACKGROUND = True
    stick = tmp_path / "stick"
    stick.write_text("pulled out")
    writer = backup.AutoBackups()
    writer.request(t.pk)  # one change while the stick is out
    assert writer.flush(timeout=30)  # a failing backup is not waited for (the server stops)
    deadline = time.monotonic() + 30
    while not backup.backup_status(t).problem and time.monotonic() < deadline:
        time.sleep(0.02)
    assert "NotADirectoryError" in backup.backup_status(t).problem
    stick.unlink()  # the stick is back; no new change comes
    while backup.backup_status(t).problem and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(backup.list_backups(t.slug)) == 1
    assert backup.backup_status(t).problem == ""


@pytest.mark.django_db(transaction=True)
def test_the_backup_process_keeps_its_notes_when_the_stick_is_out(settings, tmp_path, orga):
    """Under the hall server the web workers leave notes for the backup process: they are in
    the data folder, so a pulled-out stick neither fails the save nor loses the note, and the
    process writes the backup once the stick is back."""
    from .support import make_tournament, member

    settings.BACKUP_AUTO = False
    t = make_tournament(singles=9, pairs=0, modes=[Mode.SINGLES])
    member(t, orga)
    settings.BACKUP_DIR = tmp_path / "stick"
    settings.BACKUP_STATUS_DIR = tmp_path / "status"
    settings.BACKUP_MIN_INTERVAL = 0
    settings.BACKUP_RETRY_SECONDS = 0.2
    settings.BACKUP_AUTO = True
    stick = tmp_path / "stick"
    stick.write_text("pulled out")
    backup.mark_pending(t.pk, time.time())  # what a web worker does after a save
    stop = threading.Event()
    process = threading.Thread(target=backup.backup_process_loop, args=(stop, 0.05))
    process.start()
    try:
        deadline = time.monotonic() + 30
        while not backup.backup_status(t).problem and time.monotonic() < deadline:
            stop.wait(0.02)
        assert "NotADirectoryError" in backup.backup_status(t).problem
        assert backup.backup_status(t).waiting  # the note is kept
        stick.unlink()
        while backup.backup_status(t).waiting and time.monotonic() < deadline:
            stop.wait(0.02)
    finally:
        stop.set()
        process.join(timeout=30)
    assert len(backup.list_backups(t.slug)) == 1
    assert backup.backup_status(t).problem == ""
