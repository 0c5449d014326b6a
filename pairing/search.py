"""Local search over groupings: who sits at which table in each round (seat order comes later).

Entrants are indices ``0..n-1``. A grouping has, per round, a list of tables (member lists) whose
sizes never change; the only move is a swap of two entrants between two tables of the same
round that is not fixed (played rounds are fixed). The search minimises, lexicographically:

1. ``R`` - repeated meetings, Σ over pairs of max(0, rounds at the same table - 1);
2. ``fx`` - 4-table rounds above a cap, Σ over entrants of max(0, f_e - cap) (or a hard cap);
3. ``sl`` - re-plans only, while seats are balanced: the seat balance S of one round whose
   tables are to take their dealers and scorers with every other round's roles settled
   (:meth:`Grouping.set_roles`);
4. ``c1`` - club clashes in one round (re-plans of an unplayed round 1);
5. ``dt`` - entrants away from their "home" table (re-plans: the table of the plan before).

The search is a min-conflicts tabu search: pick a violation (a repeated pair, an entrant above
the 4-table cap, a table of the balanced round with a loss) and make the best non-tabu swap that
moves it; the lesser terms are then improved by hill climbing that never gives up an earlier
term. All randomness comes from the ``random.Random`` handed in, so results are reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .seats import table_loss

Tables = list[list[int]]


class IndexedSet:
    """A set of ints with O(1) add, remove and uniform random choice."""

    __slots__ = ("items", "pos")

    def __init__(self) -> None:
        self.items: list[int] = []
        self.pos: dict[int, int] = {}

    def add(self, x: int) -> None:
        if x not in self.pos:
            self.pos[x] = len(self.items)
            self.items.append(x)

    def discard(self, x: int) -> None:
        i = self.pos.pop(x, None)
        if i is None:
            return
        last = self.items.pop()
        if last != x:
            self.items[i] = last
            self.pos[last] = i

    def __len__(self) -> int:
        return len(self.items)

    def choice(self, rng: random.Random) -> int:
        return self.items[rng.randrange(len(self.items))]


class Grouping:
    """Mutable grouping state with incrementally maintained cost terms."""

    def __init__(
        self,
        n: int,
        rounds: Sequence[Tables],
        fours: Sequence[Sequence[bool]],
        fixed: Sequence[bool] | None = None,
        f_cap: int | None = None,
        hard_f: bool = False,
        clubs: Sequence[int] | None = None,
        club_round: int | None = None,
        home: Sequence[Sequence[int]] | None = None,
    ) -> None:
        self.n = n
        self.r = len(rounds)
        self.tables: list[Tables] = [[list(t) for t in rnd] for rnd in rounds]
        self.fours = [list(f) for f in fours]
        self.fixed = list(fixed) if fixed is not None else [False] * self.r
        self.movable = [i for i in range(self.r) if not self.fixed[i]]
        self.where: list[list[int]] = []
        self.present: list[list[int]] = []
        for rnd in self.tables:
            w = [-1] * n
            for ti, t in enumerate(rnd):
                for e in t:
                    w[e] = ti
            self.where.append(w)
            self.present.append([e for t in rnd for e in t])
        self.meet = bytearray(n * n)
        self.fixed_meet: bytearray | None = bytearray(n * n) if any(self.fixed) else None
        self.f = [0] * n
        for ri, rnd in enumerate(self.tables):
            for ti, t in enumerate(rnd):
                if self.fours[ri][ti]:
                    for e in t:
                        self.f[e] += 1
                for a in range(len(t)):
                    ia = t[a] * n
                    for b in range(a + 1, len(t)):
                        self.meet[ia + t[b]] += 1
                        self.meet[t[b] * n + t[a]] += 1
                        if self.fixed_meet is not None and self.fixed[ri]:
                            self.fixed_meet[ia + t[b]] += 1
                            self.fixed_meet[t[b] * n + t[a]] += 1
        self.repeats = 0
        self.conflicts = IndexedSet()
        meet = self.meet
        for i in range(n):
            row = i * n
            for j in range(i + 1, n):
                v = meet[row + j]
                if v >= 2:
                    self.repeats += v - 1
                    if self._movable_conflict(row + j, v):
                        self.conflicts.add(row + j)
        self.f_cap = f_cap if f_cap is not None else self.r
        self.hard_f = hard_f
        self.fx = sum(max(0, x - self.f_cap) for x in self.f)
        # entrants above the cap with a 4-table in a movable round (they can still come down)
        self.over = IndexedSet()
        for e in range(n):
            self._track_over(e)
        self.clubs = list(clubs) if clubs is not None else None
        self.club_round = club_round if clubs is not None else None
        self.cc: list[dict[int, int]] = []
        self.c1 = 0
        if self.club_round is not None and self.clubs is not None:
            for t in self.tables[self.club_round]:
                counts: dict[int, int] = {}
                for e in t:
                    c = self.clubs[e]
                    if c >= 0:
                        counts[c] = counts.get(c, 0) + 1
                self.cc.append(counts)
                self.c1 += sum(v - 1 for v in counts.values())
        self.home = [list(h) for h in home] if home is not None else None
        self.dt = 0
        if self.home is not None:
            for ri in self.movable:
                h, w = self.home[ri], self.where[ri]
                self.dt += sum(1 for e in self.present[ri] if h[e] >= 0 and h[e] != w[e])
        # seat balance of one round (re-plans), off until set_roles() names the round
        self.s_round: int | None = None
        self.gd: Sequence[int] = ()
        self.gs: Sequence[int] = ()
        self.pairs = False
        self.sl_t: list[int] = []
        self.sl = 0
        self.bad = IndexedSet()
        # lexicographic weights: each term outweighs everything below it (dt ≤ n·r, c1 ≤ n,
        # sl ≤ 4n, fx ≤ n·r)
        self.w1 = n * self.r + 1
        self.ws = self.w1 * (n + 1)
        self.w2 = self.ws * (4 * n + 1)
        self.w3 = self.w2 * (n * self.r + 1)

    # -- cost ----------------------------------------------------------------------------------

    def _movable_conflict(self, k: int, v: int) -> bool:
        if v < 2:
            return False
        if self.fixed_meet is None:
            return True
        return v - self.fixed_meet[k] >= 1

    def cost(self) -> int:
        return (
            self.repeats * self.w3
            + self.fx * self.w2
            + self.sl * self.ws
            + self.c1 * self.w1
            + self.dt
        )

    def key(self) -> tuple[int, int, int, int, int]:
        """The cost terms in the order of issue 3: R, F, S (one round's), clubs, D."""
        return (self.repeats, self.fx, self.sl, self.c1, self.dt)

    @staticmethod
    def harmless(d: int) -> bool:
        """Whether a swap of cost change ``d`` (:meth:`delta`) makes no term but ``dt`` worse:
        one swap moves ``dt`` by at most 2, every other term weighs more than that."""
        return d <= 2

    def set_roles(
        self, ri: int | None, gd: Sequence[int] = (), gs: Sequence[int] = (), pairs: bool = False
    ) -> None:
        """Weigh the seat balance of round ``ri`` (None: no round): with every other round's
        dealers and scorers settled, ``gd``/``gs`` say what dealing or scoring once more does
        for each entrant (:func:`pairing.seats.role_gain`), and the term ``sl`` sums
        :func:`pairing.seats.table_loss` over the round's tables."""
        self.s_round, self.gd, self.gs, self.pairs = ri, gd, gs, pairs
        self.sl_t = [] if ri is None else [table_loss(t, gd, gs, pairs) for t in self.tables[ri]]
        self.sl = sum(self.sl_t)
        self.bad = IndexedSet()
        for ti, v in enumerate(self.sl_t):
            if v:
                self.bad.add(ti)

    def f_max(self) -> int:
        return max(self.f, default=0)

    def _excess(self, f: int) -> int:
        return f - self.f_cap if f > self.f_cap else 0

    def set_cap(self, f_cap: int) -> None:
        """Move the 4-table cap (the soft F target) and recount the excess."""
        self.f_cap = f_cap
        self.fx = sum(self._excess(x) for x in self.f)
        for e in range(self.n):
            self._track_over(e)

    def _track_over(self, e: int) -> None:
        if self.f[e] > self.f_cap and any(
            self.fours[ri][self.where[ri][e]] for ri in self.movable if self.where[ri][e] >= 0
        ):
            self.over.add(e)
        else:
            self.over.discard(e)

    def delta(self, ri: int, x: int, z: int) -> int | None:
        """Cost change of swapping x and z (different tables of round ri); None if forbidden."""
        w = self.where[ri]
        ta, tb = w[x], w[z]
        rnd = self.tables[ri]
        n = self.n
        meet = self.meet
        mx, mz = x * n, z * n
        dr = 0
        for a in rnd[ta]:
            if a != x:
                if meet[mx + a] >= 2:
                    dr -= 1
                if meet[mz + a]:
                    dr += 1
        for b in rnd[tb]:
            if b != z:
                if meet[mz + b] >= 2:
                    dr -= 1
                if meet[mx + b]:
                    dr += 1
        d = dr * self.w3
        fa, fb = self.fours[ri][ta], self.fours[ri][tb]
        if fa != fb:
            out, inn = (x, z) if fa else (z, x)
            fo, fi = self.f[out], self.f[inn]
            if self.hard_f and fi + 1 > self.f_cap:
                return None
            d += (
                self._excess(fo - 1) - self._excess(fo) + self._excess(fi + 1) - self._excess(fi)
            ) * self.w2
        if ri == self.club_round and self.clubs is not None:
            cx, cz = self.clubs[x], self.clubs[z]
            if cx != cz:
                ca, cb = self.cc[ta], self.cc[tb]
                dc = 0
                if cx >= 0:
                    dc += (1 if ca[cx] >= 2 else 0) - (1 if cb.get(cx, 0) >= 1 else 0)
                if cz >= 0:
                    dc += (1 if cb[cz] >= 2 else 0) - (1 if ca.get(cz, 0) >= 1 else 0)
                d -= dc * self.w1
        if ri == self.s_round:
            gd, gs, pairs = self.gd, self.gs, self.pairs
            new_a = [z if e == x else e for e in rnd[ta]]
            new_b = [x if e == z else e for e in rnd[tb]]
            d += (
                table_loss(new_a, gd, gs, pairs)
                + table_loss(new_b, gd, gs, pairs)
                - self.sl_t[ta]
                - self.sl_t[tb]
            ) * self.ws
        if self.home is not None:
            h = self.home[ri]
            hx, hz = h[x], h[z]
            if hx >= 0:
                d += (hx != tb) - (hx != ta)
            if hz >= 0:
                d += (hz != ta) - (hz != tb)
        return d

    # -- moves ---------------------------------------------------------------------------------

    def _bump(self, i: int, j: int, step: int) -> None:
        n = self.n
        k = i * n + j
        v = self.meet[k]
        nv = v + step
        if step > 0:
            if v >= 1:
                self.repeats += 1
        elif v >= 2:
            self.repeats -= 1
        self.meet[k] = nv
        self.meet[j * n + i] = nv
        key = k if i < j else j * n + i
        if self._movable_conflict(key, nv):
            self.conflicts.add(key)
        else:
            self.conflicts.discard(key)

    def swap(self, ri: int, x: int, z: int) -> None:
        w = self.where[ri]
        ta, tb = w[x], w[z]
        rnd = self.tables[ri]
        tab, tbb = rnd[ta], rnd[tb]
        for a in tab:
            if a != x:
                self._bump(x, a, -1)
                self._bump(z, a, 1)
        for b in tbb:
            if b != z:
                self._bump(z, b, -1)
                self._bump(x, b, 1)
        tab[tab.index(x)] = z
        tbb[tbb.index(z)] = x
        w[x], w[z] = tb, ta
        fa, fb = self.fours[ri][ta], self.fours[ri][tb]
        if fa != fb:
            out, inn = (x, z) if fa else (z, x)
            self.fx -= self._excess(self.f[out]) + self._excess(self.f[inn])
            self.f[out] -= 1
            self.f[inn] += 1
            self.fx += self._excess(self.f[out]) + self._excess(self.f[inn])
            self._track_over(out)
            self._track_over(inn)
        if ri == self.club_round and self.clubs is not None:
            cx, cz = self.clubs[x], self.clubs[z]
            if cx != cz:
                ca, cb = self.cc[ta], self.cc[tb]
                for c, src, dst in ((cx, ca, cb), (cz, cb, ca)):
                    if c < 0:
                        continue
                    if src[c] >= 2:
                        self.c1 -= 1
                    src[c] -= 1
                    if dst.get(c, 0) >= 1:
                        self.c1 += 1
                    dst[c] = dst.get(c, 0) + 1
        if ri == self.s_round:
            for ti in (ta, tb):
                v = table_loss(rnd[ti], self.gd, self.gs, self.pairs)
                self.sl += v - self.sl_t[ti]
                self.sl_t[ti] = v
                if v:
                    self.bad.add(ti)
                else:
                    self.bad.discard(ti)
        if self.home is not None:
            h = self.home[ri]
            for e, before, after in ((x, ta, tb), (z, tb, ta)):
                if h[e] >= 0:
                    self.dt += (h[e] != after) - (h[e] != before)

    def snapshot(self) -> list[Tables]:
        return [[list(t) for t in rnd] for rnd in self.tables]

    # -- search --------------------------------------------------------------------------------

    def candidates(self, ri: int, rng: random.Random, sample: int) -> Sequence[int]:
        pool = self.present[ri]
        if len(pool) <= sample:
            return pool
        return rng.sample(pool, sample)

    def tabu_search(
        self,
        rng: random.Random,
        target_r: int,
        max_iters: int,
        sample: int = 160,
        noise: float = 0.02,
        balanced: bool = False,
        repeats_only: bool = False,
    ) -> list[Tables]:
        """Drive R down to ``target_r`` and the 4-table excess ``fx`` and the seat-balance term
        ``sl`` down to 0 (or until the budget is spent); return the best grouping seen (by the
        lexicographic :meth:`key`) and leave the state at it.

        Each step takes one violation at random - a repeated pair while R is above its target,
        an entrant above the 4-table cap while ``fx`` is positive, else a table of the balanced
        round with a loss - and makes the best non-tabu swap that moves it. ``balanced`` weighs
        a repeat, a 4-table round above the cap and a seat-balance loss alike while searching, so
        the walk can trade one for another on its way to all targets (the best grouping is still
        chosen lexicographically). ``repeats_only`` stops as soon as R is on target (the lesser
        terms are then left to :meth:`improve`)."""
        saved = (self.w3, self.w2)
        if balanced:
            self.w3 = self.w2 = self.ws
        try:
            return self._tabu(rng, target_r, max_iters, sample, noise, repeats_only)
        finally:
            self.w3, self.w2 = saved

    def _tabu(
        self,
        rng: random.Random,
        target_r: int,
        max_iters: int,
        sample: int,
        noise: float,
        repeats_only: bool,
    ) -> list[Tables]:
        best_cost = self.cost()  # with the search's weights: the aspiration level
        best_key = self.key()
        best = self.snapshot()
        tabu: dict[tuple[int, int, int], int] = {}
        tenure_base = 3 + min(10, self.n // 8)
        n = self.n
        it = 0
        while it < max_iters and (
            self.repeats > target_r or not repeats_only and (self.fx or self.sl)
        ):
            it += 1
            nc = len(self.conflicts) if self.repeats > target_r else 0
            no = len(self.over) if self.fx and not repeats_only else 0
            nb = len(self.bad) if self.sl and not nc + no and not repeats_only else 0
            if not nc + no + nb:
                break
            k = rng.randrange(nc + no + nb)
            movers: tuple[int, ...]
            if k < nc:
                pair = self.conflicts.items[k]
                i, j = divmod(pair, n)
                shared = [ri for ri in self.movable if self.where[ri][i] == self.where[ri][j]]
                if not shared:  # cannot happen: a movable conflict meets in a movable round
                    self.conflicts.discard(pair)
                    continue
                movers = (i, j)
            elif k < nc + no:
                e = self.over.items[k - nc]
                shared = [
                    ri
                    for ri in self.movable
                    if self.where[ri][e] >= 0 and self.fours[ri][self.where[ri][e]]
                ]
                movers = (e,)
            else:
                assert self.s_round is not None
                shared = [self.s_round]
                movers = tuple(self.tables[self.s_round][self.bad.items[k - nc - no]])
            ri = shared[rng.randrange(len(shared))]
            w = self.where[ri]
            cur = self.cost()
            best_d: int | None = None
            moves: list[tuple[int, int]] = []
            for x in movers:
                ta = w[x]
                for z in self.candidates(ri, rng, sample):
                    tb = w[z]
                    if tb == ta:
                        continue
                    d = self.delta(ri, x, z)
                    if d is None:
                        continue
                    if (
                        tabu.get((ri, x, tb), 0) > it or tabu.get((ri, z, ta), 0) > it
                    ) and cur + d >= best_cost:
                        continue
                    if best_d is None or d < best_d:
                        best_d = d
                        moves = [(x, z)]
                    elif d == best_d:
                        moves.append((x, z))
            if not moves:
                continue
            x, z = moves[rng.randrange(len(moves))]
            if noise and rng.random() < noise:
                x = movers[rng.randrange(len(movers))]
                others = [e for e in self.present[ri] if w[e] != w[x]]
                z = others[rng.randrange(len(others))]
                if self.delta(ri, x, z) is None:
                    continue
            ta, tb = w[x], w[z]
            self.swap(ri, x, z)
            tenure = tenure_base + rng.randrange(tenure_base + 1)
            tabu[(ri, x, ta)] = it + tenure
            tabu[(ri, z, tb)] = it + tenure
            best_cost = min(best_cost, self.cost())
            key = self.key()
            if key < best_key:
                best_key = key
                best = self.snapshot()
        if self.key() != best_key:
            self.restore(best)
        return best

    def restore(self, rounds: Sequence[Tables]) -> None:
        """Move to another grouping of the same shape by swaps (keeps all counters right)."""
        for ri in self.movable:
            for ti, t in enumerate(rounds[ri]):
                for e in t:
                    if self.where[ri][e] != ti:
                        # bring e to table ti by swapping with a member that does not belong there
                        target = self.tables[ri][ti]
                        for z in target:
                            if rounds[ri][ti].count(z) == 0:
                                self.swap(ri, e, z)
                                break

    def improve(self, rng: random.Random, max_passes: int = 3, sample: int = 400) -> None:
        """Hill-climb on the full lexicographic cost: for each entrant contributing to a
        secondary term, apply the best strictly improving swap."""
        for _ in range(max_passes):
            improved = False
            for ri in self.movable:
                for x in self._movers(ri):
                    best_d = 0
                    best_z = -1
                    w = self.where[ri]
                    for z in self.candidates(ri, rng, sample):
                        if w[z] == w[x]:
                            continue
                        d = self.delta(ri, x, z)
                        if d is not None and d < best_d:
                            best_d, best_z = d, z
                    if best_z >= 0:
                        self.swap(ri, x, best_z)
                        improved = True
            if not improved:
                return

    def _movers(self, ri: int) -> list[int]:
        """Entrants of round ri that add to a secondary cost term."""
        out: set[int] = set()
        w = self.where[ri]
        for e in self.present[ri]:
            if self.f[e] > self.f_cap and self.fours[ri][w[e]]:
                out.add(e)
            if self.home is not None and self.home[ri][e] >= 0 and self.home[ri][e] != w[e]:
                out.add(e)
        if ri == self.club_round and self.clubs is not None:
            for ti, counts in enumerate(self.cc):
                clashing = {c for c, v in counts.items() if v >= 2}
                if clashing:
                    out.update(e for e in self.tables[ri][ti] if self.clubs[e] in clashing)
        return sorted(out)
