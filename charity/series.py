"""A series (cup) over several tournaments: players are matched across the evenings by the
player register; each evening gives a player a value — their points, or cup points for
their place from a table — and the series counts all values or only the best n; optionally
only players present at every evening are ranked (the others are listed after them,
without a place). Equal totals share a place."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

# a common cup table: 1st 25, 2nd 20, 3rd 16, 4th 13, 5th 11, then 10 down to 1
DEFAULT_CUP_POINTS = (25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)


class SeriesMethod(StrEnum):
    POINTS = "points"  # the tournament points
    CUP = "cup"  # cup points for the place


@dataclass(frozen=True)
class SeriesRule:
    method: SeriesMethod = SeriesMethod.POINTS
    best: int = 0  # count the best n evenings (0: all)
    cup_points: tuple[int, ...] = DEFAULT_CUP_POINTS
    require_all: bool = False

    def value(self, place: int | None, total: int) -> int:
        if self.method == SeriesMethod.CUP:
            if place is None or place < 1 or place > len(self.cup_points):
                return 0
            return self.cup_points[place - 1]
        return total


@dataclass(frozen=True)
class EveningResult:
    player: Hashable  # the register's key of the player (or pair of players)
    place: int | None  # None: not ranked that evening ("außer Konkurrenz")
    total: int


@dataclass
class SeriesRow:
    player: Hashable
    values: list[int | None]  # per tournament; None: not there
    counted: list[bool]
    total: int = 0
    place: int | None = None
    complete: bool = False  # present at every evening
    shared: bool = field(default=False)


def series_ranking(
    evenings: Sequence[Sequence[EveningResult]], rule: SeriesRule
) -> list[SeriesRow]:
    rows: dict[Hashable, SeriesRow] = {}
    n = len(evenings)
    for index, results in enumerate(evenings):
        for r in results:
            row = rows.get(r.player)
            if row is None:
                row = rows[r.player] = SeriesRow(r.player, [None] * n, [False] * n)
            row.values[index] = rule.value(r.place, r.total)
    for row in rows.values():
        present = [(v, i) for i, v in enumerate(row.values) if v is not None]
        row.complete = len(present) == n
        chosen = sorted(present, key=lambda item: (-item[0], item[1]))
        if rule.best > 0:
            chosen = chosen[: rule.best]
        for _value, i in chosen:
            row.counted[i] = True
        row.total = sum(v for v, _i in chosen)
    eligible = [r for r in rows.values() if r.complete or not rule.require_all]
    others = [r for r in rows.values() if not (r.complete or not rule.require_all)]
    eligible.sort(key=lambda r: (-r.total, -sum(1 for v in r.values if v is not None)))
    for i, row in enumerate(eligible):
        if i and eligible[i - 1].total == row.total:
            row.place = eligible[i - 1].place
            row.shared = eligible[i - 1].shared = True
        else:
            row.place = i + 1
    others.sort(key=lambda r: -r.total)
    return eligible + others
