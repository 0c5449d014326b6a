"""How fast this machine runs plain Python right now, printed beside a benchmark's figures.

The same machine name can mean a CPU two or three times slower on another day (a shared host):
a figure is only comparable with one measured at a similar reference time. The reference is a
fixed loop of 10 million integer additions, the best of three runs. It is a rough hint only: it
touches no memory to speak of, and work that does (a workbook of 450,000 cells) was seen to vary
by 1.7x between runs at the same reference."""

from __future__ import annotations

import time
from pathlib import Path

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


def _ticks_of_processes(command: str) -> int:
    """CPU ticks (user + system) of the running processes whose command is ``command`` (Linux
    /proc; 0 elsewhere)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # the process has ended
            continue
        name, rest = text[text.index("(") + 1 : text.rindex(")")], text[text.rindex(")") + 2 :]
        if name == command:
            fields = rest.split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total


def _machine_ticks() -> tuple[int, int]:
    """(busy, all) CPU ticks of the whole machine since boot (Linux /proc/stat)."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except OSError:
        return 0, 0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle, iowait
    return sum(fields) - idle, sum(fields)


class Usage:
    """How busy the whole machine was between ``start()`` and ``report()``, and how much of
    it PostgreSQL's processes took (a server whose database shares its cores)."""

    def start(self) -> None:
        self.machine = _machine_ticks()
        self.postgres = _ticks_of_processes("postgres")

    def report(self) -> str:
        busy, every = _machine_ticks()
        total = every - self.machine[1]
        if total <= 0:
            return "machine CPU: not known here"
        postgres = _ticks_of_processes("postgres") - self.postgres  # per core tick, as /proc/stat
        return (
            f"the whole machine busy {100 * (busy - self.machine[0]) / total:.0f} % of its "
            f"cores (PostgreSQL's processes {100 * max(0, postgres) / total:.0f} %)"
        )
