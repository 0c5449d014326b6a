"""Spreading clubs by relabelling: who takes which place of an abstract plan.

R, F and S do not change when entrants swap all their places (every entrant has the same fair
share), so a fresh plan is built over anonymous places 0..N-1 and entrants are dealt to places
afterwards. Round 1 gets the fewest club clashes possible (the pigeonhole minimum of
:func:`pairing.bounds.pigeonhole_clashes`): clubs, largest first, each member to the table with the
most free places that has nobody of that club yet. Then swaps that keep round 1 as good reduce the
clashes over all rounds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .search import Tables


def club_ids(clubs: Sequence[str | None]) -> list[int]:
    """Club names to small ints, -1 for no club (clubs compare case- and space-insensitively)."""
    ids: dict[str, int] = {}
    out = []
    for c in clubs:
        key = c.strip().casefold() if c else ""
        if not key:
            out.append(-1)
        else:
            out.append(ids.setdefault(key, len(ids)))
    return out


def clashes(tables: Sequence[Sequence[int]], club_of: Sequence[int]) -> int:
    total = 0
    for t in tables:
        seen: dict[int, int] = {}
        for e in t:
            c = club_of[e]
            if c >= 0:
                seen[c] = seen.get(c, 0) + 1
        total += sum(v - 1 for v in seen.values())
    return total


def relabel(
    rounds: Sequence[Tables], clubs: Sequence[int], rng: random.Random, effort: int = 20
) -> list[int]:
    """Return ``place_of``: entrant index -> place index, spreading clubs (``clubs[e]`` is the
    club id of entrant e, -1 for none)."""
    n = len(clubs)
    round1 = rounds[0]
    by_club: dict[int, list[int]] = {}
    loose: list[int] = []
    for e in range(n):
        (by_club.setdefault(clubs[e], []) if clubs[e] >= 0 else loose).append(e)
    order = list(by_club)
    rng.shuffle(order)
    order.sort(key=lambda c: -len(by_club[c]))
    free = [list(t) for t in round1]
    for t in free:
        rng.shuffle(t)
    has: list[set[int]] = [set() for _ in round1]
    place_of = [-1] * n
    tie = [rng.random() for _ in round1]
    for c in order:
        members = by_club[c]
        rng.shuffle(members)
        for e in members:
            best = max(
                (ti for ti in range(len(free)) if free[ti]),
                key=lambda ti: (c not in has[ti], len(free[ti]), tie[ti]),
            )
            place_of[e] = free[best].pop()
            has[best].add(c)
    rng.shuffle(loose)
    rest = [p for t in free for p in t]
    rng.shuffle(rest)
    for e, p in zip(loose, rest, strict=True):
        place_of[e] = p
    if by_club and effort > 0 and len(rounds) > 1:
        _spread_later_rounds(rounds, clubs, place_of, rng, effort)
    return place_of


def _spread_later_rounds(
    rounds: Sequence[Tables],
    clubs: Sequence[int],
    place_of: list[int],
    rng: random.Random,
    effort: int,
) -> None:
    """Swap entrants between places to cut clashes in rounds 2.. without adding any in round 1."""
    n = len(clubs)
    r = len(rounds)
    table_of = [[0] * n for _ in range(r)]  # [round][place] -> table
    for ri, rnd in enumerate(rounds):
        for ti, t in enumerate(rnd):
            for p in t:
                table_of[ri][p] = ti
    counts = [[dict[int, int]() for _ in rnd] for rnd in rounds]
    for e in range(n):
        c = clubs[e]
        if c >= 0:
            for ri in range(r):
                d = counts[ri][table_of[ri][place_of[e]]]
                d[c] = d.get(c, 0) + 1

    def gain(ri: int, x: int, z: int) -> int:
        """Clash change in round ri when x and z swap places."""
        tx, tz = table_of[ri][place_of[x]], table_of[ri][place_of[z]]
        if tx == tz:
            return 0
        cx, cz = clubs[x], clubs[z]
        ax, az = counts[ri][tx], counts[ri][tz]
        d = 0
        if cx >= 0:
            d += (1 if az.get(cx, 0) >= 1 else 0) - (1 if ax[cx] >= 2 else 0)
        if cz >= 0:
            d += (1 if ax.get(cz, 0) >= 1 else 0) - (1 if az[cz] >= 2 else 0)
        return d

    def apply(x: int, z: int) -> None:
        for ri in range(r):
            tx, tz = table_of[ri][place_of[x]], table_of[ri][place_of[z]]
            if tx == tz:
                continue
            for e, src, dst in ((x, tx, tz), (z, tz, tx)):
                c = clubs[e]
                if c >= 0:
                    counts[ri][src][c] -= 1
                    counts[ri][dst][c] = counts[ri][dst].get(c, 0) + 1
        place_of[x], place_of[z] = place_of[z], place_of[x]

    clubbed = [e for e in range(n) if clubs[e] >= 0]
    everyone = list(range(n))
    for _ in range(3):
        improved = False
        for x in clubbed:
            cx = clubs[x]
            if not any(counts[ri][table_of[ri][place_of[x]]][cx] >= 2 for ri in range(1, r)):
                continue
            best_total, best_z = 0, -1
            for z in rng.sample(everyone, min(effort, n)):
                if clubs[z] == cx:
                    continue
                if gain(0, x, z) > 0:
                    continue
                total = sum(gain(ri, x, z) for ri in range(r))
                if total < best_total:
                    best_total, best_z = total, z
            if best_z >= 0:
                apply(x, best_z)
                improved = True
        if not improved:
            break
