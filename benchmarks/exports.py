"""Export figures: all score sheets of a round with 100 tables (one PDF), and the rankings
workbook for 300 entrants with all games (3 rounds scored: 3,600 games, 10,800 party rows).
Targets: under 3 s and under 1 s. The tournament is built first (seating from the pairing
engine, every sheet simulated from dealt hands and saved through the desk's service); its
build time is printed separately.

Run: .venv/bin/python benchmarks/exports.py"""

from __future__ import annotations

import io
import statistics
import sys
import time
from collections.abc import Callable

import _machine as machine
from _django import build_scored_tournament, setup

setup()

from django.db import connection  # noqa: E402
from openpyxl import load_workbook  # noqa: E402

from binokel_tournament.exports import (  # noqa: E402
    PDF_EXPORTERS,  # noqa: E402
    ExportFile,
    ExportOptions,
)
from binokel_tournament.exports import RankingsWorkbookExporter as Workbook  # noqa: E402
from binokel_tournament.models import PartyResult, Table, Tournament  # noqa: E402

ENTRANTS = 300
SHEETS_TARGET = 3.0
WORKBOOK_TARGET = 1.0


def build(entrants: int) -> Tournament:
    tournament, _user = build_scored_tournament(entrants, "Benchmark Exporte", "bench-exports")
    assert isinstance(tournament, Tournament)
    return tournament


def timed(render: Callable[[], ExportFile], runs: int = 5) -> tuple[float, ExportFile]:
    render()  # warm up: fonts registered, queries compiled
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = render()
        times.append(time.perf_counter() - start)
    assert result is not None
    return statistics.median(times), result


def pages(result: ExportFile) -> int:
    return result.content.count(b"/Type /Page\n") or result.content.count(b"/Type /Page ")


def main() -> int:
    print(f"database: {connection.vendor}; {machine.describe()}")
    start = time.perf_counter()
    t = build(ENTRANTS)
    build_s = time.perf_counter() - start
    tables = Table.objects.filter(round__tournament=t, round__number=1).count()
    games = PartyResult.objects.filter(entrant__tournament=t).values("game").distinct().count()
    rows = PartyResult.objects.filter(entrant__tournament=t).count()
    print(
        f"built {ENTRANTS} entrants, {tables} tables per round, {games:,} games, "
        f"{rows:,} party results in {build_s:.1f} s (not part of the figures below)"
    )

    sheets_s, sheets = timed(
        lambda: PDF_EXPORTERS["scoresheets"](t).render(ExportOptions(round_number=1))
    )
    print(
        f"score sheets of round 1 ({tables} tables + blank sheet, {pages(sheets)} pages, "
        f"{len(sheets.content) / 1e6:.1f} MB): {sheets_s:.2f} s median "
        f"(target < {SHEETS_TARGET:.0f} s)"
    )
    workbook_s, workbook = timed(lambda: Workbook(t).render())
    wb = load_workbook(io.BytesIO(workbook.content), read_only=True)
    game_rows = sum(1 for _row in wb["Spiele"].iter_rows(values_only=True)) - 1
    print(
        f"rankings workbook ({ENTRANTS} entrants, {game_rows:,} game rows, "
        f"{len(workbook.content) / 1e6:.1f} MB): {workbook_s:.2f} s median "
        f"(target < {WORKBOOK_TARGET:.0f} s)"
    )
    for kind in ("seating", "tablecards", "standings", "certificates"):
        options = ExportOptions(round_number=1 if kind in ("seating", "tablecards") else None)
        seconds, result = timed(lambda k=kind, o=options: PDF_EXPORTERS[k](t).render(o), runs=3)
        print(f"  {kind:12s} {pages(result):4d} pages: {seconds:.2f} s median")
    ok = sheets_s < SHEETS_TARGET and workbook_s < WORKBOOK_TARGET and game_rows == rows
    print("targets met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
