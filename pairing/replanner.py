"""Re-planning the unplayed rounds after withdrawals and late arrivals.

Rounds 1..played are copied unchanged. Every later round starts from the plan before: continuing
entrants keep their seat (table number, position) wherever it still exists in the new table
layout; entrants whose seat vanished and late arrivals fill the free seats (first at their old
table). The figures are then improved in the order of issue 3 - R, F, S, C, D:

1. the tabu search of :mod:`pairing.search` swaps entrants within the unplayed rounds to reach
   the lower bound of R over *all* rounds, preferring (in this order) fewer 4-table rounds above
   the F bound, fewer club clashes in round 1 if it is unplayed, entrants at their old table;
2. seat orders balance S with the role flows of :mod:`pairing.seats`, old roles first. Played
   rounds fix roles already held, so the flows may fall short of S's bound; then swaps that cost
   nothing in R, F and C are tried (targeted at the entrants off their share) and kept when S
   drops, at first only swaps that move nobody away from an old table;
3. a clean-up sends entrants back to their old table where S stays as good (D).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from .bounds import plain_bounds
from .clubs import club_ids
from .errors import N_, FieldError, PairingError
from .model import (
    Entrant,
    Mode,
    Plan,
    Round,
    Table,
    TableKind,
    layout,
    validate_entrant_count,
    validate_entrants,
    validate_plan,
)
from .quality import fair_share, generic_bounds, plain_size, seat_bound
from .search import Grouping, Tables
from .seats import seat_orders


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
    total = len(plan.rounds)
    if isinstance(played, bool) or not isinstance(played, int) or not 0 <= played <= total:
        raise PairingError(
            [
                FieldError.of(
                    "played",
                    N_("The number of played rounds must be between 0 and {maximum}."),
                    maximum=total,
                )
            ]
        )
    validate_entrants(entrants)
    added = list(add)
    validate_entrants(added, "add")
    gone = _numbers(withdraw)
    known = {e.start_number for e in entrants} | {n for r in plan.rounds for n in r.entrants()}
    errors = [
        FieldError.of(
            "withdraw", N_("Start number {value} is not an entrant of this plan."), value=number
        )
        for number in sorted(gone - known)
    ]
    errors += [
        FieldError.of(
            "add",
            N_("Start number {value} cannot both withdraw and be added."),
            value=e.start_number,
        )
        for e in added
        if e.start_number in gone
    ]
    if errors:
        raise PairingError(errors)
    if played == total:
        current = plan.rounds[-1].entrants()
        if (gone & current) or any(e.start_number not in current for e in added):
            raise PairingError(
                [FieldError.of("played", N_("All rounds are played: there is nothing to re-plan."))]
            )
        return plan
    current = plan.rounds[played].entrants()
    final = sorted((current - gone) | {e.start_number for e in added})
    validate_entrant_count(len(final), plan.mode)
    club_of: dict[int, str | None] = {e.start_number: e.club for e in entrants}
    for e in added:
        if e.club or e.start_number not in club_of:
            club_of[e.start_number] = e.club
    return _replan(plan, played, final, club_of, seed)


def _numbers(values: Iterable[int]) -> set[int]:
    out: set[int] = set()
    bad: list[FieldError] = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int):
            bad.append(FieldError.of("withdraw", N_("{value} is not a whole number."), value=v))
        else:
            out.add(v)
    if bad:
        raise PairingError(bad)
    return out


def _replan(
    plan: Plan, played: int, final: list[int], club_of: dict[int, str | None], seed: int
) -> Plan:
    mode = plan.mode
    numbers = sorted({n for r in plan.rounds for n in r.entrants()} | set(final))
    index = {num: i for i, num in enumerate(numbers)}
    n = len(numbers)
    rng = random.Random(f"pairing-replan:{seed}:{played}:{','.join(map(str, final))}")
    kinds = layout(len(final), mode)
    sizes = [len_of(k) for k in kinds]
    final_set = set(final)

    rounds: list[Tables] = []
    fours: list[list[bool]] = []
    homes: list[list[int]] = []
    bases: list[dict[int, list[int]]] = []
    for ri, rnd in enumerate(plan.rounds):
        if ri < played:
            rounds.append([[index[s] for s in t.seats] for t in rnd.tables])
            fours.append([t.kind is TableKind.FOUR_SITOUT for t in rnd.tables])
            homes.append([-1] * n)
            bases.append({})
            continue
        base = {t.number - 1: [index[s] for s in t.seats] for t in rnd.tables}
        tables, home = _start(n, base, sizes, {index[f] for f in final_set}, rng)
        rounds.append(tables)
        fours.append([k is TableKind.FOUR_SITOUT for k in kinds])
        homes.append(home)
        bases.append(base)

    clubs = club_ids([club_of.get(num) for num in numbers])
    provisional = _to_plan(mode, plan, played, rounds, kinds, numbers)
    r_target, f_target = generic_bounds(provisional, played)
    size = plain_size(provisional)
    if size is not None and played == 0:
        plain_r, plain_f = plain_bounds(mode, size, len(plan.rounds))
        if plain_r >= r_target:
            f_target = max(f_target, plain_f)
        r_target = max(r_target, plain_r)
    g = Grouping(
        n,
        rounds,
        fours,
        fixed=[ri < played for ri in range(len(rounds))],
        f_cap=f_target,
        clubs=clubs if any(c >= 0 for c in clubs) and played == 0 else None,
        club_round=0,
        home=homes,
    )
    g.tabu_search(rng, r_target, 2000 + 20 * n)
    g.improve(rng)

    # seat orders: roles balanced over all rounds, old positions kept where possible
    shares = fair_share(_to_plan(mode, plan, played, g.snapshot(), kinds, numbers).rounds)
    lo = [shares.get(num, (0, 0))[0] for num in numbers]
    hi = [shares.get(num, (0, 0))[1] for num in numbers]
    dealt = [0] * n
    scored = [0] * n
    for rnd in plan.rounds[:played]:
        for t in rnd.tables:
            dealt[index[t.dealer]] += 1
            scored[index[t.scorer]] += 1
    unplayed = range(played, len(rounds))
    base_orders: list[Sequence[int] | None] = [
        bases[ri].get(ti) for ri in unplayed for ti in range(len(sizes))
    ]
    pairs = mode is Mode.PAIRS

    def seat(grouped: list[Tables]) -> tuple[list[list[int]], int, list[int], list[int]]:
        """Seat orders for a grouping, the better of two greedy orders: (S, moved seats)."""
        free = [t for ri in unplayed for t in grouped[ri]]
        best: tuple[int, int, list[list[int]], list[int], list[int]] | None = None
        for keep_first in (True, False):
            orders = seat_orders(
                n, free, pairs, lo, hi, dealt, scored, random.Random(seed), base_orders, keep_first
            )
            d, k = list(dealt), list(scored)
            for order in orders:
                d[order[0]] += 1
                k[order[0] if pairs else order[2]] += 1
            dev = sum(
                max(0, lo[e] - d[e], d[e] - hi[e]) + max(0, lo[e] - k[e], k[e] - hi[e])
                for e in range(n)
            )
            moved = sum(
                1
                for order, old in zip(orders, base_orders, strict=True)
                if old is not None
                for pos, e in enumerate(order)
                if e in old and old.index(e) != pos
            )
            if best is None or (dev, moved) < best[:2]:
                best = (dev, moved, orders, d, k)
            if dev <= s_bound:
                break
        assert best is not None
        return best[2], best[0], best[3], best[4]

    s_bound = seat_bound(_to_plan(mode, plan, played, g.snapshot(), kinds, numbers), played)
    orders, dev, d, k = seat(g.snapshot())
    per_round = len(sizes)
    # plateau walk over R/F/C-neutral swaps; keep the best seating found (the first of equals)
    best = (dev, g.snapshot(), orders)
    tries = max(30, min(300, 20000 // n))
    for attempt in range(tries):
        if best[0] <= s_bound:
            break
        move = _seat_move(g, rng, unplayed, orders, per_round, d, k, lo, hi, pairs)
        if move is None:
            continue
        ri, x, z = move
        cost = g.delta(ri, x, z)
        assert cost is not None
        g.swap(ri, x, z)
        new_orders, new_dev, new_d, new_k = seat(g.snapshot())
        # plateau steps move nobody from the old table in the first half of the budget
        if new_dev < dev or (new_dev == dev and (cost <= 0 or 2 * attempt >= tries)):
            orders, dev, d, k = new_orders, new_dev, new_d, new_k
            if dev < best[0]:
                best = (dev, g.snapshot(), orders)
        else:
            g.swap(ri, x, z)
    if dev > best[0] or g.snapshot() != best[1]:
        g.restore(best[1])
        orders = best[2]
        dev = best[0]
    # clean-up: send entrants back to their old table where that keeps S
    old_table = g.home
    assert old_table is not None
    budget = max(20, min(120, 6000 // n))
    for ri in unplayed:
        for e in list(g.present[ri]):
            if budget <= 0:
                break
            target = old_table[ri][e]
            if target < 0 or target >= len(sizes) or g.where[ri][e] == target:
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
    grouped = g.snapshot()
    at = 0
    for ri in unplayed:
        grouped[ri] = orders[at : at + len(grouped[ri])]
        at += len(grouped[ri])
    return _to_plan(mode, plan, played, grouped, kinds, numbers)


def _seat_move(
    g: Grouping,
    rng: random.Random,
    unplayed: range,
    orders: list[list[int]],
    per_round: int,
    dealt: list[int],
    scored: list[int],
    lo: list[int],
    hi: list[int],
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
        if d is not None and d < g.w1 and (best is None or d < best[0]):
            best = (d, x, z)
    if best is None:
        # nothing targeted fits: a neutral swap out of p's table (a plateau step)
        others = [z for z in g.present[ri] if g.where[ri][z] != g.where[ri][p]]
        rng.shuffle(others)
        for z in others[:40]:
            x = mates[rng.randrange(len(mates))]
            d = g.delta(ri, x, z)
            if d is not None and d < g.w1 and (best is None or d < best[0]):
                best = (d, x, z)
    return None if best is None else (ri, best[1], best[2])


def len_of(kind: TableKind) -> int:
    return {TableKind.THREE: 3, TableKind.FOUR_SITOUT: 4, TableKind.PAIRS: 2}[kind]


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
