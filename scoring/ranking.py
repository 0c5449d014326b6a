"""Places in a ranking (ejl rule 2 and the decisions of docs/rules.md "Ranking"): order by the
total, then by the rule set's tie-breaks in their order; equal on all of them is a shared place
("3. ="). An entrant out of competition ("außer Konkurrenz") gets no place. The desk's standings
and the result file's checker both place entrants here.

The tie-breaks' values are the caller's: the desk sums them in SQL from the stored games, the
checker from the games in the file (``TIE_BREAK_VALUES`` says what each key means)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from scoring.rules import TIE_BREAKS

# What each tie-break key (``RuleSet.tie_breaks``) counts; higher is better for all of them.
TIE_BREAK_VALUES: Mapping[str, str] = {
    "declarer_wins": "games won as declarer",
    "best_round": "the points of the entrant's best single round",
}
assert set(TIE_BREAK_VALUES) == set(TIE_BREAKS)


@dataclass(frozen=True)
class Entry:
    """One entrant to place: ``values`` are the total first, then each tie-break's value."""

    key: Hashable
    start_number: int
    values: tuple[int, ...]
    unranked: bool = False


@dataclass(frozen=True)
class Place:
    place: int | None  # None: out of competition
    shared: bool = False

    @property
    def label(self) -> str:
        if self.place is None:
            return ""
        return f"{self.place}. =" if self.shared else f"{self.place}."


def places(
    entries: Sequence[Entry], higher_is_better: Sequence[bool] | None = None
) -> list[tuple[Entry, Place]]:
    """The entries in ranking order with their places: the ranked ones by their values (each
    higher first unless ``higher_is_better`` says otherwise), equal values sharing a place,
    then the unranked ones by total without a place. Equal entrants are listed by start
    number."""

    def sort_key(entry: Entry) -> tuple[int, ...]:
        better = higher_is_better or [True] * len(entry.values)
        return tuple(-v if up else v for v, up in zip(entry.values, better, strict=True))

    ranked = sorted(
        (e for e in entries if not e.unranked), key=lambda e: (sort_key(e), e.start_number)
    )
    keys = [sort_key(e) for e in ranked]
    count = Counter(keys)
    first_of: dict[tuple[int, ...], int] = {}
    out: list[tuple[Entry, Place]] = []
    for index, (entry, key) in enumerate(zip(ranked, keys, strict=True), start=1):
        place = first_of.setdefault(key, index)
        out.append((entry, Place(place, count[key] > 1)))
    unranked = sorted(
        (e for e in entries if e.unranked),
        key=lambda e: (-(e.values[0] if e.values else 0), e.start_number),
    )
    out.extend((e, Place(None)) for e in unranked)
    return out
