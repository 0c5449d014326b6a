"""Entry fees (Startgeld) and lost-game donations.

- Startgeld per entrant; at a pair competition either per pair or per player (a setting).
- Donation for lost games in tiers: each tier says from which lost game on (1-based) how many
  cents every further lost game costs — "0,50 € per lost game, 1 € from the fifth" is
  ``(DonationTier(1, 50), DonationTier(5, 100))``: 6 lost games cost 4 × 50 + 2 × 100 = 400.
- What counts as lost: a game lost as declarer; a conceded game (abgeschrieben) only when the
  rule says so. A game an entrant did not declare is never lost by them. At a pair table the
  pair is the party: its lost game is one lost game of the pair (the donation is per party).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from scoring.kinds import GameKind

CONCEDED = GameKind.CONCEDED.value  # the engine's kind


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
class FeeRule:
    cents: int = 0
    per_player: bool = False  # at a pair competition: each partner pays (else the pair once)

    def fee(self, players: int) -> int:
        """The Startgeld of an entrant of ``players`` players (1, or 2 for a pair)."""
        return self.cents * players if self.per_player else self.cents


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


@dataclass(frozen=True)
class Statement:
    """What one entrant owes: Startgeld and donation for lost games, and what is paid."""

    start_number: int
    name: str
    players: int
    lost: int
    fee_cents: int
    fee_paid: bool
    donation_cents: int
    donation_paid: bool

    @property
    def total_cents(self) -> int:
        return self.fee_cents + self.donation_cents

    @property
    def open_cents(self) -> int:
        return (0 if self.fee_paid else self.fee_cents) + (
            0 if self.donation_paid else self.donation_cents
        )

    @property
    def paid_cents(self) -> int:
        return self.total_cents - self.open_cents


def statement(
    start_number: int,
    name: str,
    players: int,
    games: Iterable[GameOutcome],
    fee: FeeRule,
    rule: DonationRule,
    fee_paid: bool,
    donation_paid: bool,
    out_of_competition: bool = False,
) -> Statement:
    """An entrant's account. One playing out of competition (a substitute filling a table)
    pays no Startgeld; what it loses as declarer is donated like everyone's."""
    lost = lost_games(games, rule)
    return Statement(
        start_number,
        name,
        players,
        lost,
        0 if out_of_competition else fee.fee(players),
        fee_paid,
        rule.amount(lost),
        donation_paid,
    )


@dataclass(frozen=True)
class EveningTotal:
    """The evening's money: Startgeld, lost-game donations and extra donations by hand —
    what is owed in all, and what of it has been paid."""

    fees_cents: int
    donations_cents: int
    extra_cents: int
    paid_cents: int

    @property
    def total_cents(self) -> int:
        return self.fees_cents + self.donations_cents + self.extra_cents

    @property
    def open_cents(self) -> int:
        return self.total_cents - self.paid_cents


def evening_total(statements: Iterable[Statement], extra_cents: Iterable[int]) -> EveningTotal:
    """Extra donations are paid when they are entered (money in hand)."""
    items = list(statements)
    extra = sum(extra_cents)
    return EveningTotal(
        fees_cents=sum(s.fee_cents for s in items),
        donations_cents=sum(s.donation_cents for s in items),
        extra_cents=extra,
        paid_cents=sum(s.paid_cents for s in items) + extra,
    )


def euros(cents: int) -> Decimal:
    return Decimal(cents).scaleb(-2)


def euro_text(cents: int) -> str:
    """German: 6,50 €, 1.234,00 €, −0,50 €."""
    sign = "−" if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    grouped = f"{whole:,}".replace(",", ".")
    return f"{sign}{grouped},{rest:02d}\u00a0€"
