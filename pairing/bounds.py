"""Lower bounds for the quality figures of a plan with the standard layout ("plain" plans).

The bounds are read lexicographically, in the order the figures are compared: the bound of F
is a lower bound of F over the plans whose R equals the bound of R (if there is no such plan the
statement is void, and R's bound is simply not reachable). A plan is optimal when every figure
equals its bound.

R (repeated meetings), for r rounds of N entrants, combines three proofs:

* per entrant: entrant e meets m_e = 2r + f_e others counted with multiplicity (f_e = rounds at a
  4-table), but only N - 1 different ones, so R = ½ Σ (m_e - distinct_e) ≥ ½ Σ max(0, m_e - N + 1),
  minimised when the 4-table rounds are spread evenly (this includes the count M - C(N, 2));
* two rounds share at least x pairs, x = the least Σ C(n_ij, 2) over the intersection matrices
  n_ij of two round layouts (positive when a table has more members than the other round has
  tables, e.g. N = 10 or 11); with X = Σ over pairs C(λ, 2) ≥ C(r, 2)·x and C(λ, 2) ≤ r/2·(λ - 1),
  R ≥ 2X / r = (r - 1)·x;
* for N ≤ 11 where it is cheap, the exhaustive search of :mod:`pairing.exact` (the exact optimum).

F (the most rounds an entrant spends at a 4-table) is at least ⌈4·b·r / N⌉ (b = N mod 3 four-tables
a round). If R = 0, the four members of a 4-table sit at four different tables in every other
round; with F = 1 none of them may sit at a 4-table again, so a round needs at least four
3-tables. Hence F ≥ 2 when R = 0, r ≥ 2 and a round has fewer than four 3-tables (N = 13, 14, 17).
"""

from __future__ import annotations

import itertools
import math
from functools import cache

from . import exact
from .counting import generic_singles_bounds
from .model import Mode


@cache
def plain_bounds(mode: Mode, n: int, rounds: int) -> tuple[int, int]:
    """(R, F) bounds for a plan of ``rounds`` rounds over the same ``n`` entrants."""
    if mode is Mode.PAIRS:
        # Each pair meets one other pair per round: R ≥ Σ_e max(0, r - (N - 1)) / 2, reached by
        # repeating a round-robin 1-factorisation of K_N.
        return (n // 2) * max(0, rounds - (n - 1)), 0
    if exact.feasible(n, rounds):
        r, f, _ = exact.solve(n, rounds)
        return r, f
    return generic_singles_bounds(n, rounds)


def pigeonhole_clashes(club_sizes: list[int], capacities: list[int]) -> int:
    """The fewest club clashes Σ_t Σ_c max(0, n_tc - 1) when clubs of the given sizes (a
    club-less entrant is a club of 1) fill tables of the given capacities exactly.

    A clash-free seat is one (club, table) incidence; the most incidences is a maximum b-matching
    in the complete bipartite graph clubs × tables with degrees ≤ s_c and ≤ cap_t, which by the
    max-flow/min-cut theorem is min over k of Σ_c min(s_c, k) + (the T - k smallest capacities)."""
    total = sum(club_sizes)
    if total == 0:
        return 0
    caps = sorted(capacities)
    t = len(caps)
    prefix_caps = [0, *itertools.accumulate(caps)]
    srt = sorted(club_sizes)
    prefix_sizes = [0, *itertools.accumulate(srt)]
    best = math.inf
    j = 0
    for k in range(t + 1):
        while j < len(srt) and srt[j] <= k:
            j += 1
        clubs_part = prefix_sizes[j] + (len(srt) - j) * k
        best = min(best, clubs_part + prefix_caps[t - k])
    return int(total - best)
