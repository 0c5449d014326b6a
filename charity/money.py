"""Entry fees (Startgeld), the evening's statements and totals.

- Startgeld per entrant; at a pair competition either per pair or per player (a setting).
- Donations for lost games: the rule and what counts as lost are the engine's
  (``scoring.donations``, so that the result file's checker computes them the same way); they
  are named here too for the charity's callers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from scoring.donations import (
    DonationRule,
    DonationTier,
    GameOutcome,
    donation_for,
    is_lost,
    lost_games,
)

__all__ = [
    "DonationRule",
    "DonationTier",
    "EveningTotal",
    "FeeRule",
    "GameOutcome",
    "Statement",
    "donation_for",
    "euro_text",
    "euros",
    "evening_total",
    "is_lost",
    "lost_games",
    "statement",
]


@dataclass(frozen=True)
class FeeRule:
    cents: int = 0
    per_player: bool = False  # at a pair competition: each partner pays (else the pair once)

    def fee(self, players: int) -> int:
        """The Startgeld of an entrant of ``players`` players (1, or 2 for a pair)."""
        return self.cents * players if self.per_player else self.cents


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
