"""One automatic backup writer across app servers (services/server/backup/lease.py): on
PostgreSQL an advisory lock on a connection of its own, on a laptop's SQLite a file lock. A
second writer waits, and takes over when the first one ends, starting with what changed
since the newest backups. Runs in both passes of the suite (SQLite and PostgreSQL)."""

from __future__ import annotations

import logging
import threading

import pytest

from binokel_tournament.models import Mode
from binokel_tournament.services.server import backup
from binokel_tournament.services.server.backup.lease import new_lease

from .support import make_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_one_lease_at_a_time_and_the_next_takes_it_when_it_is_given_back(settings, tmp_path):
    settings.BACKUP_STATUS_DIR = tmp_path
    first, second = new_lease(), new_lease()
    try:
        assert first.take()
        assert first.take()  # taking it again is holding it still
        assert first.held()
        assert not second.take()
        assert not second.held()
        first.give_back()
        assert second.take() and second.held()
        assert not first.take()
    finally:
        first.give_back()
        second.give_back()


def wait_until(condition, stop: threading.Event, seconds: float = 60) -> bool:  # type: ignore[no-untyped-def]
    for _ in range(int(seconds / 0.05)):
        if condition():
            return True
        stop.wait(0.05)
    return condition()


def test_two_backup_writers_write_once_and_the_second_takes_over(
    settings, tmp_path, monkeypatch, caplog
):
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.BACKUP_STATUS_DIR = tmp_path / "status"
    settings.BACKUP_MIN_INTERVAL = 0
    monkeypatch.setenv(backup.WORKER_ENV, "1")  # the web side only leaves notes
    t = make_tournament(singles=9, pairs=0, modes=[Mode.SINGLES])
    written: list[str] = []
    real_write = backup.writer.write_auto_backup

    def counted(tournament_id: int, since: float) -> object:
        written.append(threading.current_thread().name)
        return real_write(tournament_id, since)

    monkeypatch.setattr(backup.writer, "write_auto_backup", counted)
    stops = {name: threading.Event() for name in ("writer-a", "writer-b")}
    threads = {
        name: threading.Thread(
            target=backup.backup_process_loop,
            kwargs={"stop": stop, "poll": 0.05, "lease_check": 0.1},
            name=name,
        )
        for name, stop in stops.items()
    }
    caplog.set_level(logging.INFO, logger="binokel.backup")
    threads["writer-a"].start()
    try:
        # a, alone, backs up what changed since the newest backups (nothing was backed up)
        # and then the notes the web side left
        notes = backup.pending_folder()
        assert wait_until(lambda: written and not any(notes.glob("[0-9]*")), stops["writer-a"])
        threads["writer-b"].start()
        assert wait_until(
            lambda: "another app server writes the automatic backups" in caplog.text,
            stops["writer-b"],
        )
        before = len(written)
        backup.auto_backups.request(t.pk)  # a change: one backup, by the writer with the lease
        assert wait_until(lambda: len(written) == before + 1, stops["writer-a"])
        assert set(written) == {"writer-a"}
        stops["writer-a"].set()  # the first app server stops (or dies): b takes over
        threads["writer-a"].join(timeout=30)
        assert wait_until(
            lambda: "this app server writes the automatic backups from now on" in caplog.text,
            stops["writer-b"],
        )
        backup.auto_backups.request(t.pk)
        assert wait_until(lambda: "writer-b" in written, stops["writer-b"])
        assert written[: before + 1] == ["writer-a"] * (before + 1)
        assert set(written[before + 1 :]) == {"writer-b"}
    finally:
        for stop in stops.values():
            stop.set()
        for thread in threads.values():
            if thread.is_alive() or thread.ident is not None:
                thread.join(timeout=30)
    assert len(backup.list_backups(t.slug)) >= 2
