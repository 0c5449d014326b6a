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
import os
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

import _machine as machine
import load

from tests import hall_server


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

    folder = Path(tempfile.mkdtemp(prefix="binokel-crash-"))
    url = os.environ.get("DATABASE_URL") or hall_server.sqlite_database(folder)
    if url.startswith("postgres"):
        load.fresh_postgres(url)
    env = hall_server.server_env(url, folder)
    hall_server.manage(env, "migrate", "--noinput", "-v0")
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
    last_ack_before_kill = 0.0
    restarted_at = 0.0
    for cycle in range(args.kills + 1):
        restarted_at = time.time()
        server = hall_server.start(env, port, timeout=120)
        final = cycle == args.kills
        load_for = 30.0 if final else rng.uniform(5, 15)
        desks = [hall_server.Desk(server.url, f"desk{d + 1}") for d in range(args.desks)]
        share = [table_ids[d :: args.desks] for d in range(args.desks)]
        deadline = time.monotonic() + load_for
        threads = [
            threading.Thread(
                target=load.desk_run,
                args=(desks[d], slug, share[d], variants, stats, deadline, d + 1, args.think),
            )
            for d in range(args.desks)
        ]
        for thread in threads:
            thread.start()
        if cycle:  # does a backup of the state before the last crash appear before the next?
            found = wait_for_backup(folder, slug, last_ack_before_kill, restarted_at + load_for)
            results.append(None if found is None else found - restarted_at)
            print(
                f"restart {cycle}: backup of the state before the crash "
                + (
                    f"{found - restarted_at:.1f} s after the restart"
                    if found is not None
                    else f"NOT written within the {load_for:.1f} s before the next kill"
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
        with stats.lock:
            last_ack_before_kill = stats.ack_times[-1] if stats.ack_times else 0.0
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
