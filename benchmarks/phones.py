"""A hall full of phones: N phones (default 300) against the hall server (`manage.py hall`,
gunicorn on loopback) at 999 Einzel entrants and 150 pairs (`manage.py demo --entrants 999
--pairs 150`, round 3 open), for a bounded time, while desks save and confirm round-3 score
sheets. Two phones in three are players keeping their own page open (`/p/<token>/`, asked
again every 8 s as the page does; each of a different player); the others alternate between
the standings and the beamer of their competition every 15 s (one in four in the Paare). Like a
browser, each phone asks again with the ETag of what it holds (``If-None-Match``). Prints the
latency of the phones' requests (p50, p95, max; and for the players' own pages), errors, how
many were answered "304 Not Modified", how many pages were served kept and how many were
made, the desks' saves, and the hall server's CPU share. The phones run in a process of their
own on one event loop (aiohttp, benchmarks/_phone_loop.py), the desks as threads: a thread per
phone took the cores from the server it measured.

Target (issue 24): p95 <= 300 ms and 0 errors with 300 phones and 10 desks.

Run:  .venv/bin/python benchmarks/phones.py --phones 300
      DATABASE_URL=postgres://postgres@127.0.0.1:5432/binokel_phones \\
          .venv/bin/python benchmarks/phones.py --phones 300
(the PostgreSQL database is dropped and created anew; SQLite uses a fresh file)."""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import statistics
import sys
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import _machine as machine  # noqa: E402
import load  # noqa: E402
from _phone_loop import Figures, page_run  # noqa: E402

from tests import hall_server  # noqa: E402

SETUP = """
import json, random
from django.contrib.auth import get_user_model
from binokel_tournament.models import Membership, Role, Table, TableKind, Tournament
from binokel_tournament.services.sheets.results import load_table
from binokel_tournament.services.evening.simulation import simulated_entries
t = Tournament.objects.get(slug={slug!r})
User = get_user_model()
for d in range({desks}):
    user = User(username=f"desk{{d + 1}}")
    user.set_password({password!r})
    user.save()
    Membership.objects.create(tournament=t, user=user, role=Role.ORGANISER)
rules = t.rules()
tables = {{}}
open_tables = Table.objects.filter(round__tournament=t, round__number=3, kind=TableKind.THREE)
for table in open_tables.order_by("number")[: {tables}]:
    table = load_table(table.pk)
    tables[table.pk] = [simulated_entries(table, random.Random(f"{{table.pk}}-{{v}}"), rules)
                        for v in range(2)]
from binokel_tournament.services.evening.players import ensure_links
tokens = [link.token for link in ensure_links(t)]
random.Random(7).shuffle(tokens)
print(json.dumps({{"slug": t.slug, "tables": tables, "tokens": tokens}}))
"""


PERSONAL_EVERY = 8.0  # the personal page asks again this often (views/players.py)


def phone_pages(
    base: str, slug: str, count: int, tokens: list[str], every: float
) -> list[tuple[tuple[str, ...], float]]:
    """Each phone's pages (taken in turn) and how often it asks: two in three a player's own
    page, the others the standings and the beamer of their competition."""
    out = []
    for number in range(count):
        if number % 3 != 2 and tokens:
            out.append(((f"{base}/p/{tokens[number % len(tokens)]}/",), PERSONAL_EVERY))
            continue
        mode = "pairs" if number % 4 == 3 else "singles"
        pair = (f"{base}/t/{slug}/rangliste/{mode}/", f"{base}/t/{slug}/beamer/{mode}/")
        out.append((pair, every))
    return out


def run_phones(
    pages: list[tuple[tuple[str, ...], float]], start: float, seconds: float, out: Connection
) -> None:
    """The process of every phone: one event loop, so that the phones do not take the cores
    from the server they measure (a thread per phone did). Each phone asks at its own moment
    within its interval (drawn from its number: the 75 phones on the Einzel standings asked
    at the same instant when it was drawn from the address alone), taking its pages in turn;
    the players' own pages are counted apart."""

    async def run() -> list[Figures]:
        others, own = Figures(), Figures()
        await asyncio.gather(
            *(
                page_run(urls, every, own if "/p/" in urls[0] else others, start, seconds, phone)
                for phone, (urls, every) in enumerate(pages)
            )
        )
        return [others, own]

    out.send([vars(f) for f in asyncio.run(run())])
    out.close()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=300)
    parser.add_argument("--every", type=float, default=15.0, help="seconds between two polls")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--desks", type=int, default=10)
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds before a save")
    parser.add_argument("--entrants", type=int, default=999)
    parser.add_argument("--pairs", type=int, default=150)
    args = parser.parse_args()

    folder, url, env = load.fresh_hall("binokel-phones-")
    slug = "phones"
    started = time.perf_counter()
    hall_server.manage(
        env, "demo", "--entrants", str(args.entrants), "--pairs", str(args.pairs), "--slug", slug
    )
    setup = SETUP.format(slug=slug, desks=args.desks, password=hall_server.PASSWORD, tables=120)
    data = json.loads(hall_server.manage(env, "shell", "-c", setup).splitlines()[-1])
    variants = data["tables"]
    (folder / "pw").write_text(hall_server.PASSWORD)  # the demo accounts get a real password
    hall_server.manage(env, "hall", "--check", "--noinput", "--password-file", str(folder / "pw"))
    print(
        f"database: {'PostgreSQL' if url.startswith('postgres') else 'SQLite (WAL)'}; "
        f"{args.entrants} Einzel + {args.pairs} pairs (built in "
        f"{time.perf_counter() - started:.0f} s); {args.phones} phones every {args.every:g} s "
        f"for {args.seconds:g} s; {args.desks} desks saving round-3 sheets (think time "
        f"{args.think:g} s); {machine.describe()}",
        flush=True,
    )
    desk_stats = load.Stats()
    with hall_server.running(env) as server:
        desks = [hall_server.Desk(server.url, f"desk{d + 1}") for d in range(args.desks)]
        table_ids = [int(t) for t in variants]
        share = [table_ids[d :: args.desks] for d in range(args.desks)]
        # every page once before the clock starts (the server's first requests)
        for mode in ("singles", "pairs"):
            for page in ("rangliste", "beamer"):
                requests.get(f"{server.url}/t/{slug}/{page}/{mode}/", timeout=60)
        cpu_before = hall_server.server_cpu_seconds(server)
        start = time.monotonic() + 3  # the phones' process is ready by then
        deadline = start + args.seconds
        pages = phone_pages(server.url, slug, args.phones, data["tokens"], args.every)
        mine, theirs = multiprocessing.Pipe(duplex=False)
        phone_process = multiprocessing.get_context("spawn").Process(
            target=run_phones, args=(pages, start, args.seconds, theirs)
        )
        phone_process.start()
        threads = [
            threading.Thread(
                target=load.desk_run,
                args=(desks[d], slug, share[d], variants, desk_stats, deadline, d + 1, args.think),
            )
            for d in range(args.desks)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        theirs.close()
        if not mine.poll(max(0.0, deadline - time.monotonic()) + 120):
            sys.exit(f"the phones' process gave no figures (exit code {phone_process.exitcode})")
        others, own_pages = (Figures.from_dict(held) for held in mine.recv())
        phone_process.join()
        elapsed = time.monotonic() - start
        cpu = hall_server.server_cpu_seconds(server) - cpu_before
    ms = [x * 1000 for x in others.pages + own_pages.pages]
    kinds = others.kinds + own_pages.kinds
    errors = others.errors + own_pages.errors
    desk_ms = [x * 1000 for x in desk_stats.latencies]
    confirmed = desk_stats.statuses.get(302, 0)
    print(
        f"phones: {len(ms)} requests in {elapsed:.1f} s = {len(ms) / elapsed:.1f}/s; latency "
        f"p50 {statistics.median(ms) if ms else float('nan'):.0f} ms, "
        f"p95 {percentile(ms, 0.95):.0f} ms, max {max(ms) if ms else float('nan'):.0f} ms; "
        f"errors: {len(errors)}; unchanged (304): {kinds['unchanged']}, pages "
        f"kept: {kinds['kept']}, the one before while another made it: {kinds['previous']}, "
        f"made: {kinds['made']}"
    )
    later = [x * 1000 for x in others.pages + own_pages.pages]
    for first in others.firsts + own_pages.firsts:
        later.remove(first * 1000)
    print(
        f"  after each phone's first request of its pages (those made the page for a new "
        f"server, {len(ms) - len(later)} of them): p50 {statistics.median(later):.0f} ms, "
        f"p95 {percentile(later, 0.95):.0f} ms"
    )
    own = [x * 1000 for x in own_pages.pages]
    if own:
        print(
            f"  of which players' own pages: {len(own)}; p50 {statistics.median(own):.0f} ms, "
            f"p95 {percentile(own, 0.95):.0f} ms, max {max(own):.0f} ms"
        )
    theirs_ms = [x * 1000 for x in others.pages]
    if theirs_ms:
        print(
            f"  standings and beamer: {len(theirs_ms)}; p50 {statistics.median(theirs_ms):.0f} ms, "
            f"p95 {percentile(theirs_ms, 0.95):.0f} ms, max {max(theirs_ms):.0f} ms"
        )
    for kind in sorted(set(others.by_kind) | set(own_pages.by_kind)):
        took = [x * 1000 for x in others.by_kind.get(kind, []) + own_pages.by_kind.get(kind, [])]
        print(
            f"  answered {kind!r}: {len(took)}; p50 {statistics.median(took):.0f} ms, "
            f"p95 {percentile(took, 0.95):.0f} ms, max {max(took):.0f} ms"
        )
    for line in errors[:10]:
        print("  " + line)
    print(
        f"desks: {len(desk_ms)} saves ({confirmed} acknowledged); latency "
        f"p50 {statistics.median(desk_ms) if desk_ms else float('nan'):.0f} ms, "
        f"p95 {percentile(desk_ms, 0.95):.0f} ms; errors: {len(desk_stats.errors)}"
    )
    for line in desk_stats.errors[:5]:
        print("  " + line)
    cores = os.cpu_count() or 1
    print(
        f"hall server CPU: {cpu:.1f} s in {elapsed:.1f} s = {100 * cpu / elapsed / cores:.0f} % "
        f"of {cores} cores; {machine.describe()}"
    )
    p95 = percentile(ms, 0.95)
    verdict = "met" if p95 <= 300 and not errors else "MISSED"
    print(f"target (p95 <= 300 ms, 0 errors): {verdict}")


if __name__ == "__main__":
    main()
