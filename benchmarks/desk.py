"""Desk figures at 300 entrants with 3 rounds scored (3,600 games): standings page render time
and SQL query count (must not grow with the entrants), and the time to save one full sheet.

Run: .venv/bin/python benchmarks/desk.py"""

from __future__ import annotations

import statistics
import time

from _django import build_scored_tournament, setup

setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from binokel_tournament.models import Game, ScoreSheet, TableKind  # noqa: E402
from binokel_tournament.services.evening.simulation import simulated_entries  # noqa: E402
from binokel_tournament.services.sheets.results import load_table  # noqa: E402
from binokel_tournament.services.sheets.writer import save_sheet  # noqa: E402


def build(entrants: int) -> tuple[object, object]:
    return build_scored_tournament(entrants, f"Benchmark {entrants}", f"bench{entrants}")


def measure_standings(t: object, user: object, runs: int = 15) -> tuple[float, int]:
    client = Client()
    client.force_login(user)
    url = reverse("desk:standings", args=[t.slug, "singles"])  # type: ignore[attr-defined]
    client.get(url)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - start)
        assert response.status_code == 200
    with CaptureQueriesContext(connection) as ctx:
        client.get(url)
    return statistics.median(times), len(ctx.captured_queries)


def measure_save(t: object, user: object, runs: int = 15) -> float:
    import random

    table = t.round_set.get(number=1).tables.filter(kind=TableKind.THREE).first()  # type: ignore[attr-defined]
    table = load_table(table.pk)
    rules = t.rules()  # type: ignore[attr-defined]
    times = []
    for i in range(runs):
        entries = simulated_entries(table, random.Random(i), rules)
        version = ScoreSheet.objects.get(table=table).version
        start = time.perf_counter()
        save_sheet(table, entries, user, version)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    print(f"database: {connection.vendor}")
    for n in (30, 300):
        start = time.perf_counter()
        t, user = build(n)
        build_s = time.perf_counter() - start
        games = Game.objects.filter(sheet__table__round__tournament=t).count()
        median, queries = measure_standings(t, user)
        print(
            f"{n:4d} entrants, {games:5d} games (built in {build_s:.1f} s): "
            f"standings page {median * 1000:.1f} ms median, {queries} SQL queries"
        )
    save = measure_save(t, user)
    print(f"save one full 12-game sheet (300 entrants): {save * 1000:.1f} ms median")


if __name__ == "__main__":
    main()
