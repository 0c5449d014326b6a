"""Optional: OR-Tools CP-SAT proves the optimum of the small exceptional fields independently
(``pip install .[exact]``). Skipped when ortools is not installed; never on the main path."""

from __future__ import annotations

import itertools

import pytest

cp_model = pytest.importorskip("ortools.sat.python.cp_model")


def solve(n, rounds, max_r=None):
    """Least R (then, with R fixed, least F) for n Einzel entrants over ``rounds`` rounds."""
    fours = n % 3
    sizes = [3] * ((n - 4 * fours) // 3) + [4] * fours
    tables = range(len(sizes))

    def build(fixed_r):
        m = cp_model.CpModel()
        x = {
            (e, r, t): m.NewBoolVar(f"x{e}_{r}_{t}")
            for e in range(n)
            for r in range(rounds)
            for t in tables
        }
        for e, r in itertools.product(range(n), range(rounds)):
            m.AddExactlyOne(x[e, r, t] for t in tables)
        for r, t in itertools.product(range(rounds), tables):
            m.Add(sum(x[e, r, t] for e in range(n)) == sizes[t])
        # symmetry: round 1 is fixed (relabelling entrants changes nothing)
        e = 0
        for t in tables:
            for _ in range(sizes[t]):
                m.Add(x[e, 0, t] == 1)
                e += 1
        repeat_terms = []
        for a, b in itertools.combinations(range(n), 2):
            meet = []
            for r, t in itertools.product(range(rounds), tables):
                y = m.NewBoolVar("")
                m.AddBoolAnd([x[a, r, t], x[b, r, t]]).OnlyEnforceIf(y)
                m.AddBoolOr([x[a, r, t].Not(), x[b, r, t].Not()]).OnlyEnforceIf(y.Not())
                meet.append(y)
            extra = m.NewIntVar(0, rounds, "")
            m.Add(extra >= sum(meet) - 1)
            repeat_terms.append(extra)
        r_total = sum(repeat_terms)
        f = m.NewIntVar(0, rounds, "f")
        for e in range(n):
            m.Add(f >= sum(x[e, r, t] for r in range(rounds) for t in tables if sizes[t] == 4))
        if fixed_r is None:
            m.Minimize(r_total)
        else:
            m.Add(r_total == fixed_r)
            m.Minimize(f)
        return m, f

    model, _ = build(None)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = 60
    solver.parameters.num_workers = 2
    assert solver.Solve(model) == cp_model.OPTIMAL
    best_r = round(solver.ObjectiveValue())
    model, f = build(best_r)
    assert solver.Solve(model) == cp_model.OPTIMAL
    return best_r, round(solver.ObjectiveValue())


@pytest.mark.parametrize("n", [10, 11, 13])
def test_cp_sat_agrees_with_the_planner(n):
    from pairing import Entrant, Mode, check_plan, make_plan

    quality = check_plan(make_plan([Entrant(i) for i in range(1, n + 1)], Mode.SINGLES))
    assert solve(n, 3) == (quality.repeats.value, quality.four_tables.value)
    assert (quality.repeats.bound, quality.four_tables.bound) == solve(n, 3)
