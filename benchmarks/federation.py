"""A server for many clubs under load (issue 34): PostgreSQL + Redis, two app servers
(`manage.py hall` twice, gunicorn on loopback, one port each), and V Vereine (default 20) each
running an evening at once: a demo evening of E entrants (default 100; rounds 1-2 scored,
round 3 open, the tables entering their own games), with 2 desks saving round-3 sheets at the
desk and P phones (default 35): one per table of round 3 entering a game every ``--pace``
minutes (default 4, the planned pace of an evening; the first at a random moment of the first
four minutes) and all the while asking every ``--every`` seconds (default 10) for its table's
state and its competition's public standings in turn (``--pace 0``: each table's 12 games
within the run, a round squeezed into three minutes: a stress test, 20 times an evening's
rate); phones beyond the tables' count keep a player's own page open (asked again every
``--every`` seconds with the ETag of what it holds, as its script does).
Each Verein's people use one of the two app servers (Verein 1 the first, 2 the second, …). The
phones run in a process of their own on one event loop (aiohttp), the desks as threads: a thread
per phone (700 of them) took the two cores from the servers it measured.

Prints, per app server: pages (p50, p95, max), saves of the desks and the phones' games (p50,
p95, max), errors; then the servers' CPU share, the whole machine's and PostgreSQL's, and a
final check through `manage.py verify`: every acknowledged desk save and every acknowledged
game is stored (0 lost), and stored points equal re-scored points. Goal on a two-core
machine: p95 page <= 300 ms, p95 save <= 500 ms, 0 errors, 0 lost. The reference loop
(benchmarks/_machine.py) is printed beside the figures.

The desks type a sheet in ``--think`` seconds (default 30, faster than a person; 2 is a stress
test of 20 saves a second across the server, many more than a real evening's desks make). Each
desk draws its own think times: the clubs' desks do not save in step.

Run:  .venv/bin/python benchmarks/federation.py [--vereine 20] [--seconds 180] [--pace 4]
(DATABASE_URL: default postgres://postgres@127.0.0.1:5432/binokel_federation, dropped and made
anew; CACHE_URL: default redis://127.0.0.1:6379/13, emptied; ports from HALL_PORTS)."""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
import threading
import time
import uuid
from multiprocessing.connection import Connection
from pathlib import Path
from urllib.parse import quote

import aiohttp
import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import _machine as machine  # noqa: E402
import load  # noqa: E402
from _phone_loop import Figures, get, page_run, pause_until, session  # noqa: E402

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


async def phone_run(base: str, slug: str, plan: dict, figures: Figures, start: float,
                    seconds: float, every: float, pace: float, warmup: float) -> None:  # fmt: skip
    """One table's phone: a game every ``pace`` minutes (the first at a random moment of the
    first such span; ``pace`` 0: its 12 games spread over the run), and all the while its
    table's state and the public standings in turn, every ``every`` seconds."""
    async with session() as http:
        link = f"{base}/tisch/{plan['token']}/"
        rng = random.Random(plan["table"])
        # the table sits down: its phone opens the link during the warm-up before the clock
        await pause_until(start - warmup + rng.uniform(0, warmup - 1))
        opening = Figures()
        if await get(http, link, opening) is None:
            figures.errors += opening.errors
            return
        figures.openings += opening.pages
        csrf = next((c.value for c in http.cookie_jar if c.key == "csrftoken"), "")
        headers = {"X-CSRFToken": csrf, "Accept": "application/json", "Referer": link}
        async with http.post(link + "plaetze/", json={"numbers": plan["seats"]},
                             headers=headers) as seats:  # fmt: skip
            if seats.status != 200:
                figures.error(f"{link}: seats HTTP {seats.status}")
            shown = [(await seats.json(content_type=None)).get("state", {}).get("stamp", "")]
        games = plan["games"]
        if pace > 0:
            first = start + rng.uniform(0, pace * 60)
            dues = [first + i * pace * 60 for i in range(len(games))]
        else:
            dues = [start + n * seconds / (len(games) + 1) for n in range(1, len(games) + 1)]
        end = start + seconds
        polls = [start + rng.uniform(0, every), 0]  # when the next poll is due, polls made

        async def poll_until(moment: float) -> None:
            while polls[0] < min(moment, end):
                await pause_until(polls[0])
                if polls[1] % 2 == 0:  # as the phone's script: "since" the state it shows
                    ask = link + "stand/" + (f"?since={quote(shown[0])}" if shown[0] else "")
                    body = await get(http, ask, figures, {"Accept": "application/json"})
                    state = json.loads(body).get("state") if body else None
                    if state:
                        shown[0] = state.get("stamp", "")
                else:
                    ask = f"{base}/t/{slug}/rangliste/singles/"
                    await get(http, ask, figures, {"Accept": "application/json"})
                polls[0] += every
                polls[1] += 1

        for n, (game, due) in enumerate(zip(games, dues, strict=True), start=1):
            await poll_until(due)
            if due >= end:
                return
            await pause_until(due)
            body = {"op": f"{plan['token'][:8]}-{n}-{uuid.uuid4().hex[:12]}", "number": n,
                    "base": "", "game": game}  # fmt: skip
            for attempt in range(3):  # as the phone's outbox: the same key again after a drop
                began = time.perf_counter()
                try:
                    async with http.post(link + "spiel/", json=body, headers=headers) as reply:
                        answer = await reply.json(content_type=None)
                        status = reply.status
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.2 * (attempt + 1))
                    continue
                except (TimeoutError, aiohttp.ClientError, ValueError) as exc:
                    figures.error(f"{link} game {n}: {exc!r}")
                    break
                figures.games.append(time.perf_counter() - began)
                if status == 200 and answer.get("ok"):
                    figures.acked_games[plan["table"]] = n
                    shown[0] = (answer.get("state") or {}).get("stamp", shown[0])
                else:
                    figures.error(f"{link} game {n}: HTTP {status}")
                break
        await poll_until(math.inf)


def run_phones(evenings: list[dict], bases: list[str], start: float, warmup: float,
               args: argparse.Namespace, out: Connection) -> None:  # fmt: skip
    """The process of every phone: one event loop, so that the phones do not take the cores
    from the servers they measure (a thread per phone did: 700 threads)."""

    async def run() -> list[Figures]:
        figures = [Figures() for _ in bases]
        tasks = []
        for i, evening in enumerate(evenings):
            s = i % len(bases)
            for plan in evening["phones"]:
                tasks.append(phone_run(bases[s], evening["slug"], plan, figures[s], start,
                                       args.seconds, args.every, args.pace, warmup))  # fmt: skip
            for token in evening["tokens"]:
                tasks.append(page_run((f"{bases[s]}/p/{token}/",), args.every, figures[s], start,
                                      args.seconds))  # fmt: skip
        await asyncio.gather(*tasks)
        return figures

    out.send([vars(f) for f in asyncio.run(run())])
    out.close()


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
    parser.add_argument(
        "--pace",
        type=float,
        default=4.0,
        help="minutes a table takes for a game (default 4, the planned pace); 0: each table's "
        "12 games within the run (a round in three minutes, a stress test)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=30.0,
        help=(
            "mean seconds a desk types before each save (default 30: a sheet of 12 games typed "
            "in half a minute, faster than a person types; 2: a stress test, 15 times that)"
        ),
    )
    parser.add_argument(
        "--no-file-backups",
        action="store_true",
        help="BACKUP_AUTO=0: the hosted set-up where pg_dump is the backup (docs/operations.md)",
    )
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--workers", type=int, default=None, help="per app server")
    parser.add_argument("--threads", type=int, default=None, help="per worker process")
    args = parser.parse_args()

    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/binokel_federation")
    if not os.environ["DATABASE_URL"].startswith("postgres"):
        sys.exit("federation.py measures the hosted set-up: DATABASE_URL must name PostgreSQL")
    cache = os.environ.get("CACHE_URL", "redis://127.0.0.1:6379/13")
    redis.Redis.from_url(cache).flushdb()
    folder, url, env = load.fresh_hall("binokel-federation-")
    env["CACHE_URL"] = cache
    if args.no_file_backups:
        env["BACKUP_AUTO"] = "0"
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
        f"PostgreSQL + Redis; {args.servers} app servers ({args.workers or 'the hall default'} "
        f"processes x {args.threads or 'the hall default'} threads); {args.vereine} Vereine x "
        f"{args.entrants} entrants (built in {time.perf_counter() - built:.0f} s): 2 desks and "
        f"{phones // max(1, args.vereine)} phones each ({phones} phones in all, a poll every "
        f"{args.every:g} s, a table phone's games "
        f"{f'every {args.pace:g} min' if args.pace else '(12) spread over the run'}), "
        f"{args.seconds:g} s; desks' think time {args.think:g} s; automatic file backups "
        f"{'off (BACKUP_AUTO=0)' if args.no_file_backups else 'on'}; {machine.describe()}",
        flush=True,
    )
    servers = []
    try:
        for _n in range(args.servers):
            servers.append(
                hall_server.start(env, hall_server.free_port(), args.workers, threads=args.threads)
            )
        desk_stats = [load.Stats() for _ in servers]
        threads: list[threading.Thread] = []
        desks = [
            [hall_server.Desk(servers[i % len(servers)].url, name) for name in evening["desks"]]
            for i, evening in enumerate(evenings)
        ]  # logged in before the clock starts
        # the tables' phones open their links during the warm-up, spread over it (a hall's
        # phones over the minutes the players take their seats), before the clock starts
        warmup = max(5.0, phones / 30)
        cpu_before = [hall_server.server_cpu_seconds(s) for s in servers]
        usage = machine.Usage()
        usage.start()
        start = time.monotonic() + 3 + warmup  # the phones' process is ready by then
        deadline = start + args.seconds
        mine, theirs = multiprocessing.Pipe(duplex=False)
        phone_process = multiprocessing.get_context("spawn").Process(
            target=run_phones,
            args=(evenings, [s.url for s in servers], start, warmup, args, theirs),
        )
        phone_process.start()
        for i, evening in enumerate(evenings):
            s = i % len(servers)
            tables = [int(t) for t in evening["desk_tables"]]
            for d, desk in enumerate(desks[i]):
                threads.append(
                    threading.Thread(
                        target=load.desk_run,
                        args=(
                            desk,
                            evening["slug"],
                            tables[d::2],
                            evening["desk_tables"],
                            desk_stats[s],
                            deadline,
                            # a number of its own: its think times are its own (with d + 1
                            # the first desks of all Vereine typed in step and saved in the
                            # same second: 20 saves at once, a burst no evening makes)
                            len(desks[i]) * i + d + 1,
                            args.think,
                        ),  # fmt: skip
                    )
                )
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        theirs.close()
        if not mine.poll(max(0.0, deadline - time.monotonic()) + 120):
            sys.exit(f"the phones' process gave no figures (exit code {phone_process.exitcode})")
        figures = []
        for held in mine.recv():
            figures.append(Figures.from_dict(held))
        phone_process.join()
        elapsed = time.monotonic() - start + warmup
        used = usage.report()
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
            f"app server {n}: pages {ms(f.pages)} (kept {f.kinds['kept']}, the one before "
            f"{f.kinds['previous']}, made "
            f"{f.kinds['made']}, unchanged {f.kinds['unchanged']}); phones' games "
            f"{ms(f.games)}; desk saves {ms(d.latencies)}; the table phones' first page "
            f"(during the warm-up of {warmup:.0f} s) {ms(f.openings)}; "
            f"errors {len(errors)}; CPU {cpu[n - 1]:.0f} s = "
            f"{100 * cpu[n - 1] / elapsed / cores:.0f} % of {cores} cores"
        )
        for line in errors[:5]:
            print("  " + line)
        met &= p95(f.pages) <= 300 and p95(f.games + d.latencies) <= 500 and not errors
    print(f"warm-up and run: {used}")
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
