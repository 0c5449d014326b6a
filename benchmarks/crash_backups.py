"""Backups across crashes: the hall server (`manage.py hall`, gunicorn on loopback, automatic
backups on) is killed with SIGKILL — master, workers and backup writer at once — again and
again while desks save, each time 5-15 s after the load began, and started again at once. After
each restart it prints when a backup holding every save acknowledged before the crash existed
(seconds after the restart command), or that none did before the next kill. At the end, without
a further kill, the same for the last crash.

Run:  .venv/bin/python benchmarks/crash_backups.py --kills 10
      DATABASE_URL=postgres://postgres@127.0.0.1:5432/binokel_crash_backups \\
          .venv/bin/python benchmarks/crash_backups.py --kills 10
(the PostgreSQL database is dropped and created anew; SQLite uses a fresh file)."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import threading
import time
from pathlib import Path

import _machine as machine
import load

from tests import hall_server

LAST_CHANGE = (
    "from django.db.models import Max;"
    "from binokel_tournament.models import AuditLog, ScoreSheet;"
    "a = AuditLog.objects.filter(tournament__isnull=False).aggregate(m=Max('at'))['m'];"
    "s = ScoreSheet.objects.aggregate(m=Max('updated_at'))['m'];"
    "print(max(x.timestamp() for x in (a, s) if x is not None))"
)


def last_change(env: dict[str, str]) -> float:
    """When the database last changed (what the backup of the state before a crash holds)."""
    return float(hall_server.manage(env, "shell", "-c", LAST_CHANGE).split()[-1])


def wait_for_backup(folder: Path, slug: str, holds: float, until: float) -> float | None:
    """The time at which a backup started after ``holds`` is there, None if not by ``until``."""
    while time.time() < until:
        if load.newest_backup_start(folder, slug) >= holds:
            return time.time()
        time.sleep(0.1)
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--desks", type=int, default=10)
    parser.add_argument("--entrants", type=int, default=300)
    parser.add_argument("--think", type=float, default=1.0)
    args = parser.parse_args()

    folder, url, env = load.fresh_hall("binokel-crash-")
    setup = load.SETUP.format(
        desks=args.desks, entrants=args.entrants, password=hall_server.PASSWORD
    )
    data = json.loads(hall_server.manage(env, "shell", "-c", setup).splitlines()[-1])
    slug, variants = data["slug"], data["tables"]
    table_ids = [int(t) for t in variants]
    print(
        f"database: {'PostgreSQL' if url.startswith('postgres') else 'SQLite (WAL)'}; "
        f"{args.entrants} entrants, {len(table_ids)} score sheets, {args.desks} desks "
        f"(think time {args.think:g} s), {args.kills} kills; {machine.describe()}",
        flush=True,
    )
    rng = random.Random(24)
    port = hall_server.free_port()
    stats = load.Stats()
    results: list[float | None] = []
    changed_before_kill = 0.0
    restarted_at = 0.0
    for cycle in range(args.kills + 1):
        restarted_at = time.time()
        final = cycle == args.kills
        load_for = 30.0 if final else rng.uniform(5, 15)
        # from the restart command on: when is the state before the crash backed up?
        found: list[float | None] = []
        watcher = threading.Thread(
            target=lambda holds=changed_before_kill, until=restarted_at + 60, out=found: out.append(
                wait_for_backup(folder, slug, holds, until)
            )
        )
        watcher.start()
        server = hall_server.start(env, port, timeout=120)
        killed_at = time.time() + load_for  # load_for after the server answers
        desks = [hall_server.Desk(server.url, f"desk{d + 1}") for d in range(args.desks)]
        share = [table_ids[d :: args.desks] for d in range(args.desks)]
        deadline = time.monotonic() + (killed_at - time.time())
        threads = [
            threading.Thread(
                target=load.desk_run,
                # a number of its own in every cycle: what it saves differs from the cycle
                # before (a save of the same values again changes nothing)
                args=(
                    desks[d],
                    slug,
                    share[d],
                    variants,
                    stats,
                    deadline,
                    100 * cycle + d + 1,
                    args.think,
                ),
            )
            for d in range(args.desks)
        ]
        for thread in threads:
            thread.start()
        if cycle:  # was it backed up before the next kill?
            watcher.join(timeout=max(0.0, killed_at - time.time()))
            at = found[0] if found and found[0] is not None else None
            results.append(None if at is None or at > killed_at else at - restarted_at)
            print(
                f"restart {cycle}: backup of the state before the crash "
                + (
                    f"{results[-1]:.1f} s after the restart command"
                    if results[-1] is not None
                    else f"NOT written within the {killed_at - restarted_at:.1f} s before the "
                    "next kill"
                ),
                flush=True,
            )
        remaining = deadline - time.monotonic()
        if remaining > 0:
            time.sleep(remaining)
        if final:
            server.stop()
        else:
            server.kill()
        for thread in threads:
            thread.join(timeout=60)
        changed_before_kill = last_change(env)
    written = [r for r in results if r is not None]
    print(
        f"kills: {args.kills}; a backup of the state before the crash was written after "
        f"{len(written)} of {len(results)} restarts"
        + (
            f" (median {statistics.median(written):.1f} s, max {max(written):.1f} s after "
            "the restart command)"
            if written
            else ""
        )
        + f"; saves acknowledged: {len(stats.ack_times)}; failed requests (the kills cut "
        f"them off): {len(stats.errors)}"
    )
    print(f"{machine.describe()}")


if __name__ == "__main__":
    main()
