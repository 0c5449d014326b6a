"""Big fields: every desk and public page, a sheet save, each PDF of a round and the workbook,
for demo tournaments of 30, 300 and 999 Einzel entrants (with 10, 50 and 150 pairs), rounds 1-2
scored from dealt hands, round 3 open — the tournament ``manage.py demo --entrants N --pairs P``
makes. Prints the median time and the SQL query count of each, per size, and checks the targets:
every page ≤ 100 ms at 300 and ≤ 250 ms at 999 entrants with query counts equal across sizes, a
save ≤ 50 ms, the round's score sheets ≤ 3 s and the workbook ≤ 2 s at 999 entrants.

Run: .venv/bin/python benchmarks/scale.py [--sizes 30,300,999] [--runs 7]
     DATABASE_URL=postgres://postgres@127.0.0.1:5432/NAME .venv/bin/python benchmarks/scale.py
(a throwaway SQLite file unless DATABASE_URL names a database; the tournaments are built once
per database and reused, the build time is printed separately)."""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import _machine as machine
from _django import setup

setup()

from django.db import connection, reset_queries  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from binokel_tournament.exports import CsvExporter, ExportOptions  # noqa: E402
from binokel_tournament.exports import RankingsWorkbookExporter as Workbook  # noqa: E402
from binokel_tournament.exports.pdf import PDF_EXPORTERS  # noqa: E402
from binokel_tournament.models import (  # noqa: E402
    Entrant,
    Mode,
    ScoreSheet,
    Table,
    TableKind,
    Tournament,
)
from binokel_tournament.services import results  # noqa: E402
from binokel_tournament.services.demo import create_demo, ensure_users  # noqa: E402
from binokel_tournament.services.simulation import simulated_entries  # noqa: E402

PAIRS = {30: 10, 300: 50, 999: 150}
PAGE_TARGETS_MS = {300: 100.0, 999: 250.0}
SAVE_TARGET_MS = 50.0
SHEETS_TARGET_S = 3.0
WORKBOOK_TARGET_S = 2.0


@dataclass
class Figure:
    seconds: float | None = None  # median wall time
    cpu: float | None = None  # median CPU time of this process (see timed)
    queries: int | None = None
    error: str = ""

    def time(self, measure: str) -> float:
        value = self.seconds if measure == "wall" else self.cpu
        assert value is not None
        return value


@dataclass
class Row:
    group: str
    label: str
    figures: dict[int, Figure] = field(default_factory=dict)


def timed(call: Callable[[], object], runs: int) -> Figure:
    """Median wall time over ``runs`` after one warm-up, the median CPU time of this process
    over the same runs, and the queries of one more call. On SQLite the database works in
    this process, so the CPU time is what the wall time would be if no other program
    competed for the processor (on a shared machine the wall time can be several times
    more); PostgreSQL's own work is not in it."""
    try:
        call()
        times, cpu = [], []
        for _ in range(runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            call()
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        with CaptureQueriesContext(connection) as ctx:
            call()
        queries = len(ctx.captured_queries)
        reset_queries()
        return Figure(statistics.median(times), statistics.median(cpu), queries)
    except Exception as exc:  # report and go on: one broken page must not hide the others
        return Figure(error=f"{type(exc).__name__}: {str(exc).splitlines()[0][:60]}")


def build(entrants: int) -> tuple[Tournament, float]:
    slug = f"scale-{entrants}"
    start = time.perf_counter()
    tournament, _created = create_demo(entrants, PAIRS.get(entrants, entrants // 7), slug=slug)
    seconds = time.perf_counter() - start
    if connection.vendor == "postgresql":  # what autovacuum does after a bulk load
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return tournament, seconds


def page_urls(t: Tournament) -> list[tuple[str, str, str]]:
    """(group, label, URL) of every page; sheets are one confirmed (round 1) and one open."""
    slug = t.slug
    confirmed = Table.objects.get(round__tournament=t, round__number=1, number=1)
    open_table = Table.objects.get(round__tournament=t, round__number=3, number=1)
    entrant = Entrant.objects.filter(tournament=t).order_by("start_number").last()
    assert entrant is not None
    sheet = ScoreSheet.objects.get(table=confirmed)
    desk = [
        ("tournaments", reverse("desk:home") + "?alle=1"),
        ("dashboard", reverse("desk:dashboard", args=[slug])),
        ("settings", reverse("desk:tournament_edit", args=[slug])),
        ("entrants Einzel", reverse("desk:entrants", args=[slug, Mode.SINGLES])),
        ("entrants Paare", reverse("desk:entrants", args=[slug, Mode.PAIRS])),
        ("edit entrant", reverse("desk:entrant_edit", args=[slug, entrant.pk])),
        ("seating", reverse("desk:seating", args=[slug])),
        ("overview", reverse("desk:overview", args=[slug])),
        ("sheet (confirmed)", reverse("desk:sheet", args=[slug, confirmed.pk])),
        ("sheet (open)", reverse("desk:sheet", args=[slug, open_table.pk])),
        ("standings Einzel", reverse("desk:standings", args=[slug, Mode.SINGLES])),
        ("standings Paare", reverse("desk:standings", args=[slug, Mode.PAIRS])),
        ("audit log", reverse("desk:audit", args=[slug])),
        ("sheet history", reverse("desk:audit", args=[slug]) + f"?type=ScoreSheet&id={sheet.pk}"),
        # the register offered while a name is typed at registration (htmx, each pause)
        ("player suggestions", reverse("desk:player_suggestions", args=[slug]) + "?name=Müller"),
    ]
    public = [
        ("home", reverse("public:home")),
        ("tournament", reverse("public:tournament", args=[slug])),
        ("standings Einzel", reverse("public:standings", args=[slug, Mode.SINGLES])),
        ("standings Paare", reverse("public:standings", args=[slug, Mode.PAIRS])),
        ("beamer", reverse("public:beamer", args=[slug, Mode.SINGLES])),
        ("where: number", reverse("public:where", args=[slug]) + f"?q={entrant.start_number}"),
        ("where: name", reverse("public:where", args=[slug]) + "?q=Müller"),
    ]
    return [("desk", label, url) for label, url in desk] + [
        ("public", label, url) for label, url in public
    ]


def measure_pages(t: Tournament, runs: int) -> list[tuple[str, str, Figure]]:
    desk = Client()
    desk.force_login(ensure_users())
    public = Client()
    out = []
    for group, label, url in page_urls(t):
        client = desk if group == "desk" else public

        def get(client: Client = client, url: str = url) -> None:
            response = client.get(url)
            if response.status_code != 200:
                raise RuntimeError(f"HTTP {response.status_code}")

        out.append((group, label, timed(get, runs)))
    # the sheet's live check (htmx) posts what is typed so far
    table = results.load_table(
        Table.objects.get(round__tournament=t, round__number=3, number=2, kind=TableKind.THREE).pk
    )
    typed = simulated_entries(table, random.Random(1), t.rules())
    check = reverse("desk:sheet_check", args=[t.slug, table.pk])

    def post() -> None:
        if desk.post(check, typed, HTTP_HX_REQUEST="true").status_code != 200:
            raise RuntimeError("sheet check failed")

    out.append(("desk", "sheet check (htmx)", timed(post, runs)))
    return out


def measure_save(t: Tournament, runs: int) -> Figure:
    """Save a full, valid sheet of an open round through ``results.save_sheet``, as a draft
    each time with other games (so every save really writes)."""
    table = Table.objects.filter(round__tournament=t, round__number=3, kind=TableKind.THREE)[0]
    table = results.load_table(table.pk)
    rules = t.rules()
    user = ensure_users()
    drafts = [simulated_entries(table, random.Random(i), rules) for i in range(runs + 2)]
    sheet = ScoreSheet.objects.filter(table=table).first()
    state = {"saves": 0, "version": sheet.version if sheet else 0}

    def save() -> None:
        entries = drafts[state["saves"] % len(drafts)]
        outcome = results.save_sheet(table, entries, user, state["version"])
        state["saves"] += 1
        state["version"] = outcome.sheet.version

    save()  # the first save creates the sheet
    return timed(save, runs)


def measure_exports(t: Tournament, runs: int) -> list[tuple[str, Figure]]:
    out = []
    for kind in ("seating", "tablecards", "scoresheets", "standings"):
        exporter = PDF_EXPORTERS[kind](t)
        out.append(
            (
                f"PDF {kind} (round 1)",
                timed(lambda e=exporter: e.render(ExportOptions(round_number=1)), runs),
            )
        )
    certificates = PDF_EXPORTERS["certificates"](t)
    out.append(("PDF certificates", timed(lambda: certificates.render(ExportOptions()), runs)))
    out.append(("workbook (xlsx)", timed(lambda: Workbook(t).render(), runs)))
    games = CsvExporter(t, "spiele")
    out.append(("CSV games", timed(lambda: games.render(), runs)))
    return out


def fmt(figure: Figure | None) -> str:
    if figure is None:
        return ""
    if figure.error:
        return figure.error[:24]
    assert figure.seconds is not None and figure.cpu is not None

    def duration(seconds: float) -> str:
        return f"{seconds * 1000:.1f} ms" if seconds < 10 else f"{seconds:.2f} s"

    return f"{duration(figure.seconds)} ({duration(figure.cpu)}) {figure.queries:3d} q"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="30,300,999")
    parser.add_argument("--runs", type=int, default=7, help="timed runs per item (median)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"database: {connection.vendor}; median of {args.runs} runs after a warm-up; "
        f"load average at start {load} ({os.cpu_count()} CPUs); {machine.describe()}"
    )
    rows: dict[tuple[str, str], Row] = {}

    def add(group: str, label: str, size: int, figure: Figure) -> None:
        rows.setdefault((group, label), Row(group, label)).figures[size] = figure

    for size in sizes:
        t, seconds = build(size)
        tables = Table.objects.filter(round__tournament=t, round__number=1).count()
        print(
            f"{size} Einzel + {PAIRS.get(size, size // 7)} pairs ({tables} tables per round): "
            f"built in {seconds:.1f} s",
            flush=True,
        )
        for group, label, figure in measure_pages(t, args.runs):
            add(group, label, size, figure)
        add("save", "save a 12-game sheet", size, measure_save(t, args.runs))
        for label, figure in measure_exports(t, max(1, args.runs // 3)):
            add("export", label, size, figure)

    width = max(len(f"{r.group} {r.label}") for r in rows.values())
    print()
    print("wall time median (CPU time median of this process), SQL queries")
    print(f"{'':{width}}  " + "  ".join(f"{f'{s} entrants':>28}" for s in sizes))
    for row in rows.values():
        name = f"{row.group} {row.label}"
        print(f"{name:{width}}  " + "  ".join(f"{fmt(row.figures.get(s)):>28}" for s in sizes))
    print()
    print(
        f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}; "
        f"{machine.describe()}"
    )
    verdicts = []
    for measure in ("wall", "cpu"):
        missed = missed_targets(rows, measure)
        verdicts.append(not missed)
        title = f"targets by {measure} time"
        print(f"{title}: met" if not missed else f"{title}: MISSED\n  " + "\n  ".join(missed))
    return 0 if verdicts[0] else 1


def missed_targets(rows: dict[tuple[str, str], Row], measure: str) -> list[str]:
    missed = []
    limits = {
        "save a 12-game sheet": SAVE_TARGET_MS / 1000,
        "PDF scoresheets (round 1)": SHEETS_TARGET_S,
        "workbook (xlsx)": WORKBOOK_TARGET_S,
    }
    for row in rows.values():
        figures = row.figures
        if any(f.error for f in figures.values()):
            missed.append(f"{row.group} {row.label}: fails")
            continue
        counts = {f.queries for f in figures.values()}
        if row.group in ("desk", "public", "save") and len(counts) > 1:
            missed.append(f"{row.group} {row.label}: query counts {sorted(counts)}")
        for size, target in PAGE_TARGETS_MS.items():
            f = figures.get(size)
            if row.group in ("desk", "public") and f and f.time(measure) * 1000 > target:
                missed.append(f"{row.group} {row.label}: {f.time(measure) * 1000:.0f} ms at {size}")
        big = figures.get(999)
        if big is not None and row.label in limits and big.time(measure) > limits[row.label]:
            missed.append(f"{row.label}: {big.time(measure):.3f} s at 999")
    return missed


if __name__ == "__main__":
    sys.exit(main())
