"""The write transaction of the busy saves (a desk's sheet, its working draft, a table's game).

On PostgreSQL it is ``transaction.atomic()``: the database queues the writers itself (row locks).

SQLite lets one writer in at a time; every other one gets "busy" and SQLite's busy handler
retries after sleeping 1, 2, 5 … 100 ms (up to the busy timeout). Under a burst of saves that
polling is unfair and slow: a save that has waited a while sleeps 100 ms between tries and is
overtaken by newer ones, so a few saves wait seconds although the lock is free most of the
time. Here a save first waits its turn on an exclusive lock of a file beside the database
(``flock``: the kernel wakes the next waiter the moment the lock is released, across all the
hall server's processes and threads), then begins its IMMEDIATE transaction, which now finds
the database free. The lock is released when the transaction has ended (committed or rolled
back) and by the kernel when a process dies, so a killed server leaves nothing locked.
Correctness does not rest on it: conflicting saves are still detected in the database (the
sheet's version), and any writer that does not queue here (a command, another program) is
still kept out by SQLite's own lock and waits with the busy timeout as before.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: SQLite's busy timeout alone
    fcntl = None  # type: ignore[assignment]


class _LockFile:
    """The lock file opened by one thread of one process (a lock is held per open file, so
    threads must not share one, and a file opened before a fork belongs to the parent)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.pid = os.getpid()
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)

    def __del__(self) -> None:  # the thread has ended
        if self.pid == os.getpid():
            os.close(self.fd)


_local = threading.local()


def _lock_path() -> str | None:
    if connection.vendor != "sqlite" or fcntl is None:
        return None
    name = str(connection.settings_dict["NAME"])
    if not name or name == ":memory:" or name.startswith("file:") or "mode=memory" in name:
        return None
    return name + ".writelock"


def _lock_fd(path: str) -> int:
    held: _LockFile | None = getattr(_local, "file", None)
    if held is None or held.pid != os.getpid() or held.path != path:
        held = _local.file = _LockFile(path)
    return held.fd


@contextmanager
def write_transaction() -> Iterator[None]:
    """``transaction.atomic()``; on SQLite after waiting its turn among the server's saves."""
    path = None if connection.in_atomic_block else _lock_path()
    if path is None:
        with transaction.atomic():
            yield
        return
    fd = _lock_fd(path)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        with transaction.atomic():
            yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
