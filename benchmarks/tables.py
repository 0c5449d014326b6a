"""The tables enter their own games at once: every table of round 3 of a demo tournament
(``manage.py demo --entrants 3×TABLES --pairs 0``, rounds 1-2 scored, round 3 open) opens its
link on a "phone" (real HTTP against the hall server ``manage.py hall``: gunicorn on loopback),
checks its seats, enters its 12 games one by one as the phone's script sends them (``spiel/``
with ``{"op": key, "number": n, "base": "", "game": {...}}``), and the opponents confirm the
sheet. The tournament counts table-confirmed sheets in its standings
(``provisional_table_sheets``), so the public standings show a table's games once it has
confirmed them.

Prints the latency of a saved game (p50, p95, max), errors (every reply that is not a saved
game), the time from the last game saved (and from the last table's confirmation) to the
public standings showing every game, the CPU time the server used per saved game, and a final
check that the stored points equal the points re-scored from the stored games.

Pacing: a real table saves a game every few minutes. Here each table spreads its 12 games
evenly over ``--seconds`` (default 60: a whole round compressed into a minute, 100 tables
together sending 20 games a second; each table starts at a random moment of its first
interval); ``--seconds 0`` sends every game the moment the previous one is answered. A table
makes 15 requests in all (page, seats, 12 games, confirmation), far below the per-link rate
limit (``TABLE_LINK_LIMIT`` requests per ``TABLE_LINK_WINDOW`` seconds), which therefore stays
as it is on the night; the script says so, and raises it for its server only (printing that)
should a run ever need more. A game whose connection dropped (e.g. a kept-alive connection the
server closed just then) is sent again with the same key, as the phone's outbox does; the
server recognises it, and the script counts it.

Run:  .venv/bin/python benchmarks/tables.py [--tables 100] [--seconds 60]
      DATABASE_URL=postgres://postgres@127.0.0.1:5432/binokel_tables \\
          .venv/bin/python benchmarks/tables.py --tables 100
(the PostgreSQL database is dropped and created anew; SQLite uses a fresh file; servers bind
a free port of HALL_PORTS, default 8100-8199, on 127.0.0.1)."""

from __future__ import annotations

import argparse
import html
import json
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import hall_server  # noqa: E402

GAMES = 12
REQUESTS_PER_TABLE = GAMES + 3  # page, seats, games, confirmation
TARGET_P95_MS = 200.0
TARGET_STANDINGS_S = 2.0

SETUP = """
import json, random
from django.contrib.auth import get_user_model
from binokel_tournament.models import Tournament, TableKind
from binokel_tournament.services.demo import create_demo
from binokel_tournament.services.sheets.results import load_table
from binokel_tournament.services.sheets.sheet_fields import game_values
from binokel_tournament.services.evening.simulation import simulated_entries
from binokel_tournament.services.sheets.table_entry import chairs, opponents
from scoring.tables import table_shape
tournament, _created = create_demo({entrants}, 0, slug="tische", name="Tische")
Tournament.objects.filter(pk=tournament.pk).update(table_entry=True, provisional_table_sheets=True,
                                                    public_pages=True)
for user in get_user_model().objects.all():  # the hall refuses the published demo password
    user.set_password({password!r})
    user.save()
tournament.refresh_from_db()
rules = tournament.rules()
round3 = tournament.round_set.get(number=3)
tables = []
for table in round3.tables.order_by("number")[:{tables}]:
    table = load_table(table.pk)
    columns = table_shape(table.kind).columns
    entries = simulated_entries(table, random.Random(table.pk), rules)
    tables.append({{
        "number": table.number,
        "token": table.entry_token,
        "seats": [c.start_number for c in chairs(table)],
        "opponents": [c.start_number for c in opponents(table)],
        "columns": [s.entrant.start_number for s in sorted(table.seats.all(),
                                                            key=lambda s: s.position)],
        "games": [game_values(entries, n, columns)
                  for n in range(1, rules.games_for(table.kind) + 1)],
    }})
print(json.dumps({{"slug": tournament.slug, "tables": tables}}))
"""

ROW = re.compile(r"<tr>(.*?)</tr>", re.S)
CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.S)


def number(text: str) -> int:
    """A number as the public page prints it: 1.220, −170."""
    return int(html.unescape(text).replace(".", "").replace("\u2212", "-").strip() or 0)


def round_points(page: str, round_number: int) -> dict[int, int]:
    """Start number -> points in ``round_number`` from the public standings
    (``?round=N``: the columns are place, start number, name, club, D1 … DN, total)."""
    body = page.split("<tbody", 1)[1] if "<tbody" in page else ""
    out = {}
    for row in ROW.findall(body):
        cells = CELL.findall(row)
        if len(cells) >= 4 + round_number:
            out[number(cells[1])] = number(cells[3 + round_number])
    return out


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.statuses: Counter[int] = Counter()
        self.errors: list[str] = []
        self.expected: dict[int, int] = {}  # start number -> round-3 points the phone showed
        self.last_game = 0.0  # monotonic time of the last saved game's reply
        self.last_confirm = 0.0
        self.limited = 0
        self.resent = 0  # games sent again after a dropped connection (the phone does so)

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text[:240])


def table_run(base: str, plan: dict, stats: Stats, start: float, interval: float) -> None:
    """One table's phone: page, seats, the games at their moments, the confirmation."""
    http = requests.Session()
    link = f"{base}/tisch/{plan['token']}/"
    name = f"table {plan['number']}"
    try:
        page = http.get(link, timeout=60)
        page.raise_for_status()
    except requests.RequestException as exc:
        stats.error(f"{name}: page {exc!r}")
        return
    headers = {
        "X-CSRFToken": http.cookies.get("csrftoken", ""),
        "Accept": "application/json",
        "Referer": link,
    }

    def post(path: str, body: dict) -> requests.Response:
        return http.post(link + path, json=body, headers=headers, timeout=60)

    seats = post("plaetze/", {"numbers": plan["seats"]})
    if seats.status_code != 200:
        stats.error(f"{name}: seats HTTP {seats.status_code} {seats.text[:120]!r}")
    state: dict = {}
    last: Exception | None = None
    for n, game in enumerate(plan["games"], start=1):
        wait = start + (n - 1) * interval - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        op = f"{plan['token'][:8]}-{n}-{uuid.uuid4().hex[:12]}"
        body = {"op": op, "number": n, "base": "", "game": game}  # a new game: base ""
        began = time.perf_counter()
        reply = None
        for attempt in range(3):  # as the phone's outbox: the same game with the same key again
            try:
                reply = post("spiel/", body)
                break
            except requests.ConnectionError as exc:
                with stats.lock:
                    stats.resent += 1
                last = exc
                time.sleep(0.2 * (attempt + 1))
            except requests.RequestException as exc:
                last = exc
                break
        if reply is None:
            stats.error(f"{name} game {n}: {last!r}")
            continue
        took = time.perf_counter() - began
        answer = reply.json() if reply.headers.get("Content-Type", "").startswith("app") else {}
        with stats.lock:
            stats.latencies.append(took)
            stats.statuses[reply.status_code] += 1
            stats.limited += reply.status_code == 429
            if reply.status_code == 200 and answer.get("ok"):
                stats.last_game = max(stats.last_game, time.monotonic())
                state = answer["state"]
            else:
                stats.errors.append(
                    f"{name} game {n}: HTTP {reply.status_code} {reply.text[:160]!r}"
                )
    if state.get("entered") != GAMES:
        stats.error(f"{name}: {state.get('entered')} of {GAMES} games kept")
        return
    confirm = post("bestaetigen/", {"numbers": plan["opponents"], "version": state["version"]})
    if confirm.status_code != 200:
        stats.error(f"{name}: confirmation HTTP {confirm.status_code} {confirm.text[:120]!r}")
        return
    with stats.lock:
        stats.last_confirm = max(stats.last_confirm, time.monotonic())
        for start_number, total in zip(plan["columns"], state["totals"], strict=True):
            stats.expected[start_number] = total


def standings_delay(base: str, slug: str, stats: Stats, timeout: float = 60) -> float | None:
    """Poll the public standings until round 3 shows what every table entered; the moment it
    does (monotonic), None after ``timeout``."""
    url = f"{base}/t/{slug}/rangliste/singles/?round=3"
    http = requests.Session()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        page = http.get(url, timeout=30).text
        shown = round_points(page, 3)
        if all(shown.get(k) == v for k, v in stats.expected.items()):
            return time.monotonic()
        time.sleep(0.05)
    return None


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument(
        "--seconds",
        type=float,
        default=60,
        help="each table spreads its 12 games over this many seconds (0: back to back)",
    )
    parser.add_argument("--workers", type=int, default=None, help="default: the hall's")
    parser.add_argument("--threads", type=int, default=None, help="default: the hall's (4)")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="binokel-tables-"))
    url = os.environ.get("DATABASE_URL") or hall_server.sqlite_database(folder)
    if url.startswith("postgres"):
        from load import fresh_postgres

        fresh_postgres(url)
    extra: dict[str, str] = {}
    limit = int(os.environ.get("TABLE_LINK_LIMIT", "600"))
    if limit < REQUESTS_PER_TABLE:  # never with the defaults; said aloud when it happens
        extra["TABLE_LINK_LIMIT"] = str(REQUESTS_PER_TABLE)
    env = hall_server.server_env(url, folder, **extra)
    hall_server.manage(env, "migrate", "--noinput", "-v0")
    built = time.perf_counter()
    setup = SETUP.format(
        entrants=3 * args.tables, tables=args.tables, password=hall_server.PASSWORD
    )
    data = json.loads(hall_server.manage(env, "shell", "-c", setup, timeout=1800).splitlines()[-1])
    slug, plans = data["slug"], data["tables"]
    print(
        f"database: {'PostgreSQL' if url.startswith('postgres') else 'SQLite (WAL)'}; "
        f"demo of {3 * args.tables} entrants built in {time.perf_counter() - built:.0f} s; "
        f"{len(plans)} tables of round 3 enter {GAMES} games each, "
        + (
            f"spread over {args.seconds:g} s per table"
            if args.seconds
            else "each game as soon as the last one is answered"
        )
    )
    if extra:
        print(f"rate limit raised for this run only: TABLE_LINK_LIMIT={extra['TABLE_LINK_LIMIT']}")
    else:
        print(
            f"rate limit as on the night: {REQUESTS_PER_TABLE} requests per table link, "
            f"TABLE_LINK_LIMIT={limit} per window (not raised)"
        )
    stats = Stats()
    with hall_server.running(env, workers=args.workers, threads=args.threads) as server:
        print(
            f"hall server: {server.url} (workers: {args.workers or 'default'}, "
            f"{args.threads or 4} threads each)"
        )
        cpu_before = hall_server.server_cpu_seconds(server)
        interval = args.seconds / GAMES
        rng = random.Random(1)
        began = time.monotonic() + 1.0
        threads = [
            threading.Thread(
                target=table_run,
                args=(server.url, plan, stats, began + rng.uniform(0, interval), interval),
            )
            for plan in plans
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        shown = standings_delay(server.url, slug, stats)
        elapsed = time.monotonic() - began
        cpu = hall_server.server_cpu_seconds(server) - cpu_before
    saved = stats.statuses.get(200, 0)
    ms = [x * 1000 for x in stats.latencies]
    p95 = quantile(ms, 0.95)
    print(
        f"games saved: {saved} in {elapsed:.1f} s = {saved / elapsed:.1f} games/s; "
        f"latency p50 {statistics.median(ms) if ms else float('nan'):.0f} ms, "
        f"p95 {p95:.0f} ms, max {max(ms) if ms else float('nan'):.0f} ms "
        f"(target p95 ≤ {TARGET_P95_MS:.0f} ms)"
    )
    print(
        f"replies: {dict(stats.statuses)}; errors: {len(stats.errors)}; "
        f"rate-limited: {stats.limited}; sent again after a dropped connection (same key, as "
        f"the phone's outbox does): {stats.resent}"
    )
    for line in stats.errors[:10]:
        print("  " + line)
    if shown is None:
        print("public standings: NOT showing every game within 60 s")
    else:
        print(
            f"public standings show every game {shown - stats.last_game:.2f} s after the last "
            f"game was saved ({shown - stats.last_confirm:.2f} s after the last table confirmed; "
            f"target ≤ {TARGET_STANDINGS_S:.0f} s)"
        )
    print(
        f"server CPU: {cpu:.1f} s for {saved} games = {1000 * cpu / max(saved, 1):.0f} ms per "
        f"saved game, page and confirmation included; load average now "
        f"{os.getloadavg()[0]:.1f} ({os.cpu_count()} cores, shared with whatever else runs)"
    )
    report = json.loads(hall_server.manage(env, "verify", check=False).splitlines()[-1])
    print(
        f"final check: {len(report['sheets'])} sheets; stored points = re-scored points: "
        f"{'yes' if not report['problems'] else 'NO ' + str(report['problems'][:3])}"
    )


if __name__ == "__main__":
    main()
