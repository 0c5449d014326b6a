"""The desk score sheet over HTTP (Django's test client, no network): the sheet page, the live
check (which also keeps the typist's draft) and saving a full 12-game sheet — median time and the
number of SQL queries of each request.

Run: .venv/bin/python benchmarks/sheet.py   (DATABASE_URL=postgres://… for PostgreSQL)"""

from __future__ import annotations

import random
import statistics
import time

from _django import build_scored_tournament, setup

setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from binokel_tournament.models import ScoreSheet, TableKind  # noqa: E402
from binokel_tournament.services.evening.simulation import simulated_entries  # noqa: E402
from binokel_tournament.services.sheets.results import load_table  # noqa: E402

RUNS = 15


def timed(call, runs: int = RUNS) -> tuple[float, int]:
    """Median milliseconds of ``call()`` and the SQL queries of one more call."""
    call()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    with CaptureQueriesContext(connection) as ctx:
        call()
    return statistics.median(times) * 1000, len(ctx.captured_queries)


def main() -> None:
    t, user = build_scored_tournament(30, "Zettel-Benchmark", "benchzettel")
    client = Client()
    client.force_login(user)
    table = t.round_set.get(number=1).tables.filter(kind=TableKind.THREE).first()  # type: ignore[attr-defined]
    table = load_table(table.pk)
    rules = t.rules()  # type: ignore[attr-defined]
    url = reverse("desk:sheet", args=[t.slug, table.pk])  # type: ignore[attr-defined]
    check = reverse("desk:sheet_check", args=[t.slug, table.pk])  # type: ignore[attr-defined]
    entries = simulated_entries(table, random.Random(1), rules)
    counter = iter(range(10**12, 10**13))

    def get() -> None:
        assert client.get(url).status_code == 200

    def live_check() -> None:
        data = {**entries, "version": "0", "draft_seq": str(next(counter))}
        assert client.post(check, data, HTTP_HX_REQUEST="true").status_code == 200

    def save() -> None:
        version = ScoreSheet.objects.get(table=table).version
        seed = next(counter)
        data = {**simulated_entries(table, random.Random(seed), rules), "version": str(version)}
        data["draft"] = "1"
        assert client.post(url, data).status_code == 302

    print(f"database: {connection.vendor}")
    for label, call in (("sheet page (GET)", get), ("live check (POST)", live_check)):
        ms, queries = timed(call)
        print(f"{label:22s} {ms:7.1f} ms median, {queries:3d} SQL queries")
    ms, queries = timed(save)
    print(f"{'save 12 games (POST)':22s} {ms:7.1f} ms median, {queries:3d} SQL queries")


if __name__ == "__main__":
    main()
