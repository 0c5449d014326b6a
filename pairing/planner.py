"""Making a plan: construct, search, seat, spread clubs.

1. Groupings over anonymous places 0..N-1:
   * Paare: the circle method, a 1-factorisation of K_N, gives N - 1 rounds without a repeat.
   * Einzel, N ≤ 11 where cheap: the exhaustive search of :mod:`pairing.exact` (proved optimal).
   * Einzel otherwise: the 4-table places of every round are dealt cyclically over the places
     (so nobody exceeds ⌈4·b·r/N⌉ rounds at a 4-table, or the F bound if higher), each round is
     filled greedily avoiding pairs that already met, then a tabu search swaps entrants until R
     reaches its lower bound (:mod:`pairing.search`). If it does not within the budget, a few
     restarts, then a looser 4-table cap, are tried; the best (R, F) wins.
2. Seat order per table from the role flows of :mod:`pairing.seats` (S).
3. Entrants dealt to places to spread clubs (:mod:`pairing.clubs`, C).

Everything random comes from ``random.Random(seed)``: same entrants, rounds and seed, same plan.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from . import exact
from .bounds import plain_bounds
from .clubs import club_ids, relabel
from .model import (
    Entrant,
    Mode,
    Plan,
    Round,
    Table,
    layout,
    table_sizes,
    validate_entrant_count,
    validate_entrants,
    validate_rounds,
)
from .search import Grouping, Tables
from .seats import seat_orders

SCAN = 48


def make_plan(entrants: Sequence[Entrant], mode: Mode, rounds: int = 3, seed: int = 0) -> Plan:
    """Plan ``rounds`` rounds for the entrants; raises PairingError for counts that cannot be
    seated (see :func:`validate_entrant_count`)."""
    mode = Mode(mode)
    validate_entrants(entrants)
    validate_rounds(rounds)
    validate_entrant_count(len(entrants), mode)
    people = sorted(entrants, key=lambda e: e.start_number)
    n = len(people)
    rng = random.Random(f"pairing:{seed}:{mode}:{n}:{rounds}")
    kinds = layout(n, mode)
    groups = pairs_groupings(n, rounds) if mode is Mode.PAIRS else singles_groupings(n, rounds, rng)
    # tables in layout order: 3-tables first, 4-tables last
    groups = [sorted(rnd, key=len) for rnd in groups]
    tables = [t for rnd in groups for t in rnd]
    share = len(kinds) * rounds
    lo, hi = [share // n] * n, [-(-share // n)] * n
    orders = _balanced_orders(n, tables, mode is Mode.PAIRS, lo, hi, rng)
    seated: list[Tables] = []
    k = 0
    for rnd in groups:
        seated.append(orders[k : k + len(rnd)])
        k += len(rnd)
    place_of = relabel(seated, club_ids([e.club for e in people]), rng)
    who = [0] * n
    for e, p in enumerate(place_of):
        who[p] = people[e].start_number
    return Plan(
        mode,
        tuple(
            Round(
                ri + 1,
                tuple(
                    Table(ti + 1, kinds[ti], tuple(who[p] for p in order))
                    for ti, order in enumerate(rnd)
                ),
            )
            for ri, rnd in enumerate(seated)
        ),
    )


def _balanced_orders(
    n: int, tables: Tables, pairs: bool, lo: list[int], hi: list[int], rng: random.Random
) -> list[list[int]]:
    """Seat orders with S = 0 if the role flows find it; the greedy start decides whether the
    scorers still fit after the dealers are chosen, so a few other starts are tried."""
    best: tuple[int, list[list[int]]] | None = None
    for _ in range(8):
        orders = seat_orders(n, tables, pairs, lo, hi, [0] * n, [0] * n, rng)
        dealt = [0] * n
        scored = [0] * n
        for order in orders:
            dealt[order[0]] += 1
            scored[order[0] if pairs else order[2]] += 1
        dev = sum(
            max(0, lo[e] - c, c - hi[e]) for counts in (dealt, scored) for e, c in enumerate(counts)
        )
        if best is None or dev < best[0]:
            best = (dev, orders)
        if dev == 0:
            break
    assert best is not None
    return best[1]


def pairs_groupings(n: int, rounds: int) -> list[Tables]:
    """Circle method: place n-1 fixed, the others rotate; round k pairs k+i with k-i."""
    out: list[Tables] = []
    m = n - 1
    for ri in range(rounds):
        k = ri % m if m else 0
        if n == 2:
            out.append([[0, 1]])
            continue
        rnd = [[m, k]]
        for i in range(1, n // 2):
            rnd.append([(k + i) % m, (k - i) % m])
        out.append(rnd)
    return out


def singles_groupings(n: int, rounds: int, rng: random.Random) -> list[Tables]:
    if exact.feasible(n, rounds):
        _, _, parts = exact.solve(n, rounds)
        return [[list(block) for block in part] for part in parts]
    r_bound, f_bound = plain_bounds(Mode.SINGLES, n, rounds)
    sizes = table_sizes(n)
    best: Grouping | None = None
    budget = 3000 + 30 * n
    for f_cap in sorted({f_bound, min(rounds, f_bound + 1)}):
        for _ in range(4 if n < 60 else 2):
            g = initial_grouping(n, rounds, sizes, f_cap, rng)
            g.tabu_search(rng, r_bound, budget)
            if best is None or (g.repeats, g.f_max()) < (best.repeats, best.f_max()):
                best = g
            if best.repeats <= r_bound:
                break
        if best is not None and best.repeats <= r_bound:
            break
    assert best is not None
    return best.snapshot()


def initial_grouping(
    n: int, rounds: int, sizes: Sequence[int], f_cap: int, rng: random.Random
) -> Grouping:
    """Greedy start: cyclic 4-table places, tables filled with entrants who have not met."""
    order = list(range(n))
    rng.shuffle(order)
    fours = sizes.count(4)
    meet = bytearray(n * n)
    out: list[Tables] = []
    flags: list[list[bool]] = []
    pointer = 0
    for _ in range(rounds):
        chosen = [order[(pointer + i) % n] for i in range(4 * fours)]
        pointer += 4 * fours
        at_four = set(chosen)
        rest = [e for e in order if e not in at_four]
        rng.shuffle(rest)
        rng.shuffle(chosen)
        tables = _fill(rest, [3] * (len(sizes) - fours), meet, n) + _fill(
            chosen, [4] * fours, meet, n
        )
        for t in tables:
            for a in t:
                for b in t:
                    if a != b:
                        meet[a * n + b] += 1
        out.append(tables)
        flags.append([len(t) == 4 for t in tables])
    return Grouping(n, out, flags, f_cap=f_cap, hard_f=True)


def _fill(pool: list[int], sizes: Sequence[int], meet: bytearray, n: int) -> Tables:
    pool = list(pool)
    tables: Tables = []
    for size in sizes:
        table = [pool.pop()]
        while len(table) < size:
            best_i, best_c = len(pool) - 1, n
            for i in range(len(pool) - 1, max(-1, len(pool) - 1 - SCAN), -1):
                c = pool[i]
                conflicts = 0
                for m in table:
                    if meet[c * n + m]:
                        conflicts += 1
                if conflicts < best_c:
                    best_i, best_c = i, conflicts
                    if not conflicts:
                        break
            pool[best_i], pool[-1] = pool[-1], pool[best_i]
            table.append(pool.pop())
        tables.append(table)
    return tables
