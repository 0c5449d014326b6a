"""Charity evening figures for 300 entrants with all 3 rounds scored (3,600 games, 10,800
party rows): the money statements and the evening's total, the statistics, a prize table,
the category and club rankings, the workbook's charity sheets on their own, the donation
slips and the Pressebericht. Median of 5 runs, wall and CPU time. The tournament is built
first (seating from the pairing engine, sheets simulated and saved through the desk's
service).

Run: .venv/bin/python benchmarks/charity.py"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from _django import build_scored_tournament, setup

setup()

from binokel_tournament.exports import PDF_EXPORTERS, ExportOptions  # noqa: E402
from binokel_tournament.exports.charity_rows import charity_tables  # noqa: E402
from binokel_tournament.models import Category, Entrant, Tournament  # noqa: E402
from binokel_tournament.services.money import charity, prizes  # noqa: E402
from binokel_tournament.services.money.statistics import evening_statistics  # noqa: E402
from binokel_tournament.services.money.subrankings import sub_rankings  # noqa: E402

ENTRANTS = 300


def timed(work: Callable[[], object], runs: int = 5) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    start = time.perf_counter()
    t, _user = build_scored_tournament(ENTRANTS, "Benchmark Benefiz", "bench-charity")
    assert isinstance(t, Tournament)
    Tournament.objects.filter(pk=t.pk).update(
        entry_fee_cents=800, donation_tiers=[[1, 50], [5, 100]], club_best=3
    )
    t.refresh_from_db()
    entrants = list(t.entrants.all())
    for i, e in enumerate(entrants):
        e.categories = [Category.DAMEN] if i % 2 else [Category.SENIOREN]
        e.fee_paid = i % 3 != 0
    Entrant.objects.bulk_update(entrants, ["categories", "fee_paid"])
    competition = t.competitions.get()
    for n in range(10):
        prizes.add_prize(competition, None, f"Preis {n + 1}", 1000)
    print(f"built {ENTRANTS} entrants, 3 rounds scored in {time.perf_counter() - start:.1f} s")
    figures = [
        ("statements + evening total", lambda: charity.evening(t)),
        ("statistics", lambda: evening_statistics(t)),
        ("prize table", lambda: prizes.prize_table(competition)),
        ("categories + clubs", lambda: sub_rankings(competition)),
        ("workbook charity sheets (rows)", lambda: charity_tables(t)),
        ("donation slips PDF", lambda: PDF_EXPORTERS["donations"](t).render(ExportOptions())),
        ("Pressebericht PDF", lambda: PDF_EXPORTERS["statistics"](t).render(ExportOptions())),
    ]
    for label, work in figures:
        wall, cpu = timed(work)
        print(f"{label:34s} {wall * 1000:7.0f} ms wall {cpu * 1000:7.0f} ms CPU")


if __name__ == "__main__":
    main()
