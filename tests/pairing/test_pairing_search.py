"""The search's building blocks: incremental cost terms and the role flows."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing.search import Grouping
from pairing.seats import assign_role


def roles_lost(table, gd, gs):
    """The fewest role shares a table misses: needy members without the role, members at the
    top of their share given it (brute force over dealer and scorer)."""
    return min(
        sum(
            (gd[e] > 0 and e != d)
            + (gd[e] < 0 and e == d)
            + (gs[e] > 0 and e != s)
            + (gs[e] < 0 and e == s)
            for e in table
        )
        for d, s in itertools.permutations(table, 2)
    )


def recount(g: Grouping, clubs, club_round, home, f_cap, roles=None):
    met = {}
    f = [0] * g.n
    for ri, rnd in enumerate(g.tables):
        for ti, t in enumerate(rnd):
            if g.fours[ri][ti]:
                for e in t:
                    f[e] += 1
            for pair in itertools.combinations(sorted(t), 2):
                met[pair] = met.get(pair, 0) + 1
    r = sum(v - 1 for v in met.values())
    fx = sum(max(0, x - f_cap) for x in f)
    c1 = 0
    for t in g.tables[club_round]:
        seen = {}
        for e in t:
            if clubs[e] >= 0:
                seen[clubs[e]] = seen.get(clubs[e], 0) + 1
        c1 += sum(v - 1 for v in seen.values())
    dt = sum(
        1
        for ri in range(g.r)
        if not g.fixed[ri]
        for ti, t in enumerate(g.tables[ri])
        for e in t
        if home[ri][e] >= 0 and home[ri][e] != ti
    )
    sl = 0
    if roles is not None:
        ri, gd, gs = roles
        sl = sum(roles_lost(t, gd, gs) for t in g.tables[ri])
    return r, fx, sl, c1, dt


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.sampled_from([7, 10, 13, 20]))
def test_swaps_keep_every_cost_term_exact(seed, n):
    rng = random.Random(seed)
    sizes = [3] * ((n - 4 * (n % 3)) // 3) + [4] * (n % 3)
    rounds = []
    for _ in range(3):
        order = list(range(n))
        rng.shuffle(order)
        tables, at = [], 0
        for s in sizes:
            tables.append(order[at : at + s])
            at += s
        rounds.append(tables)
    fours = [[len(t) == 4 for t in rnd] for rnd in rounds]
    clubs = [rng.randrange(-1, 3) for _ in range(n)]
    home = [[rng.randrange(-1, len(sizes)) for _ in range(n)] for _ in range(3)]
    g = Grouping(
        n, rounds, fours, fixed=[True, False, False], f_cap=1, clubs=clubs, club_round=1, home=home
    )
    roles = (
        rng.choice([1, 2]),
        [rng.randint(-1, 1) for _ in range(n)],
        [rng.randint(-1, 1) for _ in range(n)],
    )
    g.set_roles(*roles)
    start = g.snapshot()
    for _ in range(60):
        ri = rng.choice([1, 2])
        x, z = rng.sample(range(n), 2)
        if g.where[ri][x] == g.where[ri][z]:
            continue
        before = g.cost()
        d = g.delta(ri, x, z)
        g.swap(ri, x, z)
        assert g.cost() - before == d
        assert g.key() == recount(g, clubs, 1, home, 1, roles)
        assert set(g.over.items) == {
            e for e in range(n) if g.f[e] > 1 and any(g.fours[r][g.where[r][e]] for r in (1, 2))
        }
    conflicts = {
        a * n + b
        for a in range(n)
        for b in range(a + 1, n)
        if sum(1 for rnd in g.tables for t in rnd if a in t and b in t) >= 2
        and any(a in t and b in t for rnd in g.tables[1:] for t in rnd)
    }
    assert set(g.conflicts.items) == conflicts
    g.restore(start)
    assert [[sorted(t) for t in rnd] for rnd in g.snapshot()] == [
        [sorted(t) for t in rnd] for rnd in start
    ]
    assert g.key() == recount(g, clubs, 1, home, 1, roles)
    g.set_roles(None)
    assert g.key() == recount(g, clubs, 1, home, 1)


def feasible_assignment_exists(tables, lo, hi, initial):
    for choice in itertools.product(*tables):
        counts = list(initial)
        for e in choice:
            counts[e] += 1
        if all(lo[e] <= c <= hi[e] for e, c in enumerate(counts)):
            return True
    return False


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 100_000))
def test_the_role_flow_finds_a_fair_assignment_whenever_one_exists(seed):
    rng = random.Random(seed)
    n = rng.randint(3, 6)
    tables = [rng.sample(range(n), rng.randint(1, 3)) for _ in range(rng.randint(1, 6))]
    initial = [rng.randint(0, 1) for _ in range(n)]
    lo = [rng.randint(0, 2) for _ in range(n)]
    hi = [low + rng.randint(0, 1) for low in lo]
    holders = assign_role(n, tables, lo, hi, initial, rng)
    assert all(h in t for h, t in zip(holders, tables, strict=True))
    counts = list(initial)
    for h in holders:
        counts[h] += 1
    fair = all(lo[e] <= c <= hi[e] for e, c in enumerate(counts))
    assert fair == feasible_assignment_exists(tables, lo, hi, initial)


def random_rounds(rng, n, rounds):
    sizes = [3] * ((n - 4 * (n % 3)) // 3) + [4] * (n % 3)
    out = []
    for _ in range(rounds):
        order = list(range(n))
        rng.shuffle(order)
        tables, at = [], 0
        for s in sizes:
            tables.append(order[at : at + s])
            at += s
        out.append(tables)
    return out


@pytest.mark.parametrize(("n", "cap"), [(16, 1), (19, 1), (20, 2), (22, 1)])
def test_the_tabu_search_drives_repeats_and_the_4_table_excess_to_their_targets(n, cap):
    rng = random.Random(n)
    rounds = random_rounds(rng, n, 3)
    g = Grouping(n, rounds, [[len(t) == 4 for t in rnd] for rnd in rounds], f_cap=cap)
    g.tabu_search(rng, 0, 50_000)
    assert g.repeats == 0
    assert g.fx == 0
    assert g.f_max() == cap
