"""Tiny Einzel fields: the plan equals the optimum found by brute force over all plans."""

from __future__ import annotations

import itertools

import pytest

from pairing import Mode, check_plan, make_plan
from tests.pairing.pairing_support import field, most_four_table_rounds, repeats


def partitions(elements, sizes):
    if not elements:
        yield ()
        return
    first, rest = elements[0], elements[1:]
    for size in sorted(set(sizes)):
        left_sizes = list(sizes)
        left_sizes.remove(size)
        for others in itertools.combinations(rest, size - 1):
            block = (first, *others)
            left = tuple(e for e in rest if e not in others)
            for tail in partitions(left, tuple(left_sizes)):
                yield (block, *tail)


def brute_force(n, rounds):
    """Least (R, F) over every plan; round 1 is fixed because relabelling changes nothing."""
    fours = n % 3
    sizes = (3,) * ((n - 4 * fours) // 3) + (4,) * fours
    parts = list(partitions(tuple(range(n)), sizes))
    best = None
    for later in itertools.product(parts, repeat=rounds - 1):
        plan = (parts[0], *later)
        met = {}
        at_four = [0] * n
        for part in plan:
            for block in part:
                for pair in itertools.combinations(sorted(block), 2):
                    met[pair] = met.get(pair, 0) + 1
                if len(block) == 4:
                    for e in block:
                        at_four[e] += 1
        key = (sum(v - 1 for v in met.values()), max(at_four))
        best = key if best is None or key < best else best
    return best


@pytest.mark.parametrize(
    ("n", "rounds"),
    [(n, r) for n in (3, 4, 6, 7, 8) for r in (1, 2, 3)],
)
def test_tiny_fields_are_planned_optimally(n, rounds):
    best = brute_force(n, rounds)
    plan = make_plan(field(n), Mode.SINGLES, rounds)
    assert (repeats(plan), most_four_table_rounds(plan)) == best
    quality = check_plan(plan)
    assert (quality.repeats.bound, quality.four_tables.bound) == best
    assert quality.optimal()


@pytest.mark.parametrize("n", [1, 2, 5])
def test_fields_that_cannot_be_seated_are_refused(n):
    from pairing import PairingError

    with pytest.raises(PairingError) as err:
        make_plan(field(n), Mode.SINGLES)
    assert "außer Konkurrenz" in err.value.errors[0].text("en")
