"""The evening in figures (the "Pressebericht"): games, points, the declarers' win rate,
conceded and Durch games, Tausender (games in which a party scored 1000 or more), the
highest game and round, each entrant's best round and how often which meld totals were
shown. Computed from the stored per-party results, one record per party and game."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

TAUSENDER_POINTS = 1000
DURCH_KINDS = frozenset({"durch", "aufgelegt"})
CONCEDED = "conceded"
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


@dataclass(frozen=True)
class PartyRecord:
    """One party's result in one game (a sitting-out dealer included, with ``sits_out``)."""

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
    stats = Statistics()
    games: dict[int, list[PartyRecord]] = defaultdict(list)
    rounds: dict[tuple[int, int], int] = defaultdict(int)
    melds: Counter[str] = Counter()
    highest_key = (0, 0, 0)
    for r in records:
        games[r.game_id].append(r)
        stats.points += r.points
        stats.points_by_round[r.round_number] = (
            stats.points_by_round.get(r.round_number, 0) + r.points
        )
        rounds[(r.entrant_id, r.round_number)] += r.points
        if r.sits_out:
            continue
        if r.meld is not None and r.kind not in DURCH_KINDS and r.kind != CONCEDED:
            melds[meld_class(r.meld)] += 1
        key = game_key(r.points, r.round_number, r.start_number)
        if stats.highest_game is None or key > highest_key:
            stats.highest_game = Top(r.entrant_id, r.round_number, r.points)
            highest_key = key
    for parties in games.values():
        first = parties[0]
        stats.games += 1
        stats.games_by_round[first.round_number] = (
            stats.games_by_round.get(first.round_number, 0) + 1
        )
        declarer = next((p for p in parties if p.is_declarer), None)
        if declarer is not None:
            stats.declarer_games += 1
            stats.declarer_wins += declarer.won
        if first.kind == CONCEDED:
            stats.conceded += 1
        elif first.kind in DURCH_KINDS:
            stats.durch += 1
            stats.durch_won += bool(declarer and declarer.won)
        best = max(parties, key=lambda p: p.points)
        if best.points >= TAUSENDER_POINTS:
            stats.tausender += 1
            stats.tausender_by.append(Top(best.entrant_id, best.round_number, best.points))
    for (entrant, number), points in sorted(rounds.items()):
        top = Top(entrant, number, points)
        current = stats.best_rounds.get(entrant)
        if current is None or points > current.points:
            stats.best_rounds[entrant] = top
        if stats.highest_round is None or points > stats.highest_round.points:
            stats.highest_round = top
    stats.meld_classes = [(label, melds[label]) for _low, _high, label in MELD_CLASSES]
    stats.games_by_round = dict(sorted(stats.games_by_round.items()))
    stats.points_by_round = dict(sorted(stats.points_by_round.items()))
    return stats
