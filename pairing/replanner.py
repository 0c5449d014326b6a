"""Re-planning the unplayed rounds after withdrawals and late arrivals.

Rounds 1..played are copied unchanged. Every later round starts from the plan before: continuing
entrants keep their seat (table number, position) wherever it still exists in the new table
layout; entrants whose seat vanished and late arrivals fill the free seats (first at their old
table). The figures are then improved in the order of issue 3 - R, F, S, C, D:

1. the tabu search of :mod:`pairing.search` swaps entrants within the unplayed rounds to reach
   the lower bound of R over *all* rounds; single swaps then lower (in this order) the 4-table
   rounds above the F bound, club clashes in round 1 if it is unplayed, entrants away from their
   old table. If F is still above its bound, the tabu search goes on with R and F together, and
   where the bound is out of reach (it is a counting bound) with the cap one higher each time;
2. seat orders balance S with the role flows of :mod:`pairing.seats`, old roles first. Played
   rounds fix roles already held, so the flows may fall short of S's bound; then (with two or
   more unplayed rounds) swaps that cost nothing in R, F and C are tried, targeted at the
   entrants off their share and judged by the flows, at first only swaps that move nobody away
   from an old table; and then round by round, with the other rounds' roles settled, S is a sum
   over the round's tables, which the tabu search lowers as a term after R and F
   (:meth:`pairing.search.Grouping.set_roles`);
3. a clean-up sends entrants back to their old table where S stays as good (D).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from .bounds import plain_bounds
from .clubs import club_ids
from .errors import N_, FieldError, PairingError
from .model import (
    SEATS,
    Entrant,
    Mode,
    Plan,
    Round,
    Table,
    TableKind,
    layout,
    not_whole,
    validate_entrant_count,
    validate_entrants,
    validate_plan,
    validate_played,
)
from .quality import fair_share, generic_bounds, plain_size, seat_bound
from .search import Grouping, Tables
from .seats import arrange, best_roles, role_gain, seat_orders

# seat orders for a grouping: (orders, S, roles dealt, roles scored), as _Seater makes them
Reseat = Callable[[list[Tables]], tuple[list[list[int]], int, list[int], list[int]]]


def replan(
    plan: Plan,
    played: int,
    entrants: Sequence[Entrant],
    withdraw: Iterable[int] = (),
    add: Iterable[Entrant] = (),
    seed: int = 0,
) -> Plan:
    """Re-plan rounds played+1.. of ``plan``.

    Who is seated afterwards: the entrants of the first unplayed round, less ``withdraw``, plus
    ``add``. ``entrants`` is the current entrant list and supplies the clubs (it may include
    withdrawn entrants; an entrant listed there but neither seated nor added stays out).
    """
    validate_plan(plan)
    validate_entrants(entrants)
    added = list(add)
    gone = check_changes(plan, played, withdraw, added)
    if played == len(plan.rounds):
        return plan
    current = plan.rounds[played].entrants()
    final = sorted((current - gone) | {e.start_number for e in added})
    validate_entrant_count(len(final), plan.mode)
    club_of: dict[int, str | None] = {e.start_number: e.club for e in entrants}
    for e in added:
        if e.club or e.start_number not in club_of:
            club_of[e.start_number] = e.club
    return _replan(plan, played, final, club_of, seed)


def check_changes(
    plan: Plan, played: int, withdraw: Iterable[object], add: Iterable[Entrant]
) -> set[int]:
    """Check a re-plan request and return the start numbers withdrawing; raise PairingError
    naming every problem at once: ``played`` must lie within the plan, a withdrawal must name an
    entrant seated in the first round to re-plan, an arrival a new positive start number, each
    once, and with every round played there is nothing to change."""
    validate_played(played, len(plan.rounds))
    withdrawn = list(withdraw)
    added = list(add)
    if played == len(plan.rounds):
        if withdrawn or added:
            raise PairingError(
                [FieldError.of("played", N_("All rounds are played: there is nothing to re-plan."))]
            )
        return set()
    current = plan.rounds[played].entrants()
    errors: list[FieldError] = []
    first = played + 1
    ever = {n for r in plan.rounds for n in r.entrants()}
    gone: set[int] = set()
    for number in withdrawn:
        if isinstance(number, bool) or not isinstance(number, int):
            errors.append(not_whole("withdraw", number))
        elif number in gone:
            errors.append(
                FieldError.of("withdraw", N_("Start number {value} withdraws twice."), value=number)
            )
        elif number not in ever:
            errors.append(
                FieldError.of(
                    "withdraw",
                    N_("Start number {value} is not an entrant of this plan."),
                    value=number,
                )
            )
        elif number not in current:
            errors.append(
                FieldError.of(
                    "withdraw",
                    N_("Start number {value} is not seated in round {round}: nothing to withdraw."),
                    value=number,
                    round=first,
                )
            )
        else:
            gone.add(number)
    arriving: set[int] = set()
    for e in added:
        number = e.start_number
        if isinstance(number, bool) or not isinstance(number, int):
            errors.append(not_whole("add", number))
            continue
        if number < 1:
            problem = N_("Start number {value} is not positive.")
        elif number in arriving:
            problem = N_("Start number {value} is added twice.")
        elif number in gone or number in withdrawn:
            problem = N_("Start number {value} cannot both withdraw and be added.")
        elif number in current:
            problem = N_("Start number {value} is already seated in round {round}.")
        else:
            arriving.add(number)
            continue
        errors.append(FieldError.of("add", problem, value=number, round=first))
        arriving.add(number)
    if errors:
        raise PairingError(errors)
    return gone


def _replan(
    plan: Plan, played: int, final: list[int], club_of: dict[int, str | None], seed: int
) -> Plan:
    numbers = sorted({n for r in plan.rounds for n in r.entrants()} | set(final))
    index = {num: i for i, num in enumerate(numbers)}
    rng = random.Random(f"pairing-replan:{seed}:{played}:{','.join(map(str, final))}")
    kinds = layout(len(final), plan.mode)
    start = _first_drafts(plan, played, kinds, index, {index[f] for f in final}, rng)
    g, r_target = _grouping(plan, played, start, kinds, numbers, club_of)
    _search(g, rng, r_target, len(numbers))
    seat = _Seater.of(plan, played, g, start.bases, kinds, numbers, index, seed)
    orders, dev, d, k = seat(g.snapshot())
    if dev > seat.bound and len(seat.unplayed) > 1:
        orders, dev = _seat_walk(
            g, seat.unplayed, orders, dev, d, k, seat.lo, seat.hi, seat.pairs, seat.bound, rng, seat
        )
    if dev > seat.bound:
        orders, dev = _balance_seats(
            g,
            seat.unplayed,
            orders,
            seat.base_orders,
            (seat.dealt, seat.scored),
            seat.lo,
            seat.hi,
            seat.pairs,
            seat.bound,
            rng,
            seat,
        )
    orders = _back_to_old_tables(g, seat, orders, dev, len(kinds))
    grouped = g.snapshot()
    at = 0
    for ri in seat.unplayed:
        grouped[ri] = orders[at : at + len(grouped[ri])]
        at += len(grouped[ri])
    return _to_plan(plan.mode, plan, played, grouped, kinds, numbers)


@dataclass
class _Drafts:
    """Every round as the search starts from it: the played ones as they were, the others
    with old seats kept (``_start``); per round whether a table is a 4-table, each entrant's
    old table (-1: new or played round) and the old seat orders by table index."""

    rounds: list[Tables] = field(default_factory=list)
    fours: list[list[bool]] = field(default_factory=list)
    homes: list[list[int]] = field(default_factory=list)
    bases: list[dict[int, list[int]]] = field(default_factory=list)


def _first_drafts(
    plan: Plan,
    played: int,
    kinds: Sequence[TableKind],
    index: dict[int, int],
    seated: set[int],
    rng: random.Random,
) -> _Drafts:
    n = len(index)
    sizes = [SEATS[k] for k in kinds]
    drafts = _Drafts()
    for ri, rnd in enumerate(plan.rounds):
        if ri < played:
            drafts.rounds.append([[index[s] for s in t.seats] for t in rnd.tables])
            drafts.fours.append([t.kind is TableKind.FOUR_SITOUT for t in rnd.tables])
            drafts.homes.append([-1] * n)
            drafts.bases.append({})
            continue
        base = {t.number - 1: [index[s] for s in t.seats] for t in rnd.tables}
        tables, home = _start(n, base, sizes, seated, rng)
        drafts.rounds.append(tables)
        drafts.fours.append([k is TableKind.FOUR_SITOUT for k in kinds])
        drafts.homes.append(home)
        drafts.bases.append(base)
    return drafts


def _grouping(
    plan: Plan,
    played: int,
    drafts: _Drafts,
    kinds: Sequence[TableKind],
    numbers: Sequence[int],
    club_of: dict[int, str | None],
) -> tuple[Grouping, int]:
    """The search over the drafts, with the bounds it aims at: R's (returned) and F's (its
    cap); clubs count only while round 1 is unplayed."""
    clubs = club_ids([club_of.get(num) for num in numbers])
    provisional = _to_plan(plan.mode, plan, played, drafts.rounds, kinds, numbers)
    r_target, f_target = generic_bounds(provisional, played)
    size = plain_size(provisional)
    if size is not None and played == 0:
        plain_r, plain_f = plain_bounds(plan.mode, size, len(plan.rounds))
        if plain_r >= r_target:
            f_target = max(f_target, plain_f)
        r_target = max(r_target, plain_r)
    g = Grouping(
        len(numbers),
        drafts.rounds,
        drafts.fours,
        fixed=[ri < played for ri in range(len(drafts.rounds))],
        f_cap=f_target,
        clubs=clubs if any(c >= 0 for c in clubs) and played == 0 else None,
        club_round=0,
        home=drafts.homes,
    )
    return g, r_target


def _search(g: Grouping, rng: random.Random, r_target: int, n: int) -> None:
    """R first, then single swaps for F, clubs and old tables: usually enough, and it keeps D
    low; if F is above its cap, R and F together, then (F's bound is not always reachable) the
    next cap up."""
    budget = 2000 + 20 * n
    g.tabu_search(rng, r_target, budget, repeats_only=True)
    g.improve(rng)
    if g.fx:
        g.tabu_search(rng, r_target, budget)
        cap = g.f_cap
        while g.fx and cap < len(g.tables):
            cap += 1
            g.set_cap(cap)
            g.tabu_search(rng, r_target, budget // 2)
        g.improve(rng)


@dataclass
class _Seater:
    """Seat orders for a grouping of the unplayed rounds: dealer and scorer roles balanced
    over all rounds against each entrant's fair share (``lo``..``hi``), counting the roles the
    played rounds gave (``dealt``, ``scored``), old positions kept where possible."""

    n: int
    unplayed: range
    pairs: bool
    lo: list[int]
    hi: list[int]
    dealt: list[int]
    scored: list[int]
    base_orders: list[Sequence[int] | None]
    bound: int  # S's lower bound: a seating that reaches it ends the search
    seed: int

    @classmethod
    def of(
        cls,
        plan: Plan,
        played: int,
        g: Grouping,
        bases: list[dict[int, list[int]]],
        kinds: Sequence[TableKind],
        numbers: Sequence[int],
        index: dict[int, int],
        seed: int,
    ) -> _Seater:
        n = len(numbers)
        grouped = _to_plan(plan.mode, plan, played, g.snapshot(), kinds, numbers)
        shares = fair_share(grouped.rounds)
        dealt, scored = [0] * n, [0] * n
        for rnd in plan.rounds[:played]:
            for t in rnd.tables:
                dealt[index[t.dealer]] += 1
                scored[index[t.scorer]] += 1
        unplayed = range(played, len(plan.rounds))
        return cls(
            n=n,
            unplayed=unplayed,
            pairs=plan.mode is Mode.PAIRS,
            lo=[shares.get(num, (0, 0))[0] for num in numbers],
            hi=[shares.get(num, (0, 0))[1] for num in numbers],
            dealt=dealt,
            scored=scored,
            base_orders=[bases[ri].get(ti) for ri in unplayed for ti in range(len(kinds))],
            bound=seat_bound(grouped, played),
            seed=seed,
        )

    def __call__(self, grouped: list[Tables]) -> tuple[list[list[int]], int, list[int], list[int]]:
        """The better of two greedy seat orders for ``grouped``: (orders, S, the roles dealt
        and scored with them)."""
        lo, hi, n = self.lo, self.hi, self.n
        free = [t for ri in self.unplayed for t in grouped[ri]]
        best: tuple[int, int, list[list[int]], list[int], list[int]] | None = None
        for keep_first in (True, False):
            orders = seat_orders(
                n,
                free,
                self.pairs,
                lo,
                hi,
                self.dealt,
                self.scored,
                random.Random(self.seed),
                self.base_orders,
                keep_first,
            )
            d, k = list(self.dealt), list(self.scored)
            for order in orders:
                d[order[0]] += 1
                k[order[0] if self.pairs else order[2]] += 1
            dev = sum(
                max(0, lo[e] - d[e], d[e] - hi[e]) + max(0, lo[e] - k[e], k[e] - hi[e])
                for e in range(n)
            )
            moved = sum(
                1
                for order, old in zip(orders, self.base_orders, strict=True)
                if old is not None
                for pos, e in enumerate(order)
                if e in old and old.index(e) != pos
            )
            if best is None or (dev, moved) < best[:2]:
                best = (dev, moved, orders, d, k)
            if dev <= self.bound:
                break
        assert best is not None
        return best[2], best[0], best[3], best[4]


def _back_to_old_tables(
    g: Grouping, seat: _Seater, orders: list[list[int]], dev: int, tables: int
) -> list[list[int]]:
    """The clean-up (D): send entrants back to their old table where that keeps S."""
    old_table = g.home
    assert old_table is not None
    budget = max(20, min(120, 6000 // seat.n))
    for ri in seat.unplayed:
        for e in list(g.present[ri]):
            if budget <= 0:
                break
            target = old_table[ri][e]
            if target < 0 or target >= tables or g.where[ri][e] == target:
                continue
            swaps = [(c, z) for z in g.tables[ri][target] if (c := g.delta(ri, e, z)) is not None]
            if not swaps or min(swaps)[0] >= 0:
                continue
            z = min(swaps)[1]
            budget -= 1
            g.swap(ri, e, z)
            new_orders, new_dev, _, _ = seat(g.snapshot())
            if new_dev <= dev:
                orders, dev = new_orders, new_dev
            else:
                g.swap(ri, e, z)
    return orders


def _seat_walk(
    g: Grouping,
    unplayed: range,
    orders: list[list[int]],
    dev: int,
    dealt: list[int],
    scored: list[int],
    lo: Sequence[int],
    hi: Sequence[int],
    pairs: bool,
    s_bound: int,
    rng: random.Random,
    reseat: Reseat,
) -> tuple[list[list[int]], int]:
    """A plateau walk over swaps that cost nothing in R, F and clubs (:func:`_seat_move`), each
    judged by the role flows over all unplayed rounds; returns the best seating found (the first
    of equals), with the grouping left at it. Plateau steps move nobody from the old table in
    the first half of the budget."""
    per_round = len(g.tables[unplayed.start])
    best = (dev, g.snapshot(), orders)
    tries = max(30, min(300, 20000 // g.n))
    for attempt in range(tries):
        if best[0] <= s_bound:
            break
        move = _seat_move(g, rng, unplayed, orders, per_round, dealt, scored, lo, hi, pairs)
        if move is None:
            continue
        ri, x, z = move
        cost = g.delta(ri, x, z)
        assert cost is not None
        g.swap(ri, x, z)
        new_orders, new_dev, new_d, new_k = reseat(g.snapshot())
        if new_dev < dev or (new_dev == dev and (cost <= 0 or 2 * attempt >= tries)):
            orders, dev, dealt, scored = new_orders, new_dev, new_d, new_k
            if dev < best[0]:
                best = (dev, g.snapshot(), orders)
        else:
            g.swap(ri, x, z)
    if g.snapshot() != best[1]:
        g.restore(best[1])
    return best[2], best[0]


def _seat_move(
    g: Grouping,
    rng: random.Random,
    unplayed: range,
    orders: list[list[int]],
    per_round: int,
    dealt: Sequence[int],
    scored: Sequence[int],
    lo: Sequence[int],
    hi: Sequence[int],
    pairs: bool,
) -> tuple[int, int, int] | None:
    """A swap in an unplayed round that may let the role flows reach everyone's share: an
    entrant holding a role above its share leaves the table for one with room for that role,
    or one below its share joins a table whose holder can spare the role. Only swaps that cost
    nothing in R, F and round-1 clubs are offered."""
    off = [
        (e, counts, role)
        for e in range(g.n)
        for role, counts in ((0, dealt), (1, scored))
        if not lo[e] <= counts[e] <= hi[e]
    ]
    if not off:
        return None
    p, counts, role = off[rng.randrange(len(off))]
    rounds = [ri for ri in unplayed if g.where[ri][p] >= 0]
    if not rounds:
        return None
    ri = rounds[rng.randrange(len(rounds))]
    offset = (ri - unplayed.start) * per_round
    slot = 0 if role == 0 or pairs else 2

    def holder(e: int) -> int:
        return orders[offset + g.where[ri][e]][slot]

    over = counts[p] > hi[p]
    candidates = []
    for z in g.present[ri]:
        if g.where[ri][z] == g.where[ri][p] or holder(z) == z:
            continue
        h = holder(z)
        if over and counts[z] < hi[z] or not over and counts[h] > lo[h]:
            candidates.append(z)
    rng.shuffle(candidates)
    mates = g.tables[ri][g.where[ri][p]]
    best: tuple[int, int, int] | None = None
    for z in candidates[:40]:
        x = p if not over or rng.random() < 0.5 else mates[rng.randrange(len(mates))]
        d = g.delta(ri, x, z)
        if d is not None and g.harmless(d) and (best is None or d < best[0]):
            best = (d, x, z)
    if best is None:
        # nothing targeted fits: a neutral swap out of p's table (a plateau step)
        others = [z for z in g.present[ri] if g.where[ri][z] != g.where[ri][p]]
        rng.shuffle(others)
        for z in others[:40]:
            x = mates[rng.randrange(len(mates))]
            d = g.delta(ri, x, z)
            if d is not None and g.harmless(d) and (best is None or d < best[0]):
                best = (d, x, z)
    return None if best is None else (ri, best[1], best[2])


def _balance_seats(
    g: Grouping,
    unplayed: range,
    orders: list[list[int]],
    base_orders: Sequence[Sequence[int] | None],
    held: tuple[Sequence[int], Sequence[int]],
    lo: Sequence[int],
    hi: Sequence[int],
    pairs: bool,
    s_bound: int,
    rng: random.Random,
    reseat: Reseat,
) -> tuple[list[list[int]], int]:
    """Lower S where the role flows fall short of its bound: one unplayed round at a time, with
    the roles of every other round settled, S is a sum over that round's tables (each entrant
    sits at one), so the tabu search regroups the round with that sum as a cost term after R,
    F and clubs (:meth:`Grouping.set_roles`), and each table then takes its best dealer and
    scorer."""
    n = g.n
    per_round = len(g.tables[unplayed.start])

    def counts(skip: int) -> tuple[list[int], list[int]]:
        dc, sc = list(held[0]), list(held[1])
        for j, order in enumerate(orders):
            if j // per_round != skip:
                dc[order[0]] += 1
                sc[order[0] if pairs else order[2]] += 1
        return dc, sc

    def deviation() -> int:
        dc, sc = counts(-1)
        return sum(
            max(0, lo[e] - dc[e], dc[e] - hi[e]) + max(0, lo[e] - sc[e], sc[e] - hi[e])
            for e in range(n)
        )

    dev = deviation()
    iters = max(30, min(200, 12000 // n))
    for _ in range(4):
        start = dev
        for k, ri in enumerate(unplayed):
            if dev <= s_bound:
                return orders, dev
            dc, sc = counts(k)
            gd = [role_gain(dc[e], lo[e], hi[e]) for e in range(n)]
            gs = [role_gain(sc[e], lo[e], hi[e]) for e in range(n)]
            before = [list(t) for t in g.tables[ri]]
            g.set_roles(ri, gd, gs, pairs)
            g.tabu_search(rng, g.repeats, iters, sample=48, balanced=True)
            g.set_roles(None)
            kept = list(orders)
            for ti, members in enumerate(g.tables[ri]):
                prev = base_orders[k * per_round + ti]
                _, d, s = best_roles(members, gd, gs, pairs, prev)
                orders[k * per_round + ti] = (
                    [d, *(e for e in members if e != d)]
                    if pairs
                    else arrange(members, d, s, prev, rng)
                )
            new_dev = deviation()
            if g.tables[ri] == before and new_dev >= dev:
                orders[:] = kept  # nothing better for this round while the others stay
                continue
            dev = new_dev
            # the role flows over all rounds may hand the other rounds' roles round anew
            flowed, flow_dev, _, _ = reseat(g.snapshot())
            if flow_dev <= dev:
                orders[:], dev = flowed, flow_dev
        if dev >= start:
            break
    return orders, dev


def _start(
    n: int,
    base: dict[int, list[int]],
    sizes: Sequence[int],
    seated: set[int],
    rng: random.Random,
) -> tuple[Tables, list[int]]:
    """First draft of an unplayed round: old seats kept where they exist; returns the tables
    (seat positions meaningful) and each entrant's old table index (-1 if new)."""
    n_home: dict[int, int] = {}
    tables: list[list[int]] = [[-1] * s for s in sizes]
    displaced: list[tuple[int, int]] = []
    for ti in sorted(base):
        for pos, e in enumerate(base[ti]):
            if e not in seated:
                continue
            n_home[e] = ti
            if ti < len(sizes) and pos < sizes[ti]:
                tables[ti][pos] = e
            else:
                displaced.append((e, ti))
    newcomers = sorted(seated - set(n_home))
    rng.shuffle(newcomers)
    rest: list[int] = []
    for e, ti in displaced:
        if ti < len(tables) and -1 in tables[ti]:
            tables[ti][tables[ti].index(-1)] = e
        else:
            rest.append(e)
    rest += newcomers
    holes = [(ti, pos) for ti, t in enumerate(tables) for pos, e in enumerate(t) if e < 0]
    for (ti, pos), e in zip(holes, rest, strict=True):
        tables[ti][pos] = e
    home_list = [-1] * n
    for e, ti in n_home.items():
        home_list[e] = ti
    return tables, home_list


def _to_plan(
    mode: Mode,
    plan: Plan,
    played: int,
    rounds: Sequence[Tables],
    kinds: Sequence[TableKind],
    numbers: Sequence[int],
) -> Plan:
    out = list(plan.rounds[:played])
    for ri in range(played, len(rounds)):
        out.append(
            Round(
                ri + 1,
                tuple(
                    Table(ti + 1, kinds[ti], tuple(numbers[e] for e in t))
                    for ti, t in enumerate(rounds[ri])
                ),
            )
        )
    return Plan(mode, tuple(out))
