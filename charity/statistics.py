"""The evening in figures (the "Pressebericht"): games, points, the declarers' win rate,
conceded and Durch games, Tausender (games in which a party scored 1000 or more), the
highest game and round, each entrant's best round and how often which meld totals were
shown. Computed from the stored per-party results, one record per party and game."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from scoring.kinds import GameKind

TAUSENDER_POINTS = 1000
DURCH_KINDS = frozenset(kind.value for kind in GameKind if kind.is_durch)  # from the engine
CONCEDED = GameKind.CONCEDED.value
# meld totals in classes: (lowest, highest or None, label)
MELD_CLASSES: tuple[tuple[int, int | None, str], ...] = (
    (0, 0, "0"),
    (10, 90, "10–90"),
    (100, 190, "100–190"),
    (200, 290, "200–290"),
    (300, 490, "300–490"),
    (500, 990, "500–990"),
    (1000, None, "≥ 1000"),
)


class PartyRecord(NamedTuple):
    """One party's result in one game (a sitting-out dealer included, with ``sits_out``).
    A named tuple, not a dataclass: an evening of 999 entrants has some 30,000 of them, and
    building them was a third of the statistics page's time."""

    game_id: int
    round_number: int
    entrant_id: int
    kind: str
    is_declarer: bool
    won: bool
    sits_out: bool
    points: int
    meld: int | None
    start_number: int = 0  # the highest game's tie rule (``higher_game``)


def game_key(points: int, round_number: int, start_number: int) -> tuple[int, int, int]:
    """The one rule for "the highest game" (Pressebericht and Tausender prize alike): more
    points; on a tie the earlier round, then the lower start number. Larger key = higher."""
    return (points, -round_number, -start_number)


@dataclass(frozen=True)
class Top:
    entrant_id: int
    round_number: int
    points: int


@dataclass
class Statistics:
    games: int = 0
    points: int = 0
    declarer_games: int = 0
    declarer_wins: int = 0
    conceded: int = 0
    durch: int = 0
    durch_won: int = 0
    tausender: int = 0
    tausender_by: list[Top] = field(default_factory=list)
    highest_game: Top | None = None
    highest_round: Top | None = None
    best_rounds: dict[int, Top] = field(default_factory=dict)
    meld_classes: list[tuple[str, int]] = field(default_factory=list)
    games_by_round: dict[int, int] = field(default_factory=dict)
    points_by_round: dict[int, int] = field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        """Share of the declared games the declarer won (0 when none)."""
        return self.declarer_wins / self.declarer_games if self.declarer_games else 0.0


def meld_class(meld: int) -> str:
    for low, high, label in MELD_CLASSES:
        if meld >= low and (high is None or meld <= high):
            return label
    return MELD_CLASSES[0][2]  # a negative meld does not exist; counted with 0


def compute(records: Iterable[PartyRecord]) -> Statistics:
    """The figures of ``records``, in one pass over them (the order matters only where two
    are equal: the first of equal parties is a game's best, the first game stays highest)."""
    stats = Statistics()
    # per game, in the order of its first record: that record, its first declarer, its first
    # party with the most points
    first: dict[int, PartyRecord] = {}
    declarers: dict[int, PartyRecord] = {}
    best: dict[int, PartyRecord] = {}
    rounds: dict[tuple[int, int], int] = defaultdict(int)
    points_by_round: dict[int, int] = defaultdict(int)
    melds: Counter[int] = Counter()  # by meld total; classed once at the end
    highest_key = (0, 0, 0)
    highest: PartyRecord | None = None
    for r in records:
        game = r.game_id
        top = best.get(game)
        if top is None:
            first[game] = best[game] = r
        elif r.points > top.points:
            best[game] = r
        if r.is_declarer and game not in declarers:
            declarers[game] = r
        points_by_round[r.round_number] += r.points
        rounds[(r.entrant_id, r.round_number)] += r.points
        if r.sits_out:
            continue
        if r.meld is not None and r.kind not in DURCH_KINDS and r.kind != CONCEDED:
            melds[r.meld] += 1
        # a higher game has at least as many points: the key only for those
        if highest is None or r.points >= highest_key[0]:
            key = game_key(r.points, r.round_number, r.start_number)
            if highest is None or key > highest_key:
                highest, highest_key = r, key
    stats.points = sum(points_by_round.values())
    if highest is not None:
        stats.highest_game = Top(highest.entrant_id, highest.round_number, highest.points)
    games_by_round: dict[int, int] = defaultdict(int)
    for game, head in first.items():
        stats.games += 1
        games_by_round[head.round_number] += 1
        declarer = declarers.get(game)
        if declarer is not None:
            stats.declarer_games += 1
            stats.declarer_wins += declarer.won
        if head.kind == CONCEDED:
            stats.conceded += 1
        elif head.kind in DURCH_KINDS:
            stats.durch += 1
            stats.durch_won += bool(declarer and declarer.won)
        top = best[game]
        if top.points >= TAUSENDER_POINTS:
            stats.tausender += 1
            stats.tausender_by.append(Top(top.entrant_id, top.round_number, top.points))
    for (entrant, number), points in sorted(rounds.items()):
        round_top = Top(entrant, number, points)
        current = stats.best_rounds.get(entrant)
        if current is None or points > current.points:
            stats.best_rounds[entrant] = round_top
        if stats.highest_round is None or points > stats.highest_round.points:
            stats.highest_round = round_top
    classes: Counter[str] = Counter()
    for meld, count in melds.items():
        classes[meld_class(meld)] += count
    stats.meld_classes = [(label, classes[label]) for _low, _high, label in MELD_CLASSES]
    stats.games_by_round = dict(sorted(games_by_round.items()))
    stats.points_by_round = dict(sorted(points_by_round.items()))
    return stats
