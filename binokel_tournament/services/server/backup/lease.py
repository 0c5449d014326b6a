"""One automatic backup writer across app servers. Every ``manage.py hall`` starts a backup
process; on a server for many clubs two or more app servers run on one PostgreSQL, and their
backup processes must not write the same backups twice or side by side. The writer holds a
lease: on PostgreSQL a session-level advisory lock on a connection of its own (the database
lets it go when that process dies, so a waiting writer takes over at once), on a laptop's
SQLite a lock on a file beside the backup status (one machine; the kernel lets it go with the
process). A writer without the lease waits and asks again."""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

from django.conf import settings
from django.db import DatabaseError, connections

logger = logging.getLogger("binokel.backup")

# pg_advisory_lock's key: "binokel backup writer", as a signed 64-bit number
ADVISORY_KEY = int.from_bytes(b"bkbackup", "big", signed=True)


class Lease(Protocol):
    def take(self) -> bool:
        """Try to take the lease (never blocks); True when this process holds it."""

    def held(self) -> bool:
        """Whether this process still holds it (a database restart ends a lock)."""

    def give_back(self) -> None: ...


class AdvisoryLease:
    """PostgreSQL: ``pg_try_advisory_lock`` on a connection of its own, which the writer's
    ``connections.close_all()`` between backups does not touch."""

    def __init__(self) -> None:
        self.wrapper: Any = None

    def _cursor(self) -> Any:
        if self.wrapper is None:
            self.wrapper = connections.create_connection("default")
        return self.wrapper.cursor()

    def take(self) -> bool:
        try:
            with self._cursor() as cursor:
                cursor.execute("SELECT pg_try_advisory_lock(%s)", [ADVISORY_KEY])
                return bool(cursor.fetchone()[0])
        except DatabaseError:
            self.give_back()
            return False

    def held(self) -> bool:
        try:
            with self._cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
                    " AND pid = pg_backend_pid() AND objsubid = 1"
                    " AND classid = ((%s::bigint >> 32) & 4294967295)::oid"
                    " AND objid = (%s::bigint & 4294967295)::oid",
                    [ADVISORY_KEY, ADVISORY_KEY],
                )
                return bool(cursor.fetchone()[0])
        except DatabaseError:
            self.give_back()
            return False

    def give_back(self) -> None:
        if self.wrapper is not None:
            # at once: a closed connection's server process lets go a moment later
            with contextlib.suppress(DatabaseError), self.wrapper.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock_all()")
            with contextlib.suppress(DatabaseError):
                self.wrapper.close()
            self.wrapper = None


class FileLease:
    """SQLite on one laptop: an exclusive ``flock`` on a file in the data folder."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd: int | None = None

    def take(self) -> bool:
        if self.fd is not None:
            return True
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:  # no lock file, no second writer to keep out: write the backups
            logger.warning("no lock file for the backup writer at %s", self.path)
            return True
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self.fd = fd
        return True

    def held(self) -> bool:
        return self.fd is not None

    def give_back(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing the file lets the lock go
            self.fd = None


def new_lease() -> Lease:
    if connections["default"].vendor == "postgresql":
        return AdvisoryLease()
    return FileLease(Path(settings.BACKUP_STATUS_DIR) / "writer.lock")


@contextlib.contextmanager
def writer_lease(stop: threading.Event, poll: float = 2.0) -> Iterator[Lease | None]:
    """Wait until this process holds the lease (or ``stop``: then None); give it back at the
    end. While another app server's writer holds it, this one says so once and waits."""
    lease = new_lease()
    said = False
    try:
        while not lease.take():
            if not said:
                logger.info("another app server writes the automatic backups; this one waits")
                said = True
            if stop.wait(poll):
                yield None
                return
        if said:
            logger.info("this app server writes the automatic backups from now on")
        yield lease
    finally:
        lease.give_back()
