"""One desk at the door checks in N pre-registered players (default 300) through the hall server
(`manage.py hall`, gunicorn on loopback) on a fresh database: an Einzel field registered
beforehand with a Startgeld, every player's personal link made (`manage.py player_links`, as
the slips mailed or handed out before the evening). One logged-in helper session (the desk's
browser) does for every player, one after the other, what the check-in page does:

  scan   POST the personal link's full address into the search field, as a USB scanner types
         it (htmx: only the result box comes back) -> "Angekommen."
  paid   POST "Startgeld bezahlt" for the person found (F8)
  slip   GET the person's slip on the 80 mm roll (F9: the link the result box shows), a PDF

Measured is the page time: the wall time of these HTTP requests as the client sees them (not
the time a person takes to hand over money). Prints p50, p95 and max per kind of request, the
page time for all N players, check-ins per minute of page time, the hall server's CPU time,
and a final check from the database and from the page's counter that all N are present and
paid (exit status 1 if not, or if any request failed).

Target (the door's issue): one desk checks in 300 pre-registered players in under 25 minutes of
page time (for another N: the page time per player, times 300).

Bounded: stops after ``--seconds`` (default 600) of check-ins, whatever is left undone then
counts as missed.

Run:  .venv/bin/python benchmarks/checkin.py --players 300
      DATABASE_URL=postgres://postgres@127.0.0.1:5432/binokel_door \\
          .venv/bin/python benchmarks/checkin.py --players 300
(the PostgreSQL database is dropped and created anew; SQLite uses a fresh file)."""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import signal
import statistics
import sys
import time
from typing import Any

import _machine as machine
import load
import requests

from tests import hall_server

TARGET_PLAYERS = 300
TARGET_MINUTES = 25.0
FEE_CENTS = 1000
KINDS = ("scan", "paid", "slip")

SETUP = """
import json
from django.contrib.auth import get_user_model
from binokel_tournament.models import Entrant, Membership, Mode, Role
from binokel_tournament.services.evening.registration import create_tournament
players, password, fee = {players}, {password!r}, {fee}
t = create_tournament("Einlasstest", modes=[Mode.SINGLES])
t.entry_fee_cents = fee
t.save(update_fields=["entry_fee_cents"])
comp = t.competitions.get()
Entrant.objects.bulk_create(
    Entrant(tournament=t, competition=comp, start_number=i,
            name=f"Spielerin Nummer {{i}} Häußler", club=f"Binokelfreunde {{i % 23}}")
    for i in range(1, players + 1))
user = get_user_model()(username="tuer")
user.set_password(password)
user.save()
Membership.objects.create(tournament=t, user=user, role=Role.HELPER)
print(json.dumps({{"slug": t.slug}}))
"""

VERIFY = """
import json
from binokel_tournament.models import Tournament
t = Tournament.objects.get(slug={slug!r})
active = t.entrants.filter(withdrawn=False)
present = active.filter(checked_in_at__isnull=False)
print(json.dumps({{"registered": active.count(), "present": present.count(),
                  "paid": present.filter(fee_paid=True).count(),
                  "paid_all": active.filter(fee_paid=True).count()}}))
"""

CSRF_HEADER = re.compile(r'"X-CSRFToken": "([^"]+)"')
ENTRANT = re.compile(r'name="entrant" value="(\d+)"')
SLIP = re.compile(r'href="([^"]+)"[^>]*data-key="F9"')
COUNT = re.compile(r"(\d+) von (\d+) angekommen(?: · (\d+) bezahlt)?")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else float("nan")


def summary(seconds: list[float]) -> str:
    ms = [x * 1000 for x in seconds]
    if not ms:
        return "no requests"
    return (
        f"{len(ms)} requests, p50 {statistics.median(ms):.0f} ms, "
        f"p95 {percentile(ms, 0.95):.0f} ms, max {max(ms):.0f} ms, total {sum(ms) / 1000:.1f} s"
    )


class Door:
    """The desk's browser on the check-in page: a logged-in session with the page's CSRF
    token, sending what htmx sends."""

    def __init__(self, base: str, slug: str) -> None:
        self.desk = hall_server.Desk(base, "tuer")
        self.base = base
        self.page = f"{base}/desk/{slug}/einlass/"
        opened = self.desk.http.get(self.page, timeout=30)
        opened.raise_for_status()
        token = CSRF_HEADER.search(opened.text)
        assert token, opened.text[:500]
        self.headers = {"HX-Request": "true", "X-CSRFToken": token[1], "Referer": self.page}
        self.times: dict[str, list[float]] = {kind: [] for kind in KINDS}
        self.errors: list[str] = []

    def _timed(self, kind: str, method: str, url: str, **kwargs: Any) -> requests.Response:
        start = time.perf_counter()
        reply = self.desk.http.request(method, url, timeout=60, **kwargs)
        self.times[kind].append(time.perf_counter() - start)
        return reply

    def fail(self, number: int, kind: str, text: str) -> bool:
        self.errors.append(f"player {number} {kind}: {text}"[:200])
        return False

    def check_in(self, number: int, scanned: str) -> bool:
        """Scan, paid, slip for one player; False (and the reason in ``errors``) on a wrong
        answer."""
        reply = self._timed("scan", "POST", self.page, data={"q": scanned}, headers=self.headers)
        box = reply.text
        if reply.status_code != 200 or "Angekommen." not in box:
            return self.fail(number, "scan", f"HTTP {reply.status_code} {box[:120]!r}")
        if f'data-start="{number}"' not in box or (pk := ENTRANT.search(box)) is None:
            return self.fail(number, "scan", f"someone else found: {box[:120]!r}")
        slip = SLIP.search(box)
        if slip is None:
            return self.fail(number, "scan", "no slip link in the result box")
        data = {"entrant": pk[1], "action": "paid"}
        reply = self._timed("paid", "POST", self.page, data=data, headers=self.headers)
        if reply.status_code != 200 or "Startgeld bezahlt." not in reply.text:
            return self.fail(number, "paid", f"HTTP {reply.status_code} {reply.text[:120]!r}")
        url = self.base + html.unescape(slip[1])
        reply = self._timed("slip", "GET", url, allow_redirects=False)
        if reply.status_code != 200 or not reply.content.startswith(b"%PDF"):
            return self.fail(number, "slip", f"HTTP {reply.status_code} {reply.content[:80]!r}")
        return True

    def counter(self) -> tuple[int, int, int]:
        """What the page's counter shows: present, registered, paid."""
        text = self.desk.http.get(self.page, timeout=30).text
        found = COUNT.search(text)
        assert found, text[:500]
        return int(found[1]), int(found[2]), int(found[3] or 0)


def stop_on_sigterm(_signum: int, _frame: object) -> None:
    raise SystemExit(143)  # unwinds through `running`, which stops the hall server


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=TARGET_PLAYERS)
    parser.add_argument(
        "--seconds", type=float, default=600.0, help="stop checking in after this long"
    )
    parser.add_argument("--workers", type=int, default=None, help="default: the hall's")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, stop_on_sigterm)

    folder, url, env = load.fresh_hall("binokel-checkin-")
    started = time.perf_counter()
    setup = SETUP.format(players=args.players, password=hall_server.PASSWORD, fee=FEE_CENTS)
    slug = json.loads(hall_server.manage(env, "shell", "-c", setup).splitlines()[-1])["slug"]
    print(
        f"database: {'PostgreSQL' if url.startswith('postgres') else 'SQLite (WAL)'}; "
        f"{args.players} pre-registered Einzel players, Startgeld {FEE_CENTS / 100:.2f} EUR "
        f"(built in {time.perf_counter() - started:.1f} s); one desk (helper), at most "
        f"{args.seconds:g} s; {machine.describe()}",
        flush=True,
    )
    done = 0
    with hall_server.running(env, workers=args.workers) as server:
        links = hall_server.manage(
            env, "player_links", "--tournament", slug, "--base-url", server.url
        )
        players = [(p["start_number"], p["url"]) for p in json.loads(links)["players"]]
        door = Door(server.url, slug)  # logged in, the check-in page open
        print(f"hall server: {server.url} (workers: {args.workers or 'default'})", flush=True)
        cpu_before = hall_server.server_cpu_seconds(server)
        start = time.monotonic()
        deadline = start + args.seconds
        for number, scanned in players:
            if time.monotonic() >= deadline:
                break
            done += door.check_in(number, scanned)
        elapsed = time.monotonic() - start
        cpu = hall_server.server_cpu_seconds(server) - cpu_before
        shown = door.counter()
    stored = json.loads(
        hall_server.manage(env, "shell", "-c", VERIFY.format(slug=slug)).splitlines()[-1]
    )

    for kind in KINDS:
        print(f"{kind}: {summary(door.times[kind])}")
    page = sum(sum(door.times[kind]) for kind in KINDS)
    per_player = page / done if done else float("nan")
    print(
        f"page time: {page:.1f} s for {done} of {len(players)} players checked in = "
        f"{1000 * per_player:.0f} ms per player = {60 * done / page if page else 0:.0f} "
        f"check-ins per minute of page time (wall time of the loop {elapsed:.1f} s)"
    )
    left = len(players) - done - len(door.errors)
    if left:
        print(f"stopped by --seconds {args.seconds:g}: {left} players not reached")
    print(f"errors: {len(door.errors)}")
    for line in door.errors[:10]:
        print("  " + line)
    cores = os.cpu_count() or 1
    print(
        f"hall server CPU: {cpu:.1f} s = {1000 * cpu / max(done, 1):.0f} ms per player "
        f"({cores} cores, load average now {os.getloadavg()[0]:.1f})"
    )
    everyone = done == len(players) == args.players
    minutes = (page if args.players == TARGET_PLAYERS else per_player * TARGET_PLAYERS) / 60
    how = "measured" if args.players == TARGET_PLAYERS else f"projected from {done} players"
    met = everyone and minutes < TARGET_MINUTES and not door.errors
    print(
        f"target ({TARGET_PLAYERS} players in < {TARGET_MINUTES:g} min of page time): "
        f"{'met' if met else 'MISSED'} ({minutes:.2f} min, {how})"
    )
    present, registered, paid = shown
    complete = (
        stored["registered"] == stored["present"] == stored["paid"] == args.players
        and stored["paid_all"] == args.players
        and (present, registered, paid) == (args.players,) * 3
    )
    print(
        f"final check: database {stored['present']} of {stored['registered']} present, "
        f"{stored['paid']} of them paid; page counter {present} von {registered} angekommen · "
        f"{paid} bezahlt: {'all present and paid' if complete else 'NOT all present and paid'}"
    )
    return 0 if complete and not door.errors else 1


if __name__ == "__main__":
    sys.exit(main())
