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


def replan_optimum(before, played, final):
    """The lexicographic optimum (R, F, S) over every choice of the unplayed rounds of
    ``before`` seating the entrants ``final`` (the played rounds stay)."""
    from pairing import Round, Table
    from pairing.model import SEATS, layout
    from pairing.quality import fair_share, four_table_rounds, meetings, role_counts

    rounds = len(before.rounds)
    kinds = layout(len(final), before.mode)
    sizes = [SEATS[k] for k in kinds]
    fixed = before.rounds[:played]
    met = meetings(fixed)
    f_fixed = four_table_rounds(fixed)
    people = sorted(set(final) | {e for r in fixed for e in r.entrants()})
    unplayed = range(played, rounds)
    tables = range(len(sizes))
    seated = iter(final * len(unplayed))
    shares = fair_share(
        [
            *fixed,
            *(
                Round(
                    r + 1,
                    tuple(
                        Table(t + 1, kinds[t], tuple(next(seated) for _ in range(sizes[t])))
                        for t in tables
                    ),
                )
                for r in unplayed
            ),
        ]
    )
    held = role_counts(fixed)
    everyone_final = set(final)

    def build(limits):
        m = cp_model.CpModel()
        x = {(e, r, t): m.NewBoolVar("") for e in final for r in unplayed for t in tables}
        for e, r in itertools.product(final, unplayed):
            m.AddExactlyOne(x[e, r, t] for t in tables)
        for r, t in itertools.product(unplayed, tables):
            m.Add(sum(x[e, r, t] for e in final) == sizes[t])
        terms = []
        for a, b in itertools.combinations(final, 2):
            base = met.get((min(a, b), max(a, b)), 0)
            together = []
            for r in unplayed:
                y = m.NewBoolVar("")
                for t in tables:
                    m.AddBoolOr([x[a, r, t].Not(), x[b, r, t].Not(), y])
                together.append(y)
            extra = m.NewIntVar(0, rounds, "")
            m.Add(extra >= base + sum(together) - 1)
            terms.append(extra)
        fixed_r = sum(
            v - 1
            for (a, b), v in met.items()
            if v > 1 and not (a in everyone_final and b in everyone_final)
        )
        r_total = sum(terms) + fixed_r
        f_max = m.NewIntVar(0, rounds, "")
        for e in people:
            at_four = (
                [x[e, r, t] for r in unplayed for t in tables if sizes[t] == 4]
                if e in everyone_final
                else []
            )
            m.Add(f_max >= f_fixed.get(e, 0) + sum(at_four))
        deviation = []
        holder = {}
        for role in (0, 1):
            for e in people:
                lo, hi = shares[e]
                mine = []
                if e in everyone_final:
                    for r, t in itertools.product(unplayed, tables):
                        v = m.NewBoolVar("")
                        m.AddImplication(v, x[e, r, t])
                        holder[role, e, r, t] = v
                        mine.append(v)
                count = held[role][e] + sum(mine)
                dev = m.NewIntVar(0, 2 * rounds, "")
                m.Add(dev >= lo - count)
                m.Add(dev >= count - hi)
                deviation.append(dev)
        for r, t in itertools.product(unplayed, tables):
            for role in (0, 1):
                m.AddExactlyOne(holder[role, e, r, t] for e in final)
            for e in final:
                m.AddBoolOr([holder[0, e, r, t].Not(), holder[1, e, r, t].Not()])
        figures = {"R": r_total, "F": f_max, "S": sum(deviation)}
        for name, value in limits.items():
            m.Add(figures[name] == value)
        return m, figures

    best = {}
    for name in "RFS":
        model, figures = build(best)
        model.Minimize(figures[name])
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = 120
        solver.parameters.num_workers = 2
        assert solver.Solve(model) == cp_model.OPTIMAL
        best[name] = round(solver.ObjectiveValue())
    return best


def test_cp_sat_proves_the_re_plans_that_stay_above_a_bound():
    """The optimum listed in pairing_support.OPTIMUM, and the engine reaches it."""
    from pairing import Entrant, Mode, make_plan
    from tests.pairing.pairing_support import OPTIMUM, re_plan

    for (n, played, withdraw, add), optimum in OPTIMUM.items():
        before = make_plan([Entrant(i) for i in range(1, n + 1)], Mode.SINGLES)
        final = sorted((before.rounds[played].entrants() - set(withdraw)) | set(add))
        best = replan_optimum(before, played, final)
        assert {name: best[name] for name in optimum} == optimum
        _, _, quality = re_plan(n, played, withdraw, add)
        figures = quality.to_dict()
        assert {name: figures[name]["value"] for name in "RFS"} == best
