"""Exhaustive search for tiny Einzel fields: the lexicographic optimum of (R, F), with proof.

Used where counting arguments are not tight (N = 10, 11 and the tiny fields N < 9). A plan is a
sequence of partitions of the N entrants into the round's tables. Relabelling entrants changes
neither R nor F, so round 1 can be fixed to one partition ``p0``. Round 2 only matters up to the
stabiliser of ``p0`` (permutations inside p0's tables and of equal-sized p0 tables); its orbit is
determined by the intersection matrix of round 2 with p0 up to permuting equal-sized rows and
columns, so one representative per matrix class is enough. Rounds 3.. are interchangeable and are
enumerated as a multiset. Pairs met are bitmasks over the C(N, 2) pairs, so R of a new round is a
popcount: every meeting of an already-met pair adds exactly 1 to R.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from functools import cache

from .counting import generic_singles_bounds
from .model import table_sizes

Partition = tuple[tuple[int, ...], ...]

#: Work limit (evaluated round combinations) for using the exhaustive search at all.
EXACT_LIMIT = 400_000


def _partitions(elements: tuple[int, ...], sizes: tuple[int, ...]) -> Iterator[Partition]:
    if not elements:
        yield ()
        return
    first, rest = elements[0], elements[1:]
    for size in sorted(set(sizes)):
        remaining = list(sizes)
        remaining.remove(size)
        for others in itertools.combinations(rest, size - 1):
            block = (first, *others)
            left = tuple(e for e in rest if e not in others)
            for tail in _partitions(left, tuple(remaining)):
                yield (block, *tail)


@cache
def partitions(n: int) -> tuple[Partition, ...]:
    return tuple(_partitions(tuple(range(n)), table_sizes(n)))


def _pair_index(n: int) -> dict[tuple[int, int], int]:
    return {p: k for k, p in enumerate(itertools.combinations(range(n), 2))}


def _masks(n: int, parts: tuple[Partition, ...]) -> tuple[list[int], list[int]]:
    index = _pair_index(n)
    pair_masks: list[int] = []
    four_masks: list[int] = []
    for part in parts:
        pm = 0
        fm = 0
        for block in part:
            for a, b in itertools.combinations(sorted(block), 2):
                pm |= 1 << index[(a, b)]
            if len(block) == 4:
                for e in block:
                    fm |= 1 << e
        pair_masks.append(pm)
        four_masks.append(fm)
    return pair_masks, four_masks


def _orbit_key(p0: Partition, q: Partition) -> tuple[object, ...]:
    rows = list(range(len(p0)))
    groups: dict[int, list[int]] = {}
    for i in rows:
        groups.setdefault(len(p0[i]), []).append(i)
    matrix = [[len(set(p0[i]) & set(block)) for block in q] for i in rows]
    best: tuple[object, ...] | None = None
    size_order = sorted(groups)
    for perms in itertools.product(*(itertools.permutations(groups[s]) for s in size_order)):
        order = [i for perm in perms for i in perm]
        cols = sorted((len(q[j]), tuple(matrix[i][j] for i in order)) for j in range(len(q)))
        key = tuple(cols)
        if best is None or key < best:
            best = key
    assert best is not None
    return best


@cache
def _round_two_representatives(n: int) -> tuple[int, ...]:
    parts = partitions(n)
    seen: dict[tuple[object, ...], int] = {}
    for k, q in enumerate(parts):
        seen.setdefault(_orbit_key(parts[0], q), k)
    return tuple(sorted(seen.values()))


def work(n: int, rounds: int) -> int:
    """Number of round combinations the exhaustive search would evaluate (an upper bound)."""
    if rounds <= 1:
        return 1
    count = len(partitions(n)) if n <= 11 else 10**9
    if rounds == 2:
        return count
    reps = len(_round_two_representatives(n))
    return reps * math.comb(count + rounds - 3, rounds - 2)


def feasible(n: int, rounds: int) -> bool:
    """Whether the exhaustive search is used for this Einzel field (N ≤ 11, small enough)."""
    if n > 11 or n < 3 or n == 5:
        return False
    if n in (10, 11) and rounds > 3:
        return False
    return work(n, rounds) <= EXACT_LIMIT


@cache
def solve(n: int, rounds: int) -> tuple[int, int, tuple[Partition, ...]]:
    """Return (R, F, partitions per round) of a lexicographically optimal plan."""
    parts = partitions(n)
    pair_masks, four_masks = _masks(n, parts)
    p0 = 0
    best: list[object] = [(math.inf, math.inf), ()]
    lower = _lower(n, rounds)

    def f_value(levels: list[int]) -> int:
        return max((k + 1 for k, m in enumerate(levels) if m), default=0)

    def add_four(levels: list[int], mask: int) -> list[int]:
        out = list(levels) + [0]
        for k in range(len(levels) - 1, -1, -1):
            out[k + 1] |= levels[k] & mask
        out[0] |= mask
        while out and not out[-1]:
            out.pop()
        return out

    def visit(chosen: list[int], met: int, r: int, levels: list[int], start: int) -> bool:
        f = f_value(levels)
        best_key = best[0]
        assert isinstance(best_key, tuple)
        if (r, f) >= best_key:
            return False
        if len(chosen) == rounds:
            best[0] = (r, f)
            best[1] = tuple(chosen)
            return (r, f) <= lower
        candidates = _round_two_representatives(n) if len(chosen) == 1 else range(start, len(parts))
        for k in candidates:
            pm = pair_masks[k]
            nr = r + (pm & met).bit_count()
            if nr > best_key[0]:
                continue
            nxt = k if len(chosen) >= 2 else 0
            if visit(chosen + [k], met | pm, nr, add_four(levels, four_masks[k]), nxt):
                return True
            best_key = best[0]
            assert isinstance(best_key, tuple)
        return False

    visit([p0], pair_masks[p0], 0, add_four([], four_masks[p0]), 0)
    key, chosen = best
    assert isinstance(key, tuple) and isinstance(chosen, tuple)
    return int(key[0]), int(key[1]), tuple(parts[k] for k in chosen)


def _lower(n: int, rounds: int) -> tuple[int, int]:
    return generic_singles_bounds(n, rounds)
