"""The automatic backups: after every audited change (``schedule_backup``) the tournament is
written to ``BACKUP_DIR/<slug>/`` by a writer off the request (a thread, or the hall's own
backup process), at most every ``BACKUP_MIN_INTERVAL`` seconds, older files thinned; the
outcome noted for the desk (``backup_status``); after a crash, what changed since the newest
backup is written first (``changed_since_backup``)."""

from __future__ import annotations

import atexit
import json
import logging
import os
import re
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_scopes import scopes_disabled

from ....models import AuditLog, ScoreSheet, Tournament
from ....private_files import open_private, private_dir
from . import dump
from .dump import DumpCache

logger = logging.getLogger("binokel.backup")

# --- automatic backups ---------------------------------------------------------------------


def schedule_backup(tournament: Tournament) -> None:
    """Back the tournament up once the current transaction has committed (a rolled-back
    change writes nothing)."""
    if not settings.BACKUP_AUTO:
        return
    tournament_id = tournament.pk
    transaction.on_commit(lambda: auto_backups.request(tournament_id))


# <slug>-<date>-<time>-<microseconds><UTC offset>.json in the tournament's time (what the desk
# shows); names without an offset are from before and in UTC
FILE_NAME = re.compile(r"^(?P<slug>[-\w]+)-(?P<at>\d{8}-\d{6}-\d{6})(?P<offset>[+-]\d{4})?\.json$")
STAMP = "%Y%m%d-%H%M%S-%f"


def tournament_zone(tournament: Tournament | None = None) -> tzinfo:
    """The time zone a tournament's evening is held in: the installation's (``TIME_ZONE``);
    a tournament's own zone where it has one."""
    own = getattr(tournament, "time_zone", "") if tournament is not None else ""
    if own:
        with suppress(ZoneInfoNotFoundError, ValueError):
            return ZoneInfo(str(own))
    return timezone.get_default_timezone()


def file_stamp(at: float, zone: tzinfo) -> str:
    """The time part of a backup's name: local time with its offset (an hour that repeats
    when the clocks go back stays apart)."""
    local = datetime.fromtimestamp(at, tz=zone)
    return local.strftime(STAMP) + local.strftime("%z")


def file_time(name: str) -> datetime | None:
    """When the backup of this name was started (None: not a backup's name)."""
    match = FILE_NAME.match(name)
    if match is None:
        return None
    if match["offset"]:
        return datetime.strptime(match["at"] + match["offset"], STAMP + "%z")
    return datetime.strptime(match["at"], STAMP).replace(tzinfo=UTC)


def backup_folder(slug: str) -> Path:
    return Path(settings.BACKUP_DIR) / slug


def list_backups(slug: str) -> list[Path]:
    """The automatic backups of a tournament, newest first (an unreachable folder has none)."""
    folder = backup_folder(slug)
    try:
        if not folder.is_dir():
            return []
        names = [
            (at, p)
            for p in folder.iterdir()
            if (m := FILE_NAME.match(p.name)) and m["slug"] == slug and (at := file_time(p.name))
        ]
    except OSError:  # a pulled-out stick: the desk still answers (the writer notes it)
        return []
    return [p for _at, p in sorted(names, key=lambda x: (x[0], x[1].name), reverse=True)]


def write_atomically(path: Path, data: bytes, durable: bool = True) -> None:
    """Write ``data`` to ``path`` so that ``path`` is either the old file or the whole new
    one, also after a crash or a power cut (temp file in the same folder, fsync, rename).
    ``durable=False`` leaves out the two waits for the disk (for a note that is worth nothing
    after a power cut)."""
    private_dir(path.parent)  # backups and notes: this account only (0700, files 0600)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(temp)
        raise
    if not durable:
        return
    with suppress(OSError):  # the rename itself on disk (not possible on every system)
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


@contextmanager
def _folder_lock(folder: Path) -> Iterator[None]:
    """One writer per tournament folder across the server's processes."""
    private_dir(folder.parent)  # BACKUP_DIR and the tournament's folder: 0700
    private_dir(folder)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: one process (runserver) anyway
        yield
        return
    with os.fdopen(open_private(folder / ".lock"), "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


_caches: dict[int, DumpCache] = {}  # the writer's lines of each tournament's last backup


def write_auto_backup(tournament_id: int, since: float = 0.0) -> Path | None:
    """Write a backup of the tournament unless one started after ``since`` (a time after the
    change to be covered committed) is already there; thin out the older ones (see
    :func:`prune`). What happened (the time of the last backup, or the problem of the last
    attempt: also a folder that cannot be made, locked or opened) is noted for the desk
    (:func:`backup_status`); a failure is raised."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    try:
        return _write_in_folder(tournament, since)
    except Exception as exc:
        _caches.pop(tournament_id, None)
        _note_status(tournament.slug, problem=f"{type(exc).__name__}: {exc}"[:300])
        raise


def _write_in_folder(tournament: Tournament, since: float) -> Path | None:
    folder = backup_folder(tournament.slug)
    with _folder_lock(folder):
        marker = folder / ".latest"
        with suppress(FileNotFoundError, ValueError):
            if float(marker.read_text()) > since:
                return None  # a newer backup already holds this change
        started = time.time()
        cache = _caches.setdefault(tournament.pk, DumpCache())
        data = dump.backup_bytes(tournament, cache=cache)
        stamp = file_stamp(started, tournament_zone(tournament))
        path = folder / f"{tournament.slug}-{stamp}.json"
        write_atomically(path, data)
        write_atomically(marker, repr(started).encode())
        took = time.time() - started
        _note_status(tournament.slug, ok_at=started, file=path.name, seconds=round(took, 3))
        logger.info(
            "backup %s: %d bytes in %.2f s (%d entries reused, %d encoded)",
            path.name,
            len(data),
            took,
            cache.reused,
            cache.written,
        )
        prune(tournament.slug)
    return path


def prune(slug: str, now: float | None = None) -> list[Path]:
    """Keep the newest ``BACKUP_KEEP`` backups and, of the older ones, the newest of every
    ``BACKUP_THIN_MINUTES`` (a backup every few seconds for a whole evening would fill the
    disk, and the organiser still finds the state of an hour ago). Returns what it removed."""
    keep = max(1, settings.BACKUP_KEEP)
    slot = max(1, int(getattr(settings, "BACKUP_THIN_MINUTES", 10))) * 60
    seen_slots: set[int] = set()
    removed = []
    for number, path in enumerate(list_backups(slug)):  # newest first
        at = file_time(path.name)
        assert at is not None
        bucket = int(at.timestamp()) // slot
        if number < keep or bucket not in seen_slots:
            seen_slots.add(bucket)
            continue
        with suppress(FileNotFoundError):
            path.unlink()
            removed.append(path)
    return removed


def _status_file(slug: str) -> Path:
    """Where the outcome of the last attempt is noted: in the data folder, not beside the
    backups (a full or pulled-out USB stick must not take the note of its problem with it)."""
    return Path(settings.BACKUP_STATUS_DIR) / f"{slug}.json"


def _note_status(slug: str, **values: Any) -> None:
    """Note the outcome of an attempt (any process of the hall reads it)."""
    status: dict[str, Any] = {}
    with suppress(OSError, ValueError):
        status = json.loads(_status_file(slug).read_text())
    if "ok_at" in values:
        status.pop("problem", None)
        status.pop("problem_at", None)
    else:
        values["problem_at"] = time.time()
    status.update(values)
    try:
        write_atomically(_status_file(slug), json.dumps(status).encode(), durable=False)
    except OSError:
        logger.exception("could not note the backup status of %s", slug)


@dataclass(frozen=True)
class BackupStatus:
    """What the desk says about a tournament's automatic backups."""

    last_at: datetime | None  # when the newest backup started (it holds everything before)
    file: str
    problem: str  # the last attempt failed (and no backup succeeded after it)
    problem_at: datetime | None
    waiting: bool  # a change is noted and its backup not yet written
    auto: bool  # automatic backups are switched on (BACKUP_AUTO)
    retry_seconds: int = 30  # a failed backup is tried again after this

    def age_seconds(self, now: datetime | None = None) -> float | None:
        if self.last_at is None:
            return None
        return ((now or timezone.now()) - self.last_at).total_seconds()


def backup_status(tournament: Tournament) -> BackupStatus:
    status: dict[str, Any] = {}
    with suppress(OSError, ValueError):
        status = json.loads(_status_file(tournament.slug).read_text())

    def when(value: Any) -> datetime | None:
        return datetime.fromtimestamp(float(value), tz=UTC) if value else None

    last_at = when(status.get("ok_at"))
    if last_at is None:  # backups written before the status was noted
        newest = list_backups(tournament.slug)[:1]
        if newest:
            last_at = file_time(newest[0].name)
    return BackupStatus(
        last_at=last_at,
        file=str(status.get("file", "")),
        problem=str(status.get("problem", "")),
        problem_at=when(status.get("problem_at")),
        waiting=(pending_folder() / str(tournament.pk)).exists()
        or tournament.pk in auto_backups.pending,
        auto=bool(settings.BACKUP_AUTO),
        retry_seconds=max(1, round(retry_seconds())),
    )


def changed_since_backup() -> list[int]:
    """The tournaments changed after their newest automatic backup started (or that have
    none): after a crash, the backup writer starts with these."""
    from django.db.models import Max

    last_change: dict[int, datetime] = {}
    for tournament_id, at in (
        AuditLog.objects.filter(tournament__isnull=False)
        .values_list("tournament_id")
        .annotate(Max("at"))
    ):
        last_change[tournament_id] = at
    for tournament_id, at in (
        ScoreSheet.objects.values_list("table__round__tournament_id")
        .annotate(Max("updated_at"))
        .order_by()
    ):
        last_change[tournament_id] = max(at, last_change.get(tournament_id, at))
    slugs = dict(Tournament.objects.values_list("pk", "slug"))
    stale = []
    for tournament_id, at in sorted(last_change.items()):
        if tournament_id not in slugs:
            continue
        backed_up = 0.0
        with suppress(OSError, ValueError):
            backed_up = float((backup_folder(slugs[tournament_id]) / ".latest").read_text())
        if at.timestamp() >= backed_up:
            stale.append(tournament_id)
    return stale


def retry_seconds() -> float:
    """How long the writer waits before it tries a failed backup again (``BACKUP_RETRY_SECONDS``,
    kept between 0.1 s and ten minutes); a new change tries sooner."""
    value = float(getattr(settings, "BACKUP_RETRY_SECONDS", 30))
    return min(max(value, 0.1), 600.0)


class AutoBackups:
    """Writes requested backups in a background thread of this process (started on the first
    request, again after a fork), coalescing requests that arrive while it works. A backup
    that fails is tried again after :func:`retry_seconds` (noted for the desk each time)."""

    def __init__(self) -> None:
        self.condition = threading.Condition()
        self.pending: dict[int, float] = {}  # tournament -> time of the latest change to cover
        self.not_before: dict[int, float] = {}  # tournament -> when it may be written next
        self.failing: set[int] = set()  # tournaments whose last attempt failed (tried again)
        self.busy = False
        self.thread: threading.Thread | None = None
        self.pid = 0

    def request(self, tournament_id: int) -> None:
        since = time.time()  # after the commit: a backup started later holds the change
        if os.environ.get(WORKER_ENV):  # the hall's backup process writes it
            try:
                mark_pending(tournament_id, since)
            except OSError:  # the save stands; the backup process finds it after a restart
                logger.exception("could not note the backup of tournament %s", tournament_id)
            return
        if not getattr(settings, "BACKUP_IN_BACKGROUND", True):
            self._write(tournament_id, since)
            return
        with self.condition:
            self.pending[tournament_id] = since
            if tournament_id in self.failing:  # a new change tries again without the wait
                self.failing.discard(tournament_id)
                self.not_before[tournament_id] = min(
                    self.not_before.get(tournament_id, 0.0),
                    time.monotonic() + float(getattr(settings, "BACKUP_MIN_INTERVAL", 0)),
                )
            if self.thread is None or self.pid != os.getpid() or not self.thread.is_alive():
                self.pid = os.getpid()
                self.thread = threading.Thread(target=self._run, name="binokel-backup", daemon=True)
                self.thread.start()
            self.condition.notify_all()

    def _write(self, tournament_id: int, since: float) -> bool:
        try:
            write_auto_backup(tournament_id, since)
        except Exception:
            logger.exception("automatic backup of tournament %s failed", tournament_id)
            return False
        return True

    def _next(self) -> tuple[int, float]:
        """Wait for a tournament whose backup is due: requested, and its last backup from this
        process at least BACKUP_MIN_INTERVAL seconds ago (a burst of confirmations shares one),
        or its failed attempt retry_seconds() ago."""
        with self.condition:
            while True:
                now = time.monotonic()
                due = [t for t in self.pending if self.not_before.get(t, 0.0) <= now]
                if due:
                    self.busy = True
                    return due[0], self.pending.pop(due[0])
                if self.pending:
                    self.condition.wait(
                        min(self.not_before.get(t, now) for t in self.pending) - now
                    )
                else:
                    self.condition.wait()

    def _run(self) -> None:
        from django.db import connections

        with scopes_disabled():  # a thread of the system: every Verein's tournaments
            self._loop(connections)

    def _loop(self, connections: Any) -> None:
        while True:
            tournament_id, since = self._next()
            written = False
            try:
                written = self._write(tournament_id, since)
            finally:
                connections.close_all()
                with self.condition:
                    now = time.monotonic()
                    if written:
                        self.failing.discard(tournament_id)
                        wait = float(getattr(settings, "BACKUP_MIN_INTERVAL", 0))
                    else:  # tried again later, also without a new change
                        self.failing.add(tournament_id)
                        self.pending[tournament_id] = max(
                            since, self.pending.get(tournament_id, since)
                        )
                        wait = retry_seconds()
                    self.not_before[tournament_id] = now + wait
                    self.busy = False
                    self.condition.notify_all()

    def flush(self, timeout: float = 60.0) -> bool:
        """Wait until every requested backup is written or has failed (a failing one is
        tried again later, not waited for); False on time-out."""
        deadline = time.monotonic() + timeout
        with self.condition:
            while (
                (set(self.pending) - self.failing or self.busy)
                and self.thread is not None
                and self.thread.is_alive()
            ):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.condition.wait(left)
        return True


auto_backups = AutoBackups()

# --- the hall's backup process ---------------------------------------------------------------
# Under gunicorn the backups are written by one process of their own at a lower priority
# (manage.py hall starts it): a backup of a big tournament takes a second or two of CPU, which
# in a web worker would hold up that worker's requests. The web workers only leave a note.

WORKER_ENV = "BINOKEL_BACKUP_PROCESS"


def pending_folder() -> Path:
    """The web workers' notes, in the data folder (beside the status): a pulled-out stick of
    BACKUP_DIR must neither fail a desk's save nor lose the notes of what to back up."""
    return Path(settings.BACKUP_STATUS_DIR) / ".pending"


def mark_pending(tournament_id: int, since: float) -> None:
    """Note that the tournament needs a backup holding changes up to ``since``. The note is
    renamed into place but not waited for on disk: a desk's save does not wait for it, and
    after a power cut the database itself holds every acknowledged save (the next
    confirmation notes the backup again)."""
    write_atomically(pending_folder() / str(tournament_id), repr(since).encode(), durable=False)


@scopes_disabled()  # the system's process: every Verein's tournaments
def backup_process_loop(
    stop: threading.Event,
    poll: float = 0.5,
    caught_up: Callable[[], object] | None = None,
    lease_check: float = 10.0,
) -> None:
    """Write the backups that the web workers noted, coalescing notes per tournament and
    keeping BACKUP_MIN_INTERVAL between two backups of one tournament, until ``stop``. First,
    after a crash, the tournaments changed since their newest backup; ``caught_up`` is called
    once those are written (the hall lowers the writer's priority then: right after a restart
    the desks and phones come back at once, and the backup of the state before the crash must
    not wait for them). Across app servers one writer holds the lease (``lease.py``); the
    others wait and take over, starting with what changed since the newest backups."""
    from .lease import writer_lease

    first = True
    while not stop.is_set():
        with writer_lease(stop, poll) as lease:
            if lease is None:
                return
            _write_while_held(stop, lease, poll, caught_up if first else None, lease_check)
            first = False


def _write_while_held(
    stop: threading.Event,
    lease: Any,
    poll: float,
    caught_up: Callable[[], object] | None,
    lease_check: float,
) -> None:
    from django.db import connections

    not_before: dict[int, float] = {}  # tournament -> when it may be written next
    interval = float(getattr(settings, "BACKUP_MIN_INTERVAL", 0))
    try:
        stale = changed_since_backup() if settings.BACKUP_AUTO else []
        for tournament_id in stale:
            started = time.time()
            try:
                write_auto_backup(tournament_id, started)
            except Exception:  # noted for the desk; the loop below tries again
                logger.exception("automatic backup of tournament %s failed", tournament_id)
                mark_pending(tournament_id, started)
                not_before[tournament_id] = time.monotonic() + retry_seconds()
            else:
                not_before[tournament_id] = time.monotonic() + interval
    except Exception:
        logger.exception("could not look for changes since the last backups")
    finally:
        connections.close_all()
    if caught_up is not None:
        caught_up()
    checked = time.monotonic()
    while not stop.is_set():
        if time.monotonic() - checked >= lease_check:
            if not lease.held():  # e.g. the database restarted: ask for the lease again
                logger.warning("the backup writer lost its lease; it asks again")
                return
            checked = time.monotonic()
        folder = pending_folder()
        notes = sorted(folder.iterdir()) if folder.is_dir() else []
        for note in notes:
            if not note.name.isdigit():
                continue
            tournament_id = int(note.name)
            if time.monotonic() < not_before.get(tournament_id, 0.0):
                continue
            try:
                text = note.read_text()
                since = float(text)
            except (OSError, ValueError):
                continue
            try:
                write_auto_backup(tournament_id, since)
            except Exception:  # the note stays: tried again after retry_seconds()
                logger.exception("automatic backup of tournament %s failed", tournament_id)
                not_before[tournament_id] = time.monotonic() + retry_seconds()
                continue
            finally:
                connections.close_all()
            not_before[tournament_id] = time.monotonic() + interval
            with suppress(OSError):
                if note.read_text() == text:  # no newer note came in meanwhile
                    note.unlink()
        stop.wait(poll)


atexit.register(auto_backups.flush)
