"""Sub-rankings from the same ranking: a category's own places (Damen, Jugend, Senioren,
Gäste) and the club ranking (the sum of a club's best k entrants)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

CATEGORIES = ("damen", "jugend", "senioren", "gaeste")


@dataclass(frozen=True)
class Ranked:
    """One ranked entrant of the overall ranking, best first (``place`` may be shared)."""

    entrant_id: int
    place: int
    total: int
    club: str = ""
    categories: frozenset[str] = frozenset()


@dataclass(frozen=True)
class SubPlace:
    entrant_id: int
    place: int
    shared: bool
    overall: int
    total: int


def category_ranking(ranking: Sequence[Ranked], category: str) -> list[SubPlace]:
    """The entrants of one category in the overall order, placed 1, 2, …; entrants who share
    an overall place share their place here too."""
    members = [r for r in ranking if category in r.categories]
    out: list[SubPlace] = []
    for index, r in enumerate(members):
        if index and members[index - 1].place == r.place:
            previous = out[-1]
            out[-1] = SubPlace(
                previous.entrant_id, previous.place, True, previous.overall, previous.total
            )
            out.append(SubPlace(r.entrant_id, previous.place, True, r.place, r.total))
        else:
            out.append(SubPlace(r.entrant_id, index + 1, False, r.place, r.total))
    return out


@dataclass(frozen=True)
class ClubPlace:
    club: str
    place: int | None  # None: fewer than k entrants, not ranked
    total: int  # the sum of the counted entrants
    counted: tuple[int, ...]  # entrant ids whose points count, best first
    members: int


def club_ranking(ranking: Sequence[Ranked], best: int) -> list[ClubPlace]:
    """Clubs by the sum of their best ``best`` entrants. A club with fewer entrants is listed
    after the ranked clubs, without a place; equal sums share a place. Entrants without a
    club are not a club."""
    by_club: dict[str, list[Ranked]] = defaultdict(list)
    for r in ranking:
        if r.club.strip():
            by_club[r.club.strip()].append(r)
    rows = []
    for club, members in by_club.items():
        top = sorted(members, key=lambda r: (-r.total, r.place))[:best]
        rows.append((club, sum(r.total for r in top), tuple(r.entrant_id for r in top), members))
    full = sorted((r for r in rows if len(r[3]) >= best), key=lambda r: (-r[1], r[0]))
    short = sorted((r for r in rows if len(r[3]) < best), key=lambda r: (-r[1], r[0]))
    out: list[ClubPlace] = []
    for index, (club, total, counted, members) in enumerate(full):
        place = index + 1
        if out and out[-1].total == total:
            place = out[-1].place or place
        out.append(ClubPlace(club, place, total, counted, len(members)))
    out += [ClubPlace(club, None, total, counted, len(m)) for club, total, counted, m in short]
    return out
