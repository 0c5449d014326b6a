"""How good is the forecast of a round's end? Recorded evenings with known finishing times,
made by the simulation (``charity.pace.simulate_evening``: 20–100 tables of three, a true pace
of 3–5.5 minutes a game that the organiser's plan of 4 minutes may miss, the players seated
anew each round; a table's pace is its players' -- their own paces spread by 20 %, and 2.7 %
of them slow their table 1.3–1.8 times, every round, so 8 % of tables are slow -- and what is
left of a 15 % spread for the table itself; each game's time varying by 45 %; 20–100 % of the
tables entering on phones, the rest on paper seen only when their sheet comes in).

For every round of every evening, the forecast made at the round's half-time (the typical
table has played half its games; what the hall knew then: the earlier rounds, and this one so
far: ``SimulatedRound.seen_at`` -- the phones' games, the paper sheets in, the seating) is
compared with the round's real end. Printed: the error distribution (forecast minus truth,
minutes) per round and by the share of tables on phones, how often it is within 10 minutes,
and -- for scale -- the same for an oracle that knew every table's true pace and only not how
its remaining games would go (the forecast cannot do better than that).

Run:  .venv/bin/python benchmarks/pace.py [--evenings 300]"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from charity.pace import SimulatedRound, half_time_errors, simulate_evening  # noqa: E402

MINUTE = timedelta(minutes=1)
GAME_SHAPE = 1 / 0.45**2  # the simulation's gamma shape of one game's time


def oracle_error(r: SimulatedRound, rng: random.Random, draws: int = 200) -> float:
    """The forecast of an oracle that knows every table's true pace: the median over
    ``draws`` continuations of the latest table's end, minus the real end (minutes)."""
    now = r.half_time()
    origin = r.started_at
    ends = []
    for _ in range(draws):
        latest = 0.0
        for times, mean, phone in zip(r.games, r.paces, r.phones, strict=True):
            done = [(t - origin) / MINUTE for t in times if t <= now]
            elapsed = (now - origin) / MINUTE
            if len(done) == len(times):
                end = done[-1] + (0 if phone else r.paper_delay / MINUTE)
            else:
                while True:  # a continuation that has not finished by now
                    left = len(times) - len(done)
                    end = (done[-1] if done else 0.0) + sum(
                        rng.gammavariate(GAME_SHAPE, mean / GAME_SHAPE) for _ in range(left)
                    )
                    end += 0 if phone else r.paper_delay / MINUTE
                    if end > elapsed:
                        break
            latest = max(latest, end)
        ends.append(latest)
    return statistics.median(ends) - (r.ended_at - origin) / MINUTE


def describe(label: str, errors: list[float]) -> str:
    ordered = sorted(errors)

    def q(p: float) -> float:
        return ordered[round(p * (len(ordered) - 1))]

    within = sum(abs(e) <= 10 for e in errors) / len(errors)
    within5 = sum(abs(e) <= 5 for e in errors) / len(errors)
    return (
        f"{label:<28} n={len(errors):4d}  within 10 min {within:4.0%}  within 5 min "
        f"{within5:4.0%}  median {statistics.median(errors):+5.1f}  mean |error| "
        f"{statistics.fmean(abs(e) for e in errors):4.1f}  p10 {q(0.1):+5.1f}  p90 {q(0.9):+5.1f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--evenings", type=int, default=300)
    parser.add_argument("--oracle-evenings", type=int, default=60)
    args = parser.parse_args()
    started = time.perf_counter()
    by_round: dict[int, list[float]] = {}
    by_share: dict[str, list[float]] = {}
    all_errors: list[float] = []
    for seed in range(args.evenings):
        evening = simulate_evening(seed)
        share = sum(evening.rounds[0].phones) / len(evening.rounds[0].phones)
        group = "< 40 %" if share < 0.4 else "40–70 %" if share < 0.7 else "≥ 70 %"
        for number, error in enumerate(half_time_errors(evening), 1):
            by_round.setdefault(number, []).append(error)
            by_share.setdefault(group, []).append(error)
            all_errors.append(error)
    took = time.perf_counter() - started
    print(
        f"{args.evenings} simulated evenings, 3 rounds each: the forecast of each round's end "
        f"made at its half-time, minus the real end (minutes); {took:.1f} s, "
        f"{took / len(all_errors) * 1000:.0f} ms per forecast"
    )
    print(describe("all rounds", all_errors))
    for number, errors in sorted(by_round.items()):
        print(describe(f"round {number}", errors))
    for group in ("< 40 %", "40–70 %", "≥ 70 %"):
        if group in by_share:
            print(describe(f"tables on phones {group}", by_share[group]))
    rng = random.Random(7)
    oracle = [
        oracle_error(r, rng)
        for seed in range(args.oracle_evenings)
        for r in simulate_evening(seed).rounds
    ]
    print(describe(f"oracle ({args.oracle_evenings} evenings)", oracle))
    return 0


if __name__ == "__main__":
    sys.exit(main())
