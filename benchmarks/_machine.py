"""How fast this machine runs plain Python right now, printed beside a benchmark's figures.

The same machine name can mean a CPU two or three times slower on another day (a shared host):
a figure is only comparable with one measured at a similar reference time. The reference is a
fixed loop of 10 million integer additions, the best of three runs. It is a rough hint only: it
touches no memory to speak of, and work that does (a workbook of 450,000 cells) was seen to vary
by 1.7x between runs at the same reference."""

from __future__ import annotations

import time

LOOP = 10_000_000


def reference_seconds(runs: int = 3) -> float:
    best = float("inf")
    for _run in range(runs):
        start = time.perf_counter()
        total = 0
        for i in range(LOOP):
            total += i
        best = min(best, time.perf_counter() - start)
    return best


def describe() -> str:
    return f"reference loop (10M additions, best of 3): {reference_seconds():.2f} s"
