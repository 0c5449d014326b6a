"""The prize table: places get the prizes in rank order, or the winners choose in rank order
(the desk records each choice; the next to choose is the best-placed winner who has not
chosen yet). Special prizes are awarded on their own, beside the places (a winner of a place
may also win one): the rote Laterne goes to the last place among those who played every
round, the Tausender to the entrant with the highest single game of 1000 points or more (a
tie: the earlier round, then the lower start number -- the Pressebericht's "highest game"
uses the same rule, ``charity.statistics.game_key``), "beste Dame" to the best-placed entrant
of the category Damen.

One prize per person (a setting: clubs differ): by default a winner of a place may also win
a special prize, and one entrant may win several special prizes. With ``one_per_person`` a
winner of a place prize (or whoever is entitled to choose one) wins no special prize, and a
special prize goes to the next who qualifies and has not won one already (special prizes in
the prize table's order).

Who may win (one definition for the table, the certificates, the beamer and the report): a
ranked entrant who played; a withdrawn one only where the prize says so
(``withdrawn_may_win``); an entrant out of competition never (it has no place)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .statistics import game_key


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
    withdrawn_may_win: bool = False


@dataclass(frozen=True)
class Contender:
    """An entrant of the ranking (ranked, played at least one game), best first."""

    entrant_id: int
    place: int
    best_game: int = 0  # the highest points in one game
    categories: frozenset[str] = frozenset()
    start_number: int = 0
    best_round: int = 0  # the earliest round of that best game
    withdrawn: bool = False
    every_round: bool = True  # played every round counted so far


def may_win(prize: Prize, contender: Contender) -> bool:
    return not contender.withdrawn or prize.withdrawn_may_win


@dataclass(frozen=True)
class Award:
    prize: Prize
    entrant_id: int | None  # None: not yet chosen / nobody qualifies
    place: int | None = None


def regular(prizes: Sequence[Prize]) -> list[Prize]:
    return sorted((p for p in prizes if p.special == Special.NONE), key=lambda p: p.position)


def choosers(prizes: Sequence[Prize], ranking: Sequence[Contender]) -> list[Contender]:
    """Who chooses (or gets) a place prize: the first as many entrants who may win one as
    there are prizes (a withdrawn entrant only where a place prize allows it)."""
    places = regular(prizes)
    return [c for c in ranking if any(may_win(p, c) for p in places)][: len(places)]


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


def special_winner(
    prize: Prize, ranking: Sequence[Contender], excluded: frozenset[int] = frozenset()
) -> Contender | None:
    """Who wins the special prize; ``excluded``: entrants who may win no further prize."""
    field = [c for c in ranking if may_win(prize, c) and c.entrant_id not in excluded]
    if not field:
        return None
    if prize.special == Special.LATERNE:
        complete = [c for c in field if c.every_round]
        return complete[-1] if complete else None
    if prize.special == Special.TAUSENDER:
        best = max(field, key=lambda c: game_key(c.best_game, c.best_round, c.start_number))
        return best if best.best_game >= TAUSENDER_POINTS else None
    if prize.special == Special.BEST_WOMAN:
        return next((c for c in field if WOMEN in c.categories), None)
    return None


def awards(
    prizes: Sequence[Prize],
    ranking: Sequence[Contender],
    mode: PrizeMode,
    choices: Mapping[int, int],
    *,
    one_per_person: bool = False,
) -> list[Award]:
    """Every prize with its winner: the place prizes (by rank, or as chosen), then the
    special prizes (with ``one_per_person``: each to someone who won nothing yet)."""
    places = {c.entrant_id: c.place for c in ranking}
    out: list[Award] = []
    places_prizes = regular(prizes)
    if mode == PrizeMode.RANK:
        given: set[int] = set()
        for prize in places_prizes:
            contender = next(
                (c for c in ranking if c.entrant_id not in given and may_win(prize, c)), None
            )
            if contender is None:
                out.append(Award(prize, None))
                continue
            given.add(contender.entrant_id)
            out.append(Award(prize, contender.entrant_id, contender.place))
    else:
        for prize in places_prizes:
            who = choices.get(prize.id)
            out.append(Award(prize, who, places.get(who) if who is not None else None))
    # who has a place prize, or the right to choose one still to be made
    won = {a.entrant_id for a in out if a.entrant_id is not None}
    if mode == PrizeMode.CHOICE:
        won |= {c.entrant_id for c in choosers(prizes, ranking)}
    for prize in sorted(prizes, key=lambda p: p.position):
        if prize.special != Special.NONE:
            winner = special_winner(
                prize, ranking, frozenset(won) if one_per_person else frozenset()
            )
            if winner is not None:
                won.add(winner.entrant_id)
            out.append(
                Award(
                    prize, winner.entrant_id if winner else None, winner.place if winner else None
                )
            )
    return out
