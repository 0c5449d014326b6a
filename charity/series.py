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


@dataclass(frozen=True)
class Record:
    """One player's figure of the season (those tied for it are all listed)."""

    player: Hashable
    value: float  # evenings, an average place, or points
    evening: int | None = None  # the evening of a single-evening record (0-based)


@dataclass(frozen=True)
class SeasonFigures:
    """What real cups award beside their ranking: most evenings played, the best and the
    worst average place ("Pechvogel", both among those with at least ``min_evenings`` placed
    evenings), the best single evening (the highest total)."""

    most_evenings: tuple[Record, ...] = ()
    best_average: tuple[Record, ...] = ()
    pechvogel: tuple[Record, ...] = ()
    best_evening: tuple[Record, ...] = ()
    min_evenings: int = 1


def _best(records: Sequence[Record], highest: bool) -> tuple[Record, ...]:
    if not records:
        return ()
    target = max(r.value for r in records) if highest else min(r.value for r in records)
    return tuple(r for r in records if r.value == target)


def season_figures(
    evenings: Sequence[Sequence[EveningResult]], min_evenings: int = 2
) -> SeasonFigures:
    """The season's figures from the evenings' results (as ``series_ranking`` takes them).
    Averages count only the evenings a player was placed (not "außer Konkurrenz")."""
    played: dict[Hashable, int] = {}
    placed: dict[Hashable, list[int]] = {}
    singles: list[Record] = []
    for index, results in enumerate(evenings):
        for r in results:
            played[r.player] = played.get(r.player, 0) + 1
            if r.place is not None:
                placed.setdefault(r.player, []).append(r.place)
            singles.append(Record(r.player, r.total, index))
    floor = max(1, min_evenings)
    averages = [
        Record(player, round(sum(places) / len(places), 2))
        for player, places in placed.items()
        if len(places) >= floor
    ]
    return SeasonFigures(
        most_evenings=_best([Record(p, n) for p, n in played.items()], highest=True),
        best_average=_best(averages, highest=False),
        pechvogel=_best(averages, highest=True) if len(averages) > 1 else (),
        best_evening=_best(singles, highest=True),
        min_evenings=floor,
    )
