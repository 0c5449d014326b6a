"""Seat order: who deals game 1 (seat 1) and who keeps the score sheet (seat 3).

Given the groupings, each table needs one dealer and one scorer (at a pair table the first pair
is both). Every entrant e has a fair share q_e of each role (see :mod:`pairing.quality`) and
should hold it ⌊q_e⌋ or ⌈q_e⌉ times. Choosing the holders is a flow problem with lower and upper
bounds: a greedy choice first, then augmenting paths move a table from an entrant above its upper
bound to one below it, or from one above its lower bound to one below it, until no path exists
(then no better assignment exists for that role). Dealers are chosen first, then scorers among
each table's other members.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence


def assign_role(
    n: int,
    eligible: Sequence[Sequence[int]],
    lo: Sequence[int],
    hi: Sequence[int],
    initial: Sequence[int],
    rng: random.Random,
    prefer: Sequence[int] | None = None,
    rank: Sequence[int] | None = None,
    keep_first: bool = False,
) -> list[int]:
    """Pick one holder per table among its eligible members so that each entrant's count
    (``initial`` + tables held) lies within [lo, hi] wherever possible. Among equally needy
    members the lower ``rank`` wins, then the table's ``prefer``-red previous holder (the other
    way round with ``keep_first``)."""
    count = list(initial)
    holder = [-1] * len(eligible)
    held: list[set[int]] = [set() for _ in range(n)]
    tables_of: list[list[int]] = [[] for _ in range(n)]
    for t, members in enumerate(eligible):
        for e in members:
            tables_of[e].append(t)
    # greedy: first every table keeps its previous holder where that holder's share allows,
    # then the other tables take the member furthest below its share
    order = list(range(len(eligible)))
    rng.shuffle(order)
    if prefer is not None:
        kept = [t for t in order if prefer[t] in eligible[t]]
        order = kept + [t for t in order if prefer[t] not in eligible[t]]
    reserved = {p for t, p in enumerate(prefer or ()) if p >= 0 and p in eligible[t]}
    for t in order:
        members = eligible[t]
        best = -1
        best_key: tuple[int, int, int, float] | None = None
        for e in members:
            c = count[e]
            level = 0 if c < lo[e] else (1 if c < hi[e] else 2 + c - hi[e])
            mine = prefer is not None and prefer[t] == e
            own = 0 if mine else (2 if e in reserved else 1)
            ranked = rank[e] if rank is not None else 0
            first, second = (own, ranked) if keep_first else (ranked, own)
            key = (level, first, second, rng.random())
            if best_key is None or key < best_key:
                best, best_key = e, key
        holder[t] = best
        held[best].add(t)
        count[best] += 1

    def move(path: list[tuple[int, int]]) -> None:
        # path of (table, new holder): each table passes to its new holder
        for t, e in path:
            old = holder[t]
            held[old].discard(t)
            count[old] -= 1
            holder[t] = e
            held[e].add(t)
            count[e] += 1

    # too many: push a table from u along holders until someone below hi takes it
    for u in range(n):
        while count[u] > hi[u]:
            path = _push(u, held, eligible, holder, lambda x: count[x] < hi[x])
            if path is None:
                break
            move(path)
    # too few: pull a table to v from someone who can spare it (count above lo)
    for v in range(n):
        while count[v] < lo[v]:
            path = _pull(v, tables_of, holder, lambda x: count[x] > lo[x])
            if path is None:
                break
            move(path)
    return holder


def _push(
    start: int,
    held: list[set[int]],
    eligible: Sequence[Sequence[int]],
    holder: list[int],
    accepts: object,
) -> list[tuple[int, int]] | None:
    assert callable(accepts)
    parent: dict[int, tuple[int, int]] = {start: (-1, -1)}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        for t in sorted(held[v]):
            for x in eligible[t]:
                if x in parent:
                    continue
                parent[x] = (v, t)
                if accepts(x):
                    path = []
                    y = x
                    while y != start:
                        pv, pt = parent[y]
                        path.append((pt, y))
                        y = pv
                    return path
                queue.append(x)
    return None


def _pull(
    start: int,
    tables_of: list[list[int]],
    holder: list[int],
    accepts: object,
) -> list[tuple[int, int]] | None:
    assert callable(accepts)
    parent: dict[int, tuple[int, int]] = {start: (-1, -1)}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        for t in tables_of[v]:
            h = holder[t]
            if h in parent:
                continue
            parent[h] = (v, t)
            if accepts(h):
                path = []
                y = h
                while y != start:
                    pv, pt = parent[y]
                    path.append((pt, pv))
                    y = pv
                return path
            queue.append(h)
    return None


def seat_orders(
    n: int,
    tables: Sequence[Sequence[int]],
    pair_tables: bool,
    lo: Sequence[int],
    hi: Sequence[int],
    dealt: Sequence[int],
    scored: Sequence[int],
    rng: random.Random,
    base: Sequence[Sequence[int] | None] | None = None,
    keep_first: bool = False,
) -> list[list[int]]:
    """Seat orders for free tables (members given). ``dealt``/``scored`` count roles already
    held (played rounds); ``base`` gives each table's previous seat order, kept where the roles
    allow it (fewer changed seats in a re-plan; ``keep_first`` puts that before saving scarce
    scorers when choosing dealers)."""
    prefer_dealer = None
    prefer_scorer = None
    if base is not None:
        prefer_dealer = [b[0] if b else -1 for b in base]
        prefer_scorer = [(b[0] if pair_tables else b[2]) if b else -1 for b in base]
    # deal with those who cannot keep score any more first, save those who still must
    rank = [0 if scored[e] >= hi[e] else (2 if scored[e] < lo[e] else 1) for e in range(n)]
    dealers = assign_role(
        n, tables, lo, hi, dealt, rng, prefer_dealer, None if pair_tables else rank, keep_first
    )
    if pair_tables:
        out = []
        for t, members in enumerate(tables):
            d = dealers[t]
            out.append([d, *(e for e in members if e != d)])
        return out
    others = [[e for e in members if e != dealers[t]] for t, members in enumerate(tables)]
    scorers = assign_role(n, others, lo, hi, scored, rng, prefer_scorer, None, keep_first)
    return [
        arrange(members, dealers[t], scorers[t], base[t] if base is not None else None, rng)
        for t, members in enumerate(tables)
    ]


def arrange(
    members: Sequence[int], dealer: int, scorer: int, prev: Sequence[int] | None, rng: random.Random
) -> list[int]:
    """The seat order of a 3- or 4-table: the dealer in seat 1, the scorer in seat 3, the
    others in their ``prev`` seat where it is free, else at random."""
    rest = [e for e in members if e not in (dealer, scorer)]
    order = [dealer, -1, scorer] + [-1] * (len(members) - 3)
    free = [1] + list(range(3, len(members)))
    if prev:
        keep = [e for e in rest if e in prev and prev.index(e) in free]
        for e in keep:
            pos = prev.index(e)
            order[pos] = e
            free.remove(pos)
        rest = [e for e in rest if e not in keep]
    else:
        rng.shuffle(rest)
    for pos, e in zip(free, rest, strict=True):
        order[pos] = e
    return order


def role_gain(count: int, lo: int, hi: int) -> int:
    """How much holding a role once more lowers an entrant's deviation from [lo, hi]: 1 below
    the share, 0 with room left, -1 at or above its top."""
    return 1 if count < lo else (0 if count < hi else -1)


def best_roles(
    members: Sequence[int],
    gd: Sequence[int],
    gs: Sequence[int],
    pairs: bool,
    prev: Sequence[int] | None = None,
) -> tuple[int, int, int]:
    """(gain, dealer, scorer) of a table whose members' other roles are settled: the dealer and
    scorer (distinct, except at a pair table) with the largest :func:`role_gain` sum; among
    equals the previous dealer and scorer of ``prev`` keep their roles."""
    old_d = prev[0] if prev else -1
    old_s = (prev[0] if pairs else prev[2]) if prev else -1
    best: tuple[int, int, int, int] | None = None
    for d in members:
        for s in members if not pairs else (d,):
            if s == d and not pairs:
                continue
            key = (gd[d] + gs[s], (d == old_d) + (s == old_s), d, s)
            if best is None or key[:2] > best[:2]:
                best = key
    assert best is not None
    return best[0], best[2], best[3]


def table_loss(members: Sequence[int], gd: Sequence[int], gs: Sequence[int], pairs: bool) -> int:
    """Roles a table's members still need that its best dealer and scorer leave unmet, plus
    roles handed to members at the top of their share: the table's part of S above the least
    its members could have."""
    need = 0
    for e in members:
        if gd[e] > 0:
            need += 1
        if gs[e] > 0:
            need += 1
    if pairs:
        return need - max(gd[e] + gs[e] for e in members)
    top = -3
    for d in members:
        for s in members:
            if s != d and gd[d] + gs[s] > top:
                top = gd[d] + gs[s]
    return need - top
