"""Pulling the plug: the hall server is killed (SIGKILL, master and workers at once) ten times
while desks save sheets. Every save the server acknowledged is in the database afterwards, and
no sheet is half saved (its stored games are exactly the valid games of what was typed, and
re-scoring them gives the stored points). Runs on the suite's database kind: a SQLite file in
the SQLite pass, the test database in the PostgreSQL pass."""

from __future__ import annotations

import json
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

import pytest
import requests
from django.db import connection

from tests import hall_server

KILLS = int(__import__("os").environ.get("CRASH_KILLS", "10"))
# slow: a real hall server, killed and started again (make check leaves it out)
pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@dataclass
class Ledger:
    """What each table was sent and what the server acknowledged, in order."""

    sent: dict[int, list[str]] = field(default_factory=dict)  # table -> entries digests sent
    acked: dict[int, list[tuple[int, str]]] = field(default_factory=dict)  # (version, digest)
    errors: list[str] = field(default_factory=list)
    replies: Counter[int] = field(default_factory=Counter)
    gone: list[str] = field(default_factory=list)  # how each desk lost the server
    lock: threading.Lock = field(default_factory=threading.Lock)


def desk_loop(desk, slug, tables, entries_for, ledger, stop, seed):
    rng = random.Random(seed)
    while not stop.is_set():
        table = rng.choice(tables)
        path = f"/desk/{slug}/zettel/{table}/"
        # every save differs (a scorer's written total, flagged not refused), so every
        # acknowledged save makes exactly one new version
        entries = {**entries_for(table, rng.randrange(10_000)), "written-total-c1": str(seed)}
        seed += 1_000
        digest = hall_server.entries_digest(entries)
        try:
            version, token = desk.open_sheet(path)
            with ledger.lock:
                ledger.sent.setdefault(table, []).append(digest)
            reply = desk.save(path, entries, version, token, confirm=rng.random() < 0.5)
        except (requests.RequestException, AssertionError) as exc:
            ledger.gone.append(repr(exc)[:200])
            return  # the server is gone: this desk waits for the next start
        ledger.replies[reply.status_code] += 1
        if reply.status_code == 302:
            with ledger.lock:
                ledger.acked.setdefault(table, []).append((version + 1, digest))
        elif reply.status_code >= 500:
            ledger.errors.append(f"{reply.status_code} on table {table}")


def demo_hall(folder, singles: int) -> dict[str, str]:
    """A demo tournament of ``singles`` players, nothing scored, on the suite's database kind
    (a SQLite file in the SQLite pass, the test database in the PostgreSQL pass), ready for
    ``manage.py hall`` (real passwords, automatic backups off): its environment."""
    if connection.vendor == "postgresql":
        settings_dict = connection.settings_dict
        url = (
            f"postgres://{settings_dict['USER']}@{settings_dict['HOST']}:"
            f"{settings_dict['PORT']}/{settings_dict['NAME']}"
        )
    else:
        url = hall_server.sqlite_database(folder)
    env = hall_server.server_env(url, folder, BACKUP_AUTO="0")
    if connection.vendor != "postgresql":
        hall_server.manage(env, "migrate", "--noinput", "-v0")
    hall_server.manage(
        env, "demo", "--singles", str(singles), "--pairs", "0", "--scored-rounds", "0"
    )
    (folder / "pw").write_text(hall_server.PASSWORD)
    hall_server.manage(env, "hall", "--check", "--noinput", "--password-file", str(folder / "pw"))
    return env


def test_killing_the_server_during_saves_loses_no_acknowledged_save(tmp_path):
    folder = tmp_path
    env = demo_hall(folder, singles=12)
    slug, variants = hall_server.round_one_variants(env, 6)
    ledger = Ledger()
    port = hall_server.free_port()
    server = hall_server.start(env, port, workers=2)
    # three desk laptops log in once; their sessions live in the database, across the kills
    # (a refused connection ends a desk's loop at once: the server is gone)
    laptops = [hall_server.Desk(server.url, "orga", connect_retries=0) for _ in range(3)]
    for kill in range(KILLS):
        if kill:
            server = hall_server.start(env, port, workers=2)
        for laptop in laptops:
            laptop.http.close()  # connections to the killed server are gone; cookies stay
        stop = threading.Event()
        desks = [
            threading.Thread(
                target=desk_loop,
                args=(
                    laptops[i],
                    slug,
                    list(variants),
                    lambda table, n: variants[table][n % len(variants[table])],
                    ledger,
                    stop,
                    kill * 10 + i,
                ),
            )
            for i in range(3)
        ]
        for desk in desks:
            desk.start()
        # wait for a few acknowledged saves (however loaded the machine is), then pull the
        # plug at a random moment while the desks keep saving
        before = sum(ledger.replies.values())
        deadline = time.monotonic() + 120
        while sum(ledger.replies.values()) < before + 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(random.Random(kill).uniform(0.0, 0.4))
        server.kill()
        stop.set()
        for desk in desks:
            desk.join(timeout=60)
    assert not ledger.errors, ledger.errors
    acknowledged = sum(len(v) for v in ledger.acked.values())
    assert acknowledged >= KILLS, f"too few saves got through ({ledger.replies}, {ledger.gone})"
    report = json.loads(hall_server.manage(env, "verify"))
    assert report["problems"] == []
    for table, acks in ledger.acked.items():
        stored = report["sheets"][str(table)]
        version, digest = max(acks)
        assert stored["version"] >= version, (table, stored, acks)
        if stored["version"] == version:
            assert stored["entries"] == digest  # the last acknowledged save is what is stored
        else:  # a later save committed whose reply the kill swallowed: one that was sent
            assert stored["entries"] in ledger.sent[table]


def test_after_a_crash_the_backup_of_the_state_before_it_comes_first(tmp_path):
    """A save whose backup was never written when the server was killed (here: the first
    server writes none at all, so no note of it exists either): the restarted hall finds the
    change in the database and backs that state up at once (issue 24)."""
    folder = tmp_path
    env = demo_hall(folder, singles=9)
    sheet = json.loads(
        hall_server.manage(
            env,
            "shell",
            "-c",
            "import json,random;from binokel_tournament.models import Table;"
            "from binokel_tournament.services.evening.simulation import simulated_entries;"
            "from binokel_tournament.services.sheets.results import load_table;"
            "x=load_table(Table.objects.filter(round__number=1,kind='three')[0].pk);"
            "r=x.round.tournament.rules();"
            "print(json.dumps({'slug':x.round.tournament.slug,'table':x.pk,'number':x.number,"
            "'entries':simulated_entries(x,random.Random(1),r)}))",
        ).splitlines()[-1]
    )
    slug, path = sheet["slug"], f"/desk/{sheet['slug']}/zettel/{sheet['table']}/"
    marker = folder / "backups" / slug / ".latest"

    def newest_backup() -> float:
        try:
            return float(marker.read_text())
        except (OSError, ValueError):
            return 0.0

    port = hall_server.free_port()
    server = hall_server.start(env, port, workers=2)
    try:
        desk = hall_server.Desk(server.url, "orga")
        version, token = desk.open_sheet(path)
        reply = desk.save(path, sheet["entries"], version, token, confirm=False)
        assert reply.status_code == 302
        saved_at = time.time()
    finally:
        server.kill()
    assert newest_backup() == 0.0 and not (folder / "backup-status" / ".pending").exists()
    server = hall_server.start({**env, "BACKUP_AUTO": "1"}, port, workers=2)
    try:
        deadline = time.monotonic() + 60
        while newest_backup() < saved_at and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        server.stop()
    assert newest_backup() >= saved_at, "no backup of the state before the crash"
    newest = sorted((folder / "backups" / slug).glob(f"{slug}-*.json"))[-1]
    document = json.loads(newest.read_text())
    stored = [s for s in document["sheets"] if s["table"] == [1, sheet["number"]]]
    assert stored and stored[0]["version"] == version + 1
