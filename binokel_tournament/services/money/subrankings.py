"""Sub-rankings from the same standings, the bridge to ``charity.rankings``: each category's
own places (Damen, Jugend, Senioren, Gäste) and the club ranking (the sum of a club's best k
entrants, k a tournament setting)."""

from __future__ import annotations

from dataclasses import dataclass

from charity.rankings import ClubPlace, Ranked, SubPlace, category_ranking, club_ranking

from ...models import Category, Competition, Entrant
from ..evening.standings import StandingRow, Standings, compute_standings


@dataclass(frozen=True)
class CategoryRow:
    place: SubPlace
    row: StandingRow

    @property
    def place_label(self) -> str:
        return f"{self.place.place}." + (" =" if self.place.shared else "")


@dataclass(frozen=True)
class CategoryStandings:
    category: str
    label: str
    rows: list[CategoryRow]


@dataclass(frozen=True)
class ClubRow:
    place: ClubPlace
    counted: list[Entrant]


@dataclass
class SubRankings:
    standings: Standings
    categories: list[CategoryStandings]  # only categories somebody belongs to
    clubs: list[ClubRow]
    club_best: int


def ranked(standings: Standings) -> list[Ranked]:
    return [
        Ranked(
            r.entrant.pk,
            r.place,
            r.total,
            r.entrant.club,
            frozenset(r.entrant.categories or []),
        )
        for r in standings.rows
        if r.place is not None and r.games > 0
    ]


def sub_rankings(
    competition: Competition, after_round: int | None = None, standings: Standings | None = None
) -> SubRankings:
    """The categories' and clubs' rankings of a competition, from its standings (computed
    here unless the caller has them already)."""
    if standings is None:
        standings = compute_standings(competition, after_round)
    rows = {r.entrant.pk: r for r in standings.rows}
    ranking = ranked(standings)
    categories = []
    for value, label in Category.choices:
        places = category_ranking(ranking, value)
        if places:
            categories.append(
                CategoryStandings(
                    value, str(label), [CategoryRow(p, rows[p.entrant_id]) for p in places]
                )
            )
    best = competition.tournament.club_best
    clubs = (
        [
            ClubRow(place, [rows[pk].entrant for pk in place.counted])
            for place in club_ranking(ranking, best)
        ]
        if best
        else []
    )
    return SubRankings(standings, categories, clubs, best)
