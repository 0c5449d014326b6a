"""Donations for lost games (the charity evening's "Spende je verlorenem Spiel"): what counts as
a lost game and what the lost games cost. Plain arithmetic on game outcomes, kept in the engine so
that the desk (``charity.money``) and the result file's checker compute it the same way.

- Tiers: each says from which lost game on (1-based) how many cents every further lost game
  costs — "0,50 € per lost game, 1 € from the fifth" is
  ``(DonationTier(1, 50), DonationTier(5, 100))``: 6 lost games cost 4 × 50 + 2 × 100 = 400.
- What counts as lost: a game lost as declarer; a conceded game (abgeschrieben) only when the
  rule says so. A game an entrant did not declare is never lost by them. At a pair table the
  pair is the party: its lost game is one lost game of the pair (the donation is per party).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from scoring.kinds import GameKind

CONCEDED = GameKind.CONCEDED.value


@dataclass(frozen=True)
class DonationTier:
    from_lost: int  # the first lost game (1-based) this amount applies to
    cents: int  # per lost game

    def __post_init__(self) -> None:
        if self.from_lost < 1:
            raise ValueError("a tier starts at the first lost game or later")
        if self.cents < 0:
            raise ValueError("a donation is not negative")


@dataclass(frozen=True)
class DonationRule:
    tiers: tuple[DonationTier, ...] = ()
    count_conceded: bool = False

    @classmethod
    def from_pairs(
        cls, pairs: Iterable[Iterable[int]], count_conceded: bool = False
    ) -> DonationRule:
        """From stored ``[[from_lost, cents], …]`` (sorted, one tier per start)."""
        tiers: dict[int, DonationTier] = {}
        for pair in pairs:
            start, cents = (int(v) for v in pair)
            tiers[start] = DonationTier(start, cents)
        return cls(tuple(tiers[k] for k in sorted(tiers)), count_conceded)

    def to_pairs(self) -> list[list[int]]:
        return [[t.from_lost, t.cents] for t in self.tiers]

    @property
    def active(self) -> bool:
        return any(t.cents for t in self.tiers)

    def cents_for_game(self, n: int) -> int:
        """What the ``n``-th lost game (1-based) costs: the tier with the latest start ≤ n."""
        cents = 0
        for tier in self.tiers:
            if tier.from_lost <= n:
                cents = tier.cents
        return cents

    def amount(self, lost: int) -> int:
        """The donation for ``lost`` lost games, in cents."""
        return sum(self.cents_for_game(n) for n in range(1, lost + 1))


@dataclass(frozen=True)
class GameOutcome:
    """One game from the point of view of one party: its kind, whether the party declared
    and whether the declarer won."""

    kind: str
    is_declarer: bool
    won: bool


def is_lost(game: GameOutcome, rule: DonationRule) -> bool:
    if not game.is_declarer or game.won:
        return False
    return game.kind != CONCEDED or rule.count_conceded


def lost_games(games: Iterable[GameOutcome], rule: DonationRule) -> int:
    return sum(1 for g in games if is_lost(g, rule))


def donation_for(games: Iterable[GameOutcome], rule: DonationRule) -> int:
    return rule.amount(lost_games(games, rule))
