"""The charity evening's rules, pure Python (no Django): entry fees and lost-game donations
(``money``), prizes in rank order or by choice and the special prizes (``prizes``), category
and club sub-rankings (``rankings``), the evening's statistics (``statistics``). Amounts are
whole cents (``int``); ``Decimal`` only for display."""

from .money import (
    DonationRule,
    DonationTier,
    EveningTotal,
    FeeRule,
    GameOutcome,
    Statement,
    donation_for,
    euro_text,
    euros,
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
    "lost_games",
]
