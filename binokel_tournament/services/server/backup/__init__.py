"""Backup and restore of one whole tournament as one JSON document, and the automatic backups.

The document holds the tournament with its rule set, competitions, entrants, rounds, tables
with their seats, score sheets (typed entries, version, who entered and confirmed them) with
their stored games and points, the charity evening (extra donations, the prize table with the
winners' choices; fees, donation rule, paid flags and categories are fields of the tournament
and its entrants), what the tables did on their phones (seat check, confirmation, help
calls, the games as the table entered them), the cups (series) it counts for, the audit log,
the members and the accounts they use (username, password hash, active). It names things by
what they are, never by database ids (an entrant by its start number, a table by round and
number, a user by username), and it is written deterministically (sorted keys, fixed order),
so backup → restore into an empty database → backup gives the same bytes.

Every field of a model is carried (new fields of the models come along without touching this
module); every relation must be named here, and a model field this module does not know makes
the backup fail loudly rather than lose it.

Automatic backups: after every confirmed sheet and every seating change the service calls
:func:`schedule_backup`; once that transaction has committed, the tournament is written to
``BACKUP_DIR/<slug>/<slug>-<time>.json`` (temp file + rename, so a half-written backup never
has a backup's name), keeping the newest ``BACKUP_KEEP``. Writing happens in a background
thread of the server process, so a desk's save never waits for it; confirmations that come in
while a backup is written, or within BACKUP_MIN_INTERVAL seconds of the last one, share the
next backup (a file lock and a marker coordinate the server's processes). So the newest backup
is at most a few seconds behind the database — and the database itself never loses an
acknowledged save.
"""

from __future__ import annotations

from .dump import DumpCache, backup_bytes, dump_tournament
from .format import FORMAT, MAX_BYTES, VERSION, BackupError, to_bytes
from .restore import RestoreResult, read_document, restore
from .writer import (
    WORKER_ENV,
    AutoBackups,
    BackupStatus,
    auto_backups,
    backup_folder,
    backup_process_loop,
    backup_status,
    changed_since_backup,
    file_stamp,
    file_time,
    list_backups,
    mark_pending,
    pending_folder,
    prune,
    retry_seconds,
    schedule_backup,
    write_atomically,
    write_auto_backup,
)

__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "VERSION",
    "WORKER_ENV",
    "AutoBackups",
    "BackupError",
    "BackupStatus",
    "DumpCache",
    "RestoreResult",
    "auto_backups",
    "backup_bytes",
    "backup_folder",
    "backup_process_loop",
    "backup_status",
    "changed_since_backup",
    "dump_tournament",
    "file_stamp",
    "file_time",
    "list_backups",
    "mark_pending",
    "pending_folder",
    "prune",
    "read_document",
    "restore",
    "retry_seconds",
    "schedule_backup",
    "to_bytes",
    "write_atomically",
    "write_auto_backup",
]
