"""Quality figures of a plan, each beside a proven lower bound.

Definitions (rounds ρ, tables t, entrants e; an entrant is one player in Einzel, a pair in Paare):

R - repeated meetings: Σ over pairs of entrants of max(0, λ - 1), λ = rounds they share a table.

F - the most rounds any entrant spends at a 4-table with a sitting-out dealer (0 in Paare).

S - seat balance. Every table has one dealer of game 1 (seat 1) and one scorer (seat 3; at a
    pair table the first-named pair deals first and keeps the sheet). Entrant e's fair share of
    each role is q_e = Σ over the rounds e plays of T_ρ / N_ρ (tables / entrants seated in that
    round); for N = 3k over 3 rounds q_e = 1. With d_e, k_e the times e deals first and keeps
    score, S = Σ_e dev(d_e) + dev(k_e), dev(x) = the distance of x from [⌊q_e⌋, ⌈q_e⌉].
    S = 0 means every entrant holds each role ⌊q_e⌋ or ⌈q_e⌉ times; for N = 3k over 3 rounds
    exactly once each, hence (3-tables, three seats) every seat exactly once. Bound: 0 for a
    fresh plan; after a re-plan the roles held in played rounds are fixed, so per role the bound
    is the deviation already sunk plus max(0, U - cap, need - U), where U is the number of
    unplayed tables, cap = Σ_e min(u_e, ⌈q_e⌉ - held_e) the roles entrants can still take
    without exceeding their share and need = Σ_e min(u_e, ⌊q_e⌋ - held_e) the roles they must
    still take (u_e = unplayed rounds of e, held_e = roles held in played rounds).

C - club clashes in round 1: Σ over round-1 tables and clubs of max(0, members of that club at
    the table - 1), i.e. the entrants sitting with an earlier-named club mate. Entrants without a
    club never clash. Bound: the pigeonhole minimum for these club sizes and table sizes
    (:func:`pairing.bounds.pigeonhole_clashes`); if round 1 is already played, its value.
    "C above the pigeonhole minimum" is value - bound. The planner also keeps clashes low in
    later rounds (not part of the figure).

D - re-plans only: the entrants, counted once per unplayed round, that sit in that round in both
    the plan before and the new plan but at another seat (table number, seat position).
    Bound: in each unplayed round, the continuing entrants whose old seat no longer exists in
    the new round's table layout must move.

Bounds of R and F are read lexicographically (see :mod:`pairing.bounds`): F's bound holds for
plans whose R equals R's bound. For plans beyond the standard layout (re-plans: played rounds
fixed, entrants coming and going) the bounds are the counting bounds of :func:`generic_bounds`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .bounds import pigeonhole_clashes, plain_bounds
from .counting import min_shared_pairs
from .errors import N_, FieldError, PairingError
from .model import Entrant, Mode, Plan, Round, TableKind, layout, validate_plan, validate_played


@dataclass(frozen=True)
class Metric:
    value: int
    bound: int

    def to_dict(self) -> dict[str, int]:
        return {"value": self.value, "bound": self.bound}


@dataclass(frozen=True)
class Quality:
    repeats: Metric
    four_tables: Metric
    seat_balance: Metric
    clubs: Metric
    changes: Metric | None = None

    def to_dict(self) -> dict[str, dict[str, int]]:
        out = {
            "R": self.repeats.to_dict(),
            "F": self.four_tables.to_dict(),
            "S": self.seat_balance.to_dict(),
            "C": self.clubs.to_dict(),
        }
        if self.changes is not None:
            out["D"] = self.changes.to_dict()
        return out

    def optimal(self) -> bool:
        metrics = [self.repeats, self.four_tables, self.seat_balance, self.clubs]
        if self.changes is not None:
            metrics.append(self.changes)
        return all(m.value == m.bound for m in metrics)


# -- the figures -------------------------------------------------------------------------------


def meetings(rounds: Iterable[Round]) -> Counter[tuple[int, int]]:
    met: Counter[tuple[int, int]] = Counter()
    for rnd in rounds:
        for t in rnd.tables:
            s = sorted(t.seats)
            for i in range(len(s)):
                for j in range(i + 1, len(s)):
                    met[(s[i], s[j])] += 1
    return met


def repeats(rounds: Iterable[Round]) -> int:
    return sum(v - 1 for v in meetings(rounds).values() if v > 1)


def four_table_rounds(rounds: Iterable[Round]) -> Counter[int]:
    f: Counter[int] = Counter()
    for rnd in rounds:
        for t in rnd.tables:
            if t.kind is TableKind.FOUR_SITOUT:
                f.update(t.seats)
    return f


def fair_share(rounds: Sequence[Round]) -> dict[int, tuple[int, int]]:
    """Each entrant's [⌊q_e⌋, ⌈q_e⌉] for the dealer and the scorer role."""
    q: dict[int, Fraction] = {}
    for rnd in rounds:
        seated = rnd.entrants()
        if not seated:
            continue
        share = Fraction(len(rnd.tables), len(seated))
        for e in seated:
            q[e] = q.get(e, Fraction(0)) + share
    return {e: (math.floor(v), math.ceil(v)) for e, v in q.items()}


def role_counts(rounds: Iterable[Round]) -> tuple[Counter[int], Counter[int]]:
    dealt: Counter[int] = Counter()
    scored: Counter[int] = Counter()
    for rnd in rounds:
        for t in rnd.tables:
            dealt[t.dealer] += 1
            scored[t.scorer] += 1
    return dealt, scored


def _dev(x: int, lo: int, hi: int) -> int:
    return max(0, lo - x, x - hi)


def seat_balance(rounds: Sequence[Round]) -> int:
    shares = fair_share(rounds)
    dealt, scored = role_counts(rounds)
    return sum(_dev(dealt[e], lo, hi) + _dev(scored[e], lo, hi) for e, (lo, hi) in shares.items())


def seat_bound(plan: Plan, played: int) -> int:
    """Lower bound of S given the roles held in rounds 1..played (0 when nothing is played)."""
    if played == 0:
        return 0
    shares = fair_share(plan.rounds)
    rest = plan.rounds[played:]
    unplayed_tables = sum(len(r.tables) for r in rest)
    rounds_in: Counter[int] = Counter()
    for rnd in rest:
        rounds_in.update(rnd.entrants())
    bound = 0
    for held in role_counts(plan.rounds[:played]):
        sunk = cap = need = 0
        for e, (lo, hi) in shares.items():
            h, u = held[e], rounds_in[e]
            sunk += max(0, h - hi) + max(0, lo - h - u)
            cap += min(u, max(0, hi - h))
            need += min(u, max(0, lo - h))
        bound += sunk + max(0, unplayed_tables - cap, need - unplayed_tables)
    return bound


def club_clashes(rnd: Round, clubs: dict[int, str | None]) -> int:
    total = 0
    for t in rnd.tables:
        c = Counter(_club_key(clubs.get(e)) for e in t.seats)
        total += sum(v - 1 for k, v in c.items() if k)
    return total


def _club_key(club: str | None) -> str:
    return club.strip().casefold() if club else ""


def club_bound(rnd: Round, clubs: dict[int, str | None]) -> int:
    sizes = Counter(_club_key(clubs.get(e)) for e in rnd.entrants())
    loose = sizes.pop("", 0)
    return pigeonhole_clashes([*sizes.values(), *([1] * loose)], [len(t.seats) for t in rnd.tables])


def changes(plan: Plan, base: Plan, played: int) -> tuple[int, int]:
    """(D, bound of D) over the rounds after ``played``."""
    value = 0
    bound = 0
    for rnd, old in zip(plan.rounds[played:], base.rounds[played:], strict=False):
        old_seat = {e: (t.number, p) for t in old.tables for p, e in enumerate(t.seats)}
        new_seat = {e: (t.number, p) for t in rnd.tables for p, e in enumerate(t.seats)}
        slots = set(new_seat.values())
        for e, seat in new_seat.items():
            if e in old_seat:
                if old_seat[e] != seat:
                    value += 1
                if old_seat[e] not in slots:
                    bound += 1
    return value, bound


# -- bounds ------------------------------------------------------------------------------------


def plain_size(plan: Plan) -> int | None:
    """N if every round seats the same N entrants in the standard layout, else None."""
    first = plan.rounds[0].entrants()
    n = len(first)
    try:
        kinds = sorted(layout(n, plan.mode))
    except PairingError:
        return None
    for rnd in plan.rounds:
        if rnd.entrants() != first or sorted(t.kind for t in rnd.tables) != kinds:
            return None
    return n


def generic_bounds(plan: Plan, played: int) -> tuple[int, int]:
    """(R, F) lower bounds for any plan with these rounds 1..played and, in later rounds, the
    same entrants at tables of the same sizes.

    R ≥ R(played rounds) + max(M_U - P, ½ Σ_e max(0, m_e - p_e), spread, shared): M_U meetings
    happen in the unplayed rounds, but only P pairs (p_e partners of e) can still meet for the
    first time (present together in an unplayed round, not met yet); entrant e has at least m_e
    meetings there (the smallest table of each of its rounds, less one); for spread and shared
    see :func:`_spread_bound` and :func:`_shared_bound`. F: the 4-table places of the
    unplayed rounds filled from the least-used entrants up (water level), at least F(played);
    if R's bound allows no repeat beyond the played rounds', raised until
    :func:`_strangers_fill_four_tables` holds, and at least 2 if :func:`_four_table_squeeze`
    applies."""
    fixed, rest = plan.rounds[:played], plan.rounds[played:]
    r_fixed = repeats(fixed)
    met = meetings(fixed)
    partners: dict[int, set[int]] = {}
    for a, b in met:
        partners.setdefault(a, set()).add(b)
        partners.setdefault(b, set()).add(a)
    f_fixed = four_table_rounds(fixed)
    r_bound = r_fixed
    f_bound = max(f_fixed.values(), default=0)
    if rest:
        sets = [frozenset(rnd.entrants()) for rnd in rest]
        everyone: set[int] = set().union(*sets)
        fresh: dict[int, int] = {}
        if len(set(sets)) == 1:
            group = sets[0]
            for e in group:
                fresh[e] = len(group) - 1 - len(partners.get(e, set()) & group)
        else:
            for e in everyone:
                co = set().union(*(s for s in sets if e in s)) - {e}
                fresh[e] = len(co - partners.get(e, set()))
        m_min: Counter[int] = Counter()
        m_total = 0
        slots = 0
        rounds_in: Counter[int] = Counter()
        for rnd in rest:
            smallest = min(len(t.seats) for t in rnd.tables) - 1
            for t in rnd.tables:
                k = len(t.seats)
                m_total += k * (k - 1) // 2
                if t.kind is TableKind.FOUR_SITOUT:
                    slots += k
            for e in rnd.entrants():
                m_min[e] += smallest
                rounds_in[e] += 1
        pair_room = sum(fresh.values()) // 2
        per_entrant = sum(max(0, m_min[e] - fresh[e]) for e in everyone)
        r_bound += max(
            0,
            m_total - pair_room,
            (per_entrant + 1) // 2,
            _spread_bound(fixed, rest, met),
            _shared_bound(rest),
        )
        level = f_bound
        while sum(min(rounds_in[e], max(0, level - f_fixed[e])) for e in everyone) < slots:
            level += 1
        if r_bound == r_fixed:  # no new repeat: 4-tables of strangers
            top = max((f_fixed[e] + rounds_in[e] for e in everyone), default=0)
            while level < top and not _strangers_fill_four_tables(fixed, rest, f_fixed, level):
                level += 1
        f_bound = level
        if r_bound == r_fixed and f_bound < 2 and _four_table_squeeze(plan.rounds, played):
            f_bound = 2
    return r_bound, f_bound


def _spread_bound(
    fixed: Sequence[Round], rest: Sequence[Round], met: Counter[tuple[int, int]]
) -> int:
    """Members of a played table who sit in an unplayed round with T tables: k of them
    share at least the pairs of k spread evenly over T tables, and each such meeting is a
    repeat. A pair counted at several played tables is counted that often, so the sum is
    divided by the most times a pair met in the played rounds."""
    if not fixed or not rest:
        return 0
    total = 0
    for rnd in rest:
        seated = rnd.entrants()
        tables = len(rnd.tables)
        for old in fixed:
            for t in old.tables:
                k = sum(1 for e in t.seats if e in seated)
                q, extra = divmod(k, tables)
                total += extra * (q + 1) * q // 2 + (tables - extra) * q * (q - 1) // 2
    most = max(met.values(), default=1)
    return -(-total // most)


def _shared_bound(rest: Sequence[Round]) -> int:
    """u unplayed rounds with the same entrants and table sizes share at least x pairs per
    two rounds (:func:`pairing.counting.min_shared_pairs`), which adds at least (u - 1)·x to R
    (the argument of :mod:`pairing.bounds`)."""
    groups: Counter[tuple[frozenset[int], tuple[int, ...]]] = Counter()
    for rnd in rest:
        groups[(frozenset(rnd.entrants()), tuple(sorted(len(t.seats) for t in rnd.tables)))] += 1
    best = 0
    for (_, sizes), u in groups.items():
        if u >= 2:
            best = max(best, (u - 1) * min_shared_pairs(sizes, sizes))
    return best


def _strangers_fill_four_tables(
    fixed: Sequence[Round], rest: Sequence[Round], f_fixed: Counter[int], level: int
) -> bool:
    """Whether F = ``level`` leaves, in every unplayed round, enough entrants who have not met
    to fill its 4-tables without a repeat: only entrants with fewer than ``level`` 4-table rounds
    so far may sit at one, the members of one 4-table must come from different tables of every
    played round, so a played table gives at most one member to each of the b 4-tables of the
    round: Σ over played tables of min(b, its eligible entrants) must reach 4·b."""
    for rnd in rest:
        b = sum(1 for t in rnd.tables if t.kind is TableKind.FOUR_SITOUT)
        if not b:
            continue
        eligible = {e for e in rnd.entrants() if f_fixed[e] < level}
        for old in fixed:
            at_old = 0
            room = 0
            for t in old.tables:
                k = sum(1 for e in t.seats if e in eligible)
                at_old += k
                room += min(b, k)
            room += len(eligible) - at_old  # not seated then: met nobody at that round
            if room < 4 * b:
                return False
    return True


def _four_table_squeeze(rounds: Sequence[Round], played: int) -> bool:
    """Without repeats, the four members of a 4-table sit at four different tables in any
    other round; if an unplayed round seating all four has fewer than four 3-tables, one of
    them sits at a 4-table again (F ≥ 2)."""
    for rj in range(played, len(rounds)):
        other = rounds[rj]
        if sum(1 for t in other.tables if t.kind is TableKind.THREE) >= 4:
            continue
        seated = other.entrants()
        for ri, rnd in enumerate(rounds):
            if ri == rj:
                continue
            for t in rnd.tables:
                if t.kind is not TableKind.FOUR_SITOUT:
                    continue
                if set(t.seats) <= seated if ri < played else rnd.entrants() == seated:
                    return True
    return False


def clubs_by_round(
    plan: Plan, entrants: Sequence[Entrant] | None = None, played: int = 0
) -> tuple[Metric, ...]:
    """The club figure C of every round, round 1 first (C of :func:`check_plan` is round 1's):
    each round's clashes beside the pigeonhole minimum for its club and table sizes, or —
    for rounds 1..``played``, which can no longer change — beside its own value."""
    validate_plan(plan)
    validate_played(played, len(plan.rounds))
    clubs = {e.start_number: e.club for e in entrants or ()}
    figures = []
    for index, rnd in enumerate(plan.rounds):
        value = club_clashes(rnd, clubs)
        figures.append(Metric(value, value if index < played else club_bound(rnd, clubs)))
    return tuple(figures)


def check_plan(
    plan: Plan,
    entrants: Sequence[Entrant] | None = None,
    base: Plan | None = None,
    played: int = 0,
) -> Quality:
    """Measure a plan. ``entrants`` supplies clubs (numbers missing there have no club);
    ``base`` is the plan before a re-plan and ``played`` the rounds kept from it (for D)."""
    validate_plan(plan)
    if base is not None:
        validate_plan(base)
        if base.mode is not plan.mode:
            raise PairingError(
                [FieldError.of("base", N_("The plan before the re-plan has another mode."))]
            )
    validate_played(played, len(plan.rounds))
    clubs = {e.start_number: e.club for e in entrants or ()}
    r_value = repeats(plan.rounds)
    f_value = max(four_table_rounds(plan.rounds).values(), default=0)
    s_value = seat_balance(plan.rounds)
    c_value = club_clashes(plan.rounds[0], clubs)
    c_bound = c_value if played >= 1 else club_bound(plan.rounds[0], clubs)

    r_bound, f_bound = generic_bounds(plan, played)
    n = plain_size(plan)
    if n is not None:
        plain_r, plain_f = plain_bounds(plan.mode, n, len(plan.rounds))
        if plain_r >= r_bound:
            f_bound = max(f_bound, plain_f)
        r_bound = max(r_bound, plain_r)
    changed = None
    if base is not None:
        d_value, d_bound = changes(plan, base, played)
        changed = Metric(d_value, d_bound)
    if plan.mode is Mode.PAIRS:
        f_bound = 0
    return Quality(
        Metric(r_value, r_bound),
        Metric(f_value, f_bound),
        Metric(s_value, seat_bound(plan, played)),
        Metric(c_value, c_bound),
        changed,
    )
