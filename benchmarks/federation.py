"""A server for many clubs under load (issue 34): PostgreSQL + Redis, two app servers
(`manage.py hall` twice, gunicorn on loopback, one port each), and V Vereine (default 20) each
running an evening at once: a demo evening of E entrants (default 100; rounds 1-2 scored,
round 3 open, the tables entering their own games), with 2 desks saving round-3 sheets at the
desk and P phones (default 35): one per table of round 3 entering its 12 games over the run and,
between games, asking every ``--every`` seconds (default 10) for its table's state and its
competition's public standings in turn; phones beyond the tables' count keep a player's own page
open. Each Verein's people use one of the two app servers (Verein 1 the first, 2 the second, …).

Prints, per app server: pages (p50, p95, max), saves of the desks and the phones' games (p50,
p95, max), errors; then the servers' CPU share, and a final check through `manage.py verify`:
every acknowledged desk save and every acknowledged game is stored (0 lost), and stored points
equal re-scored points. Goal on a two-core machine: p95 page <= 300 ms, p95 save <= 500 ms, 0
errors, 0 lost. The reference loop (benchmarks/_machine.py) is printed beside the figures.

Run:  .venv/bin/python benchmarks/federation.py [--vereine 20] [--seconds 180]
(DATABASE_URL: default postgres://postgres@127.0.0.1:5432/binokel_federation, dropped and made
anew; CACHE_URL: default redis://127.0.0.1:6379/13, emptied; ports from HALL_PORTS)."""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import redis
import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import _machine as machine  # noqa: E402
import load  # noqa: E402

from tests import hall_server  # noqa: E402

SETUP = """
import json, random
from django.contrib.auth import get_user_model
from binokel_tournament.models import Role, TableKind, Tournament
from binokel_tournament.services import tenancy
from binokel_tournament.services.demo import create_demo
from binokel_tournament.services.evening.players import ensure_links
from binokel_tournament.services.sheets.results import load_table
from binokel_tournament.services.sheets.sheet_fields import game_values
from binokel_tournament.services.evening.simulation import simulated_entries
from binokel_tournament.services.sheets.table_entry import chairs, opponents
from scoring.tables import table_shape
User = get_user_model()
out = []
for i in range({vereine}):
    verein = tenancy.create_verein(f"Binokelverein {{i + 1}}", f"verein-{{i + 1}}")
    t, _made = create_demo({entrants}, 0, slug=f"abend-{{i + 1}}", name=f"Abend {{i + 1}}",
                           seed=i + 1, verein=verein)
    Tournament.objects.filter(pk=t.pk).update(table_entry=True, provisional_table_sheets=True,
                                              public_pages=True)
    t.refresh_from_db()
    desks = []
    for d in range(2):
        user = User(username=f"desk-{{i + 1}}-{{d + 1}}")
        user.set_password({password!r})
        user.save()
        tenancy.set_member(verein, user, Role.ORGANISER, None)
        desks.append(user.username)
    rules = t.rules()
    tables = [load_table(x.pk) for x in t.round_set.get(number=3).tables.order_by("number")]
    phones, desk_tables = [], {{}}
    for n, table in enumerate(tables):
        entries = simulated_entries(table, random.Random(table.pk), rules)
        if n < {phones} and n < len(tables) - 4:
            columns = table_shape(table.kind).columns
            phones.append({{
                "table": table.pk, "token": table.entry_token,
                "seats": [c.start_number for c in chairs(table)],
                "opponents": [c.start_number for c in opponents(table)],
                "games": [game_values(entries, g, columns)
                          for g in range(1, rules.games_for(table.kind) + 1)],
            }})
        elif table.kind == TableKind.THREE:
            desk_tables[table.pk] = [entries,
                                     simulated_entries(table, random.Random(-table.pk), rules)]
    tokens = [link.token for link in ensure_links(t)][: max(0, {phones} - len(phones))]
    out.append({{"slug": t.slug, "desks": desks, "phones": phones, "desk_tables": desk_tables,
                 "tokens": tokens}})
for user in User.objects.exclude(username__startswith="desk-"):
    user.set_password({password!r})
    user.save()
print(json.dumps(out))
"""


class Figures:
    """What one app server answered."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pages: list[float] = []
        self.games: list[float] = []
        self.errors: list[str] = []
        self.kinds: Counter[str] = Counter()
        self.acked_games: dict[int, int] = {}  # table -> games the server acknowledged

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text[:240])


def get(
    http: requests.Session, url: str, figures: Figures, **kw: object
) -> requests.Response | None:
    began = time.perf_counter()
    try:
        reply = http.get(url, timeout=60, **kw)  # type: ignore[arg-type]
    except requests.RequestException as exc:
        figures.error(f"{url}: {exc!r}")
        return None
    took = time.perf_counter() - began
    with figures.lock:
        figures.pages.append(took)
        figures.kinds[reply.headers.get("X-Binokel-Page", "not kept")] += 1
        if reply.status_code != 200:
            figures.errors.append(f"HTTP {reply.status_code} {url}"[:240])
    return reply


def phone_run(base: str, slug: str, plan: dict, figures: Figures, start: float, seconds: float,
              every: float) -> None:  # fmt: skip
    """One table's phone: its games spread over the run, and between them its table's state
    and the public standings in turn, every ``every`` seconds."""
    http = requests.Session()
    link = f"{base}/tisch/{plan['token']}/"
    if get(http, link, figures) is None:
        return
    headers = {
        "X-CSRFToken": http.cookies.get("csrftoken", ""),
        "Accept": "application/json",
        "Referer": link,
    }
    seats = http.post(
        link + "plaetze/", json={"numbers": plan["seats"]}, headers=headers, timeout=60
    )
    if seats.status_code != 200:
        figures.error(f"{link}: seats HTTP {seats.status_code}")
    games = plan["games"]
    interval = seconds / (len(games) + 1)
    rng = random.Random(plan["table"])
    next_poll = start + rng.uniform(0, every)
    polls = 0
    for n, game in enumerate(games, start=1):
        due = start + n * interval
        while True:
            now = time.monotonic()
            if next_poll < due and next_poll < start + seconds:
                time.sleep(max(0.0, next_poll - now))
                url = link + "stand/" if polls % 2 == 0 else f"{base}/t/{slug}/rangliste/singles/"
                get(http, url, figures, headers={"Accept": "application/json"})
                polls += 1
                next_poll += every
                continue
            break
        if due >= start + seconds:
            return
        time.sleep(max(0.0, due - time.monotonic()))
        body = {"op": f"{plan['token'][:8]}-{n}-{uuid.uuid4().hex[:12]}", "number": n,
                "base": "", "game": game}  # fmt: skip
        reply = None
        for attempt in range(3):  # as the phone's outbox: the same key again after a drop
            began = time.perf_counter()
            try:
                reply = http.post(link + "spiel/", json=body, headers=headers, timeout=60)
                break
            except requests.ConnectionError:
                time.sleep(0.2 * (attempt + 1))
            except requests.RequestException as exc:
                figures.error(f"{link} game {n}: {exc!r}")
                break
        if reply is None:
            continue
        took = time.perf_counter() - began
        with figures.lock:
            figures.games.append(took)
            if reply.status_code == 200 and reply.json().get("ok"):
                figures.acked_games[plan["table"]] = n
            else:
                figures.errors.append(f"{link} game {n}: HTTP {reply.status_code}"[:240])


def player_run(base: str, token: str, figures: Figures, start: float, seconds: float,
               every: float) -> None:  # fmt: skip
    http = requests.Session()
    at = start + random.Random(token).uniform(0, every)
    while at < start + seconds:
        time.sleep(max(0.0, at - time.monotonic()))
        get(http, f"{base}/p/{token}/", figures)
        at += every


def ms(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(x * 1000 for x in values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (
        f"{len(ordered)}: p50 {statistics.median(ordered):.0f} ms, p95 {p95:.0f} ms, "
        f"max {ordered[-1]:.0f} ms"
    )


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000 if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vereine", type=int, default=20)
    parser.add_argument("--entrants", type=int, default=100)
    parser.add_argument("--phones", type=int, default=35)
    parser.add_argument("--every", type=float, default=10.0)
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds before a save")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--workers", type=int, default=None, help="per app server")
    args = parser.parse_args()

    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/binokel_federation")
    if not os.environ["DATABASE_URL"].startswith("postgres"):
        sys.exit("federation.py measures the hosted set-up: DATABASE_URL must name PostgreSQL")
    cache = os.environ.get("CACHE_URL", "redis://127.0.0.1:6379/13")
    redis.Redis.from_url(cache).flushdb()
    folder, url, env = load.fresh_hall("binokel-federation-")
    env["CACHE_URL"] = cache
    built = time.perf_counter()
    setup = SETUP.format(
        vereine=args.vereine,
        entrants=args.entrants,
        phones=args.phones,
        password=hall_server.PASSWORD,
    )
    evenings = json.loads(
        hall_server.manage(env, "shell", "-c", setup, timeout=3600).splitlines()[-1]
    )
    phones = sum(len(e["phones"]) + len(e["tokens"]) for e in evenings)
    print(
        f"PostgreSQL + Redis; {args.servers} app servers; {args.vereine} Vereine x "
        f"{args.entrants} entrants (built in {time.perf_counter() - built:.0f} s): 2 desks and "
        f"{phones // max(1, args.vereine)} phones each ({phones} phones in all, a poll every "
        f"{args.every:g} s, 12 games per table phone over the run), {args.seconds:g} s; "
        f"{machine.describe()}",
        flush=True,
    )
    servers = []
    try:
        for _n in range(args.servers):
            servers.append(hall_server.start(env, hall_server.free_port(), args.workers))
        figures = [Figures() for _ in servers]
        desk_stats = [load.Stats() for _ in servers]
        threads: list[threading.Thread] = []
        cpu_before = [hall_server.server_cpu_seconds(s) for s in servers]
        start = time.monotonic() + 5  # every client is ready before the clock starts
        deadline = start + args.seconds
        for i, evening in enumerate(evenings):
            s = i % len(servers)
            base, slug = servers[s].url, evening["slug"]
            tables = [int(t) for t in evening["desk_tables"]]
            for d, username in enumerate(evening["desks"]):
                desk = hall_server.Desk(base, username)
                threads.append(
                    threading.Thread(
                        target=load.desk_run,
                        args=(
                            desk,
                            slug,
                            tables[d::2],
                            evening["desk_tables"],
                            desk_stats[s],
                            deadline,
                            d + 1,
                            args.think,
                        ),  # fmt: skip
                    )
                )
            for plan in evening["phones"]:
                threads.append(
                    threading.Thread(
                        target=phone_run,
                        args=(base, slug, plan, figures[s], start, args.seconds, args.every),
                    )
                )
            for token in evening["tokens"]:
                threads.append(
                    threading.Thread(
                        target=player_run,
                        args=(base, token, figures[s], start, args.seconds, args.every),
                    )
                )
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - start
        cpu = [
            hall_server.server_cpu_seconds(s) - b for s, b in zip(servers, cpu_before, strict=True)
        ]
    finally:
        for server in servers:
            server.stop()
    cores = os.cpu_count() or 1
    met = True
    for n, (f, d) in enumerate(zip(figures, desk_stats, strict=True), start=1):
        errors = f.errors + d.errors
        print(
            f"app server {n}: pages {ms(f.pages)} (kept {f.kinds['kept']}, made "
            f"{f.kinds['made']}); phones' games {ms(f.games)}; desk saves {ms(d.latencies)}; "
            f"errors {len(errors)}; CPU {cpu[n - 1]:.0f} s = "
            f"{100 * cpu[n - 1] / elapsed / cores:.0f} % of {cores} cores"
        )
        for line in errors[:5]:
            print("  " + line)
        met &= p95(f.pages) <= 300 and p95(f.games + d.latencies) <= 500 and not errors
    report = json.loads(hall_server.manage(env, "verify", check=False).splitlines()[-1])
    sheets = report["sheets"]
    lost = [
        table
        for d in desk_stats
        for table, (version, entries) in d.last_ack.items()
        if sheets[str(table)]["version"] < version
        or (sheets[str(table)]["version"] == version and sheets[str(table)]["entries"] != entries)
    ]
    lost += [
        table
        for f in figures
        for table, count in f.acked_games.items()
        if sheets[str(table)]["games"] < count
    ]
    games = sum(sum(f.acked_games.values()) for f in figures)
    saves = sum(len(d.last_ack) for d in desk_stats)
    print(
        f"final check: {len(sheets)} sheets; stored points = re-scored points: "
        f"{'yes' if not report['problems'] else 'NO ' + str(report['problems'][:3])}; "
        f"{games} acknowledged games and the last acknowledged save of {saves} desk sheets: "
        f"{'all stored' if not lost else f'LOST on tables {lost[:10]}'}; load average now "
        f"{os.getloadavg()[0]:.1f}; {machine.describe()}"
    )
    met &= not lost and not report["problems"]
    print(f"goal (p95 page <= 300 ms, p95 save <= 500 ms, 0 errors, 0 lost): "
          f"{'met' if met else 'MISSED'}")  # fmt: skip


if __name__ == "__main__":
    main()
