"""Two app servers on one PostgreSQL and one Redis behave as one (issue 34): two real
`manage.py hall` servers (gunicorn) on two ports. A desk logged in on one is logged in on the
other (sessions in the database); a sheet confirmed through one is on the other's public
standings within a second (the public cache in Redis); the automatic backups are written by
one backup process across both (an advisory lock), and when that server is killed, the other
one's takes over; killing a server in the middle of saves loses nothing it acknowledged."""

from __future__ import annotations

import json
import os
import re
import threading
import time

import pytest
import redis
import requests
from django.db import connection

from binokel_tournament.services.server.backup.lease import ADVISORY_KEY
from tests import hall_server
from tests.support import require

from .test_crash import Ledger, desk_loop

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TOKEN = re.compile(r'"X-CSRFToken": "[^"]*"|name="csrfmiddlewaretoken" value="[^"]*"')
REDIS = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379")


def writer_pids() -> set[int]:
    """The server processes holding the backup writer's lease."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1"
            " AND classid = ((%s::bigint >> 32) & 4294967295)::oid"
            " AND objid = (%s::bigint & 4294967295)::oid",
            [ADVISORY_KEY, ADVISORY_KEY],
        )
        return {row[0] for row in cursor.fetchall()}


def wait_for(condition, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return bool(condition())


@pytest.fixture
def redis_db() -> str:
    """A Redis database of this test process, emptied (db 1 + the xdist worker's number)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    url = f"{REDIS}/{1 + int(worker[2:] or 0) % 14}"
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2)
        client.flushdb()
    except redis.RedisError as exc:
        require(False, f"the two-server test needs Redis at {REDIS}: {exc}")
    return url


def test_two_app_servers_on_one_postgresql_and_one_redis_behave_as_one(tmp_path, redis_db):
    settings_dict = connection.settings_dict
    url = (
        f"postgres://{settings_dict['USER']}@{settings_dict['HOST']}:"
        f"{settings_dict['PORT']}/{settings_dict['NAME']}"
    )
    env = hall_server.server_env(
        url, tmp_path, CACHE_URL=redis_db, BACKUP_AUTO="1", BACKUP_MIN_INTERVAL="0"
    )
    hall_server.manage(env, "demo", "--singles", "12", "--pairs", "0", "--scored-rounds", "0")
    (tmp_path / "pw").write_text(hall_server.PASSWORD)
    hall_server.manage(env, "hall", "--check", "--noinput", "--password-file", str(tmp_path / "pw"))
    slug, variants = hall_server.round_one_variants(env, 4)
    a = hall_server.start(env, hall_server.free_port(), workers=1)
    b = None
    try:
        b = hall_server.start(env, hall_server.free_port(), workers=1)
        # one backup writer across both servers
        assert wait_for(lambda: len(writer_pids()) == 1, 30), writer_pids()
        first_writer = writer_pids()

        desk = hall_server.Desk(a.url, "orga")
        standings = f"/t/{slug}/rangliste/singles/"

        def public(server: hall_server.Server) -> str:  # as a guest in the hall sees it
            reply = requests.get(server.url + standings, timeout=5)
            reply.raise_for_status()
            return TOKEN.sub("", reply.text)  # a fresh CSRF token in every answer

        before = public(b)
        assert before == public(a)
        # the session made on a is valid on b: the same desk, logged in
        assert desk.http.get(f"{b.url}/desk/{slug}/", timeout=30, allow_redirects=False).ok

        table = next(iter(variants))
        path = f"/desk/{slug}/zettel/{table}/"
        version, token = desk.open_sheet(path)
        reply = desk.save(path, variants[table][0], version, token, confirm=True)
        assert reply.status_code == 302, reply.text[:1000]
        saved = time.monotonic()
        # b's public standings show it within a second (the generation lives in Redis)
        assert wait_for(lambda: public(b) != before, 1.0)
        assert time.monotonic() - saved <= 1.0
        assert public(b) == public(a)

        # desks saving through a, which is killed in the middle of it: nothing acknowledged
        # is lost, and b's backup process takes over the backups
        ledger, stop = Ledger(), threading.Event()
        laptops = [hall_server.Desk(a.url, "orga", connect_retries=0) for _ in range(2)]
        threads = [
            threading.Thread(
                target=desk_loop,
                args=(
                    laptops[i],
                    slug,
                    list(variants),
                    lambda t, n: variants[t][n % len(variants[t])],
                    ledger,
                    stop,
                    100 + i,
                ),
            )
            for i in range(2)
        ]
        for thread in threads:
            thread.start()
        assert wait_for(lambda: sum(ledger.replies.values()) >= 4, 120), ledger.replies
        a.kill()
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
        assert not ledger.errors, ledger.errors
        assert wait_for(lambda: len(writer_pids()) == 1 and writer_pids() != first_writer, 30)

        report = json.loads(hall_server.manage(env, "verify"))
        assert report["problems"] == []
        for table_id, acks in ledger.acked.items():
            stored = report["sheets"][str(table_id)]
            last_version, digest = max(acks)
            assert stored["version"] >= last_version
            if stored["version"] == last_version:
                assert stored["entries"] == digest
        # and b serves the evening as it was left
        after = hall_server.Desk(b.url, "orga")
        assert after.http.get(b.url + standings, timeout=30).ok
    finally:
        a.kill()
        if b is not None:
            b.stop()
