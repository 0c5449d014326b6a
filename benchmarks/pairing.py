"""How long seating plans and re-plans take, pure Python.

    python benchmarks/pairing.py            (or: python -m benchmarks.pairing)
    python benchmarks/pairing.py --verify   also plan and check every field up to 1000

Plans 3 rounds for 30, 300 and 999 Einzel entrants and 150 pairs, and re-plans the last two
rounds of the 300-entrant plan after 3 withdrawals and 2 late arrivals; each the best and the
median of several runs (the first run is shown too: it fills the small caches of lower bounds).
Targets: N = 300 under 100 ms, N = 999 under 1 s, the re-plan under 1 s.

``--verify`` plans every Einzel field N = 3..1000 (not 5) and every even number of pairs up to
1000 over 3 rounds and counts the plans whose figures all equal their proven lower bounds.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the repo's `pairing` package importable
    _here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _here]
    sys.path.insert(0, str(_here.parent))

from pairing import Entrant, Mode, Plan, check_plan, make_plan, replan  # noqa: E402

RUNS = 5
SEED = 0


def field(n: int) -> list[Entrant]:
    return [Entrant(i, f"Verein {i % 17}") for i in range(1, n + 1)]


def timed(label: str, target: float | None, job: Callable[[], Plan]) -> Plan:
    times = []
    plan = None
    for _ in range(RUNS):
        start = time.perf_counter()
        plan = job()
        times.append(time.perf_counter() - start)
    assert plan is not None
    verdict = ""
    if target is not None:
        verdict = f"  target < {target * 1000:.0f} ms: {'ok' if min(times) < target else 'MISSED'}"
    print(
        f"{label:<34} first {times[0] * 1000:7.1f} ms   best {min(times) * 1000:7.1f} ms"
        f"   median {statistics.median(times) * 1000:7.1f} ms{verdict}"
    )
    return plan


def figures(plan: Plan, entrants: list[Entrant], **kw: object) -> str:
    quality = check_plan(plan, entrants, **kw)  # type: ignore[arg-type]
    return "  ".join(f"{k} {v['value']}/{v['bound']}" for k, v in quality.to_dict().items())


def main() -> None:
    print(f"pairing benchmark (pure Python, best of {RUNS}, value/bound)")
    for n, target in ((30, None), (300, 0.1), (999, 1.0)):
        people = field(n)
        plan = timed(
            f"plan Einzel N = {n}", target, lambda p=people: make_plan(p, Mode.SINGLES, 3, SEED)
        )
        print(f"{'':<34} {figures(plan, people)}")
    pairs = field(150)
    plan = timed("plan Paare 150 pairs", None, lambda: make_plan(pairs, Mode.PAIRS, 3, SEED))
    print(f"{'':<34} {figures(plan, pairs)}")

    people = field(300)
    before = make_plan(people, Mode.SINGLES, 3, SEED)
    arrivals = [Entrant(301, "Verein 3"), Entrant(302, None)]
    after = timed(
        "re-plan N = 300 (-3 +2, 1 played)",
        1.0,
        lambda: replan(before, 1, people, withdraw=[5, 17, 40], add=arrivals, seed=SEED),
    )
    print(f"{'':<34} {figures(after, people + arrivals, base=before, played=1)}")

    if "--verify" in sys.argv[1:]:
        verify()


def verify() -> None:
    start = time.perf_counter()
    misses = []
    count = 0
    for mode, numbers in (
        (Mode.SINGLES, [n for n in range(3, 1001) if n != 5]),
        (Mode.PAIRS, range(2, 1001, 2)),
    ):
        for n in numbers:
            people = [Entrant(i) for i in range(1, n + 1)]
            quality = check_plan(make_plan(people, mode), people)
            count += 1
            if not quality.optimal():
                misses.append((str(mode), n, quality.to_dict()))
    elapsed = time.perf_counter() - start
    print(
        f"verify: {count - len(misses)} of {count} plans (Einzel N = 3..1000, Paare 2..1000, "
        f"3 rounds) have every figure at its lower bound ({elapsed:.0f} s)"
    )
    for miss in misses:
        print("   not at bound:", miss)


if __name__ == "__main__":
    main()
