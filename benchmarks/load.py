"""N desks at once through the hall server: each desk logs in (real HTTP against
`manage.py hall`, gunicorn on loopback) and, for a bounded time, opens its tables' score sheets,
saves a draft and confirms the full sheet (then corrects it, once its tables are done). Prints
saves/s, the latency of a save (p50, p95, max), errors, how far the newest automatic backup was
behind the database (sampled twice a second: the age of the oldest acknowledged save that no
backup holds yet), and a final check that the stored points equal the points re-scored from the
stored games and that every acknowledged save is stored.

Each desk waits a think time before each save (``--think``, default 1 s: a person typing a
sheet takes minutes; ``--think 0`` measures the server saturated).

Run:  .venv/bin/python benchmarks/load.py --desks 20 --seconds 60
      DATABASE_URL=postgres://postgres@127.0.0.1:5432/binokel_night_load \\
          .venv/bin/python benchmarks/load.py --desks 20 --seconds 60
(the PostgreSQL database is dropped and created anew; SQLite uses a fresh file)."""

from __future__ import annotations

import argparse
import bisect
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import hall_server  # noqa: E402


def fresh_postgres(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def fresh_hall(prefix: str) -> tuple[Path, str, dict[str, str]]:
    """A migrated, empty database for a benchmark's hall server: a fresh SQLite file in a new
    data folder, or the PostgreSQL database DATABASE_URL names, dropped and created anew.
    Returns the data folder, the database URL and the server's environment."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    url = os.environ.get("DATABASE_URL") or hall_server.sqlite_database(folder)
    if url.startswith("postgres"):
        fresh_postgres(url)
    env = hall_server.server_env(url, folder)
    hall_server.manage(env, "migrate", "--noinput", "-v0")
    return folder, url, env


SETUP = """
import json, random
from django.contrib.auth import get_user_model
from binokel_tournament.models import Entrant, Membership, Mode, Role
from binokel_tournament.services.evening.registration import create_tournament
from binokel_tournament.services.evening.seating import generate_seating
from binokel_tournament.services.sheets.results import load_table
from binokel_tournament.services.evening.simulation import simulated_entries
desks, entrants, password = {desks}, {entrants}, {password!r}
t = create_tournament("Lasttest", modes=[Mode.SINGLES])
comp = t.competitions.get()
Entrant.objects.bulk_create(
    Entrant(tournament=t, competition=comp, start_number=i, name=f"Spielerin {{i}}",
            club=f"Verein {{i % 17}}") for i in range(1, entrants + 1))
generate_seating(comp)
User = get_user_model()
for d in range(desks):
    user = User(username=f"desk{{d + 1}}")
    user.set_password(password)
    user.save()
    Membership.objects.create(tournament=t, user=user, role=Role.ORGANISER)
rules = t.rules()
tables = {{}}
for round_obj in t.round_set.order_by("number"):
    for table in round_obj.tables.order_by("number"):
        table = load_table(table.pk)
        tables[table.pk] = [simulated_entries(table, random.Random(f"{{table.pk}}-{{v}}"), rules)
                            for v in range(2)]
print(json.dumps({{"slug": t.slug, "tables": tables}}))
"""


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.statuses: Counter[int] = Counter()
        self.errors: list[str] = []
        self.last_ack: dict[int, tuple[int, str]] = {}  # table -> (version, entries digest)
        self.ack_times: list[float] = []  # wall-clock times of acknowledged saves


def newest_backup_start(folder: Path, slug: str) -> float:
    """When the newest automatic backup of the tournament started (it holds every save
    acknowledged before), 0 if there is none."""
    try:
        return float((folder / "backups" / slug / ".latest").read_text())
    except (OSError, ValueError):
        return 0.0


def sample_backup_lag(folder, slug, stats, stop, lags) -> None:
    """Twice a second: how long ago the oldest acknowledged save was that the newest backup
    does not hold (0 when it holds them all)."""
    while not stop.wait(0.5):
        started = newest_backup_start(folder, slug)
        now = time.time()
        with stats.lock:
            first = bisect.bisect_right(stats.ack_times, started)
            oldest = stats.ack_times[first] if first < len(stats.ack_times) else None
        lags.append(now - oldest if oldest is not None else 0.0)


def lag_summary(lags: list[float]) -> str:
    if not lags:
        return "no samples"
    ordered = sorted(lags)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"p50 {statistics.median(ordered):.1f} s, p95 {p95:.1f} s, max {ordered[-1]:.1f} s"


def desk_run(desk, slug, tables, variants, stats, deadline, number, think) -> None:
    rng = random.Random(number)
    passes = 0
    while time.monotonic() < deadline:
        for table in tables:
            if time.monotonic() >= deadline:
                return
            path = f"/desk/{slug}/zettel/{table}/"
            full = {**variants[str(table)][passes % 2], "written-total-c1": f"{number}{passes}"}
            games = sorted({k.split("-")[0] for k in full if k.startswith("g")})
            keep = set(games[: len(games) // 2])
            steps = [(full, True)]
            if passes == 0:  # first pass: a draft of the first half, then the whole sheet
                draft = {k: v for k, v in full.items() if k.split("-")[0] in keep}
                steps.insert(0, (draft, False))
            for entries, confirm in steps:
                if think:  # the desk types (much faster than a person would)
                    pause = rng.uniform(0.5, 1.5) * think
                    if time.monotonic() + pause >= deadline:  # no save after the end of the run
                        return
                    time.sleep(pause)
                try:
                    version, token = desk.open_sheet(path)
                    start = time.perf_counter()
                    reply = desk.save(path, entries, version, token, confirm)
                    took = time.perf_counter() - start
                except Exception as exc:  # noqa: BLE001 - every failure is counted
                    with stats.lock:
                        stats.errors.append(f"desk {number} table {table}: {exc!r}"[:200])
                    continue
                with stats.lock:
                    stats.latencies.append(took)
                    stats.statuses[reply.status_code] += 1
                    if reply.status_code == 302:
                        stats.last_ack[table] = (version + 1, hall_server.entries_digest(entries))
                        bisect.insort(stats.ack_times, time.time())
                    else:
                        stats.errors.append(
                            f"desk {number} table {table}: HTTP {reply.status_code} "
                            f"{reply.text[:120]!r}"
                        )
        passes += 1
        rng.shuffle(tables)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--desks", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--entrants", type=int, default=300)
    parser.add_argument("--workers", type=int, default=None, help="default: the hall's")
    parser.add_argument("--threads", type=int, default=None, help="default: the hall's (4)")
    parser.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean seconds a desk types before each save (0: as fast as the server answers)",
    )
    args = parser.parse_args()

    folder, url, env = fresh_hall("binokel-load-")
    setup = SETUP.format(desks=args.desks, entrants=args.entrants, password=hall_server.PASSWORD)
    data = json.loads(hall_server.manage(env, "shell", "-c", setup).splitlines()[-1])
    slug, variants = data["slug"], data["tables"]
    table_ids = [int(t) for t in variants]
    print(
        f"database: {'PostgreSQL' if url.startswith('postgres') else 'SQLite (WAL)'}; "
        f"{args.entrants} entrants, {len(table_ids)} score sheets, {args.desks} desks, "
        f"{args.seconds:.0f} s, think time {args.think:g} s per save"
    )
    stats = Stats()
    with hall_server.running(env, workers=args.workers, threads=args.threads) as server:
        workers = args.workers or "default"
        print(f"hall server: {server.url} (workers: {workers}, {args.threads or 4} threads each)")
        desks = [hall_server.Desk(server.url, f"desk{d + 1}") for d in range(args.desks)]
        cpu_before = hall_server.server_cpu_seconds(server)  # after the logins
        share = [table_ids[d :: args.desks] for d in range(args.desks)]
        start = time.monotonic()
        deadline = start + args.seconds
        threads = [
            threading.Thread(
                target=desk_run,
                args=(desks[d], slug, share[d], variants, stats, deadline, d + 1, args.think),
            )
            for d in range(args.desks)
        ]
        lags: list[float] = []
        stop_sampling = threading.Event()
        sampler = threading.Thread(
            target=sample_backup_lag, args=(folder, slug, stats, stop_sampling, lags)
        )
        sampler.start()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - start
        stop_sampling.set()
        sampler.join()
        cpu = hall_server.server_cpu_seconds(server) - cpu_before
        backups = len(list((folder / "backups").rglob("*.json")))
    saves = len(stats.latencies)
    ms = sorted(x * 1000 for x in stats.latencies)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))] if ms else float("nan")
    print(
        f"saves: {saves} in {elapsed:.1f} s = {saves / elapsed:.1f} saves/s; "
        f"latency p50 {statistics.median(ms) if ms else float('nan'):.0f} ms, "
        f"p95 {p95:.0f} ms, max {max(ms) if ms else float('nan'):.0f} ms"
    )
    print(f"replies: {dict(stats.statuses)}; errors: {len(stats.errors)}")
    for line in stats.errors[:10]:
        print("  " + line)
    print(f"automatic backups written meanwhile: {backups}")
    print(f"newest backup behind the database (sampled every 0.5 s): {lag_summary(lags)}")
    print(
        f"server CPU: {cpu:.1f} s for {saves} saves = {1000 * cpu / max(saves, 1):.0f} ms per "
        f"save (the sheet page before it and the backups included); load average now "
        f"{os.getloadavg()[0]:.1f} ({os.cpu_count()} cores, shared with whatever else runs)"
    )
    report = json.loads(hall_server.manage(env, "verify", check=False).splitlines()[-1])
    lost = [
        table
        for table, (version, entries) in stats.last_ack.items()
        if report["sheets"][str(table)]["version"] != version
        or report["sheets"][str(table)]["entries"] != entries
    ]
    print(
        f"final check: {len(report['sheets'])} sheets; stored points = re-scored points: "
        f"{'yes' if not report['problems'] else 'NO ' + str(report['problems'][:3])}; "
        f"acknowledged saves stored: {'all' if not lost else f'MISSING on tables {lost[:10]}'}"
    )


if __name__ == "__main__":
    main()
