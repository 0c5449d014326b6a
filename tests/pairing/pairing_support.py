"""Independent checks for pairing tests: recomputed here, not taken from the engine."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable

from pairing import Entrant, Mode, Plan, TableKind, check_plan, make_plan, replan


def field(n: int, clubs: Iterable[str | None] | None = None) -> list[Entrant]:
    names = list(clubs) if clubs is not None else [None] * n
    return [Entrant(i + 1, names[i]) for i in range(n)]


def known_best(n: int) -> tuple[int, int | None]:
    """(R, F) for 3 rounds of Einzel as stated in issue 3 (F None: not stated there)."""
    if n % 3 == 0 and n >= 9:
        return 0, 0
    if n == 10:
        return 2, 3  # "R 2 (with F 3) or R 3 (with F 2)": R is compared first
    if n == 11:
        return 4, None
    if n in (13, 14, 17, 20, 23):
        return 0, 2
    if (n % 3 == 1 and n >= 16) or (n % 3 == 2 and n >= 26):
        return 0, 1
    raise ValueError(f"issue 3 states no value for N = {n}")


def assert_seated(plan: Plan, numbers: Iterable[int], rounds: int, first: int = 1) -> None:
    """Every entrant exactly once per round, tables numbered 1..T, the right table kinds
    (``first``: the number of the plan's first round, for the unplayed part of a re-plan)."""
    expected = sorted(numbers)
    n = len(expected)
    assert len(plan.rounds) == rounds
    for i, rnd in enumerate(plan.rounds, start=first):
        assert rnd.number == i
        assert [t.number for t in rnd.tables] == list(range(1, len(rnd.tables) + 1))
        seated = [s for t in rnd.tables for s in t.seats]
        assert sorted(seated) == expected, f"round {i} does not seat everyone exactly once"
        kinds = Counter(t.kind for t in rnd.tables)
        if plan.mode is Mode.PAIRS:
            assert set(kinds) == {TableKind.PAIRS}
            assert all(len(t.seats) == 2 for t in rnd.tables)
        else:
            assert kinds[TableKind.FOUR_SITOUT] == n % 3
            for t in rnd.tables:
                assert len(t.seats) == (4 if t.kind is TableKind.FOUR_SITOUT else 3)
            # 4-tables come last
            ordered = [t.kind is TableKind.FOUR_SITOUT for t in rnd.tables]
            assert ordered == sorted(ordered)


def repeats(plan: Plan) -> int:
    met: Counter[frozenset[int]] = Counter()
    for rnd in plan.rounds:
        for t in rnd.tables:
            met.update(frozenset(p) for p in itertools.combinations(t.seats, 2))
    return sum(v - 1 for v in met.values())


def most_four_table_rounds(plan: Plan) -> int:
    f: Counter[int] = Counter()
    for rnd in plan.rounds:
        for t in rnd.tables:
            if t.kind is TableKind.FOUR_SITOUT:
                f.update(t.seats)
    return max(f.values(), default=0)


def seat_positions(plan: Plan) -> dict[int, Counter[int]]:
    """start number -> Counter of seat positions (1-based) over all rounds."""
    out: dict[int, Counter[int]] = {}
    for rnd in plan.rounds:
        for t in rnd.tables:
            for pos, e in enumerate(t.seats, start=1):
                out.setdefault(e, Counter())[pos] += 1
    return out


def first_and_scorer(plan: Plan) -> tuple[Counter[int], Counter[int]]:
    """How often each entrant deals game 1 and keeps the sheet (docs/rules.md "Tables": the
    first-named deals, the third-named keeps score; at a pair table the first pair does both)."""
    first: Counter[int] = Counter()
    scorer: Counter[int] = Counter()
    for rnd in plan.rounds:
        for t in rnd.tables:
            first[t.seats[0]] += 1
            scorer[t.seats[0] if t.kind is TableKind.PAIRS else t.seats[2]] += 1
    return first, scorer


# The cases of test_pairing_replan_bounds' sample where no plan reaches the counting bounds:
# their true optimum, proved by CP-SAT in test_pairing_exact_cpsat.
OPTIMUM: dict[tuple[int, int, tuple, tuple], dict[str, int]] = {
    (9, 1, (2, 4, 6), ()): {"R": 5},
    (9, 1, (1, 3), ()): {"R": 4},
    (11, 1, (3, 4, 7, 10), ()): {"R": 4, "F": 3},
    (11, 1, (4, 8, 9, 10), (12,)): {"R": 6},
    (11, 2, (11,), (12, 13, 14)): {"F": 3},
    (25, 2, (11, 21, 23), (26, 27)): {"S": 1},
}


def re_plan(n, played, withdraw, add, seed=0):
    people = field(n)
    before = make_plan(people, Mode.SINGLES, 3, seed)
    arrivals = [Entrant(a) for a in add]
    after = replan(before, played, people, withdraw=withdraw, add=arrivals, seed=seed)
    return before, after, check_plan(after, people + arrivals, base=before, played=played)
