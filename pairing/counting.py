"""Lower bounds of a plain singles plan's quality figures by counting alone (no search): the
pairs two rounds must share, and (R, F) from how often each entrant meets others. Used by
:mod:`pairing.bounds` and, to prune its search, by :mod:`pairing.exact`."""

from __future__ import annotations

import math
from functools import cache

from .model import table_sizes


def min_shared_pairs(rows: tuple[int, ...], cols: tuple[int, ...]) -> int:
    """Least Σ C(n_ij, 2) over non-negative integer matrices with the given row/column sums:
    the fewest pairs that sit together in both of two rounds with these table sizes."""
    if len(rows) > 4 or len(cols) > 4:
        # 0 is always a valid lower bound; the brute force below is for small layouts (N ≤ 16),
        # where a table can have more members than the other round has tables
        return 0
    best = math.inf
    ncols = len(cols)

    def fill(i: int, left: list[int], acc: int) -> None:
        nonlocal best
        if acc >= best:
            return
        if i == len(rows):
            if not any(left):
                best = acc
            return
        for combo in _compositions(rows[i], ncols):
            if all(c <= lft for c, lft in zip(combo, left, strict=True)):
                fill(
                    i + 1,
                    [lft - c for c, lft in zip(combo, left, strict=True)],
                    acc + sum(c * (c - 1) // 2 for c in combo),
                )

    fill(0, list(cols), 0)
    return int(best)


def _compositions(total: int, parts: int) -> list[tuple[int, ...]]:
    if parts == 1:
        return [(total,)]
    out: list[tuple[int, ...]] = []
    for first in range(total + 1):
        out.extend((first, *rest) for rest in _compositions(total - first, parts - 1))
    return out


@cache
def generic_singles_bounds(n: int, rounds: int) -> tuple[int, int]:
    """(R, F) lower bounds by counting (no exhaustive search)."""
    lay = table_sizes(n)
    fours = lay.count(4)
    slots = 4 * fours * rounds
    # per entrant, with the 4-table rounds spread as evenly as possible
    low, high = divmod(slots, n)
    excess = (n - high) * max(0, 2 * rounds + low - (n - 1)) + high * max(
        0, 2 * rounds + low + 1 - (n - 1)
    )
    r_bound = (excess + 1) // 2
    if rounds >= 2:
        shared = min_shared_pairs(lay, lay)
        r_bound = max(r_bound, (rounds - 1) * shared)
    f_bound = -(-slots // n) if fours else 0
    if r_bound == 0 and fours and len(lay) - fours < 4 and rounds >= 2:
        f_bound = max(f_bound, 2)
    return r_bound, min(f_bound, rounds)
