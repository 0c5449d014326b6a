"""The prize table: places get the prizes in rank order, or the winners choose in rank order
(the desk records each choice; the next to choose is the best-placed winner who has not
chosen yet). Special prizes are awarded on their own, beside the places (a winner of a place
may also win one): the rote Laterne goes to the last place, the Tausender to the entrant
with the highest single game of 1000 points or more, "beste Dame" to the best-placed entrant
of the category Damen."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum


class PrizeMode(StrEnum):
    RANK = "rank"  # places get the prizes in the table's order
    CHOICE = "choice"  # winners choose in rank order


class Special(StrEnum):
    NONE = ""
    LATERNE = "laterne"
    TAUSENDER = "tausender"
    BEST_WOMAN = "best_woman"


TAUSENDER_POINTS = 1000
WOMEN = "damen"


@dataclass(frozen=True)
class Prize:
    id: int
    position: int  # order in the prize table (the best prize first)
    description: str
    value_cents: int = 0
    special: Special = Special.NONE


@dataclass(frozen=True)
class Contender:
    """An entrant of the ranking (ranked, played at least one game), best first."""

    entrant_id: int
    place: int
    best_game: int = 0  # the highest points in one game
    categories: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Award:
    prize: Prize
    entrant_id: int | None  # None: not yet chosen / nobody qualifies
    place: int | None = None


def regular(prizes: Sequence[Prize]) -> list[Prize]:
    return sorted((p for p in prizes if p.special == Special.NONE), key=lambda p: p.position)


def choosers(prizes: Sequence[Prize], ranking: Sequence[Contender]) -> list[Contender]:
    """Who chooses (or gets) a place prize: the first as many entrants as there are prizes."""
    return list(ranking[: len(regular(prizes))])


def next_to_choose(
    prizes: Sequence[Prize], ranking: Sequence[Contender], choices: Mapping[int, int]
) -> Contender | None:
    """The best-placed winner who has not chosen yet (``choices``: prize id → entrant id)."""
    chosen = set(choices.values())
    for contender in choosers(prizes, ranking):
        if contender.entrant_id not in chosen:
            return contender
    return None


def check_choice(
    prizes: Sequence[Prize],
    ranking: Sequence[Contender],
    choices: Mapping[int, int],
    prize_id: int,
    entrant_id: int,
) -> str | None:
    """Why this choice cannot be recorded (a message key), or None: the prize must be a
    place prize not yet taken, and the entrant the one whose turn it is."""
    prize = next((p for p in prizes if p.id == prize_id), None)
    if prize is None or prize.special != Special.NONE:
        return "unknown_prize"
    if prize_id in choices:
        return "taken"
    turn = next_to_choose(prizes, ranking, choices)
    if turn is None:
        return "all_chosen"
    if turn.entrant_id != entrant_id:
        return "not_their_turn"
    return None


def special_winner(special: Special, ranking: Sequence[Contender]) -> Contender | None:
    if not ranking:
        return None
    if special == Special.LATERNE:
        return ranking[-1]
    if special == Special.TAUSENDER:
        best = max(ranking, key=lambda c: (c.best_game, -c.place))
        return best if best.best_game >= TAUSENDER_POINTS else None
    if special == Special.BEST_WOMAN:
        return next((c for c in ranking if WOMEN in c.categories), None)
    return None


def awards(
    prizes: Sequence[Prize],
    ranking: Sequence[Contender],
    mode: PrizeMode,
    choices: Mapping[int, int],
) -> list[Award]:
    """Every prize with its winner: the place prizes (by rank, or as chosen), then the
    special prizes."""
    places = {c.entrant_id: c.place for c in ranking}
    out: list[Award] = []
    places_prizes = regular(prizes)
    if mode == PrizeMode.RANK:
        for prize, contender in zip(places_prizes, ranking, strict=False):
            out.append(Award(prize, contender.entrant_id, contender.place))
        out += [Award(p, None) for p in places_prizes[len(ranking) :]]
    else:
        for prize in places_prizes:
            who = choices.get(prize.id)
            out.append(Award(prize, who, places.get(who) if who is not None else None))
    for prize in sorted(prizes, key=lambda p: p.position):
        if prize.special != Special.NONE:
            winner = special_winner(prize.special, ranking)
            out.append(
                Award(
                    prize, winner.entrant_id if winner else None, winner.place if winner else None
                )
            )
    return out
