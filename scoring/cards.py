"""The cards: four suits, the ranks A, 10, K, O, U (and the seven, where a rule set plays it), two
copies of every card.

The ejl deck (docs/rules.md "Cards and eyes") has 40 cards without sevens; Luxusfamilie and the
deck with sevens (docs/rules.md "Regional switches") have 48. Which deck a rule set plays is
``RuleSet.sevens``; the eyes a card counts are ``RuleSet.card_eyes`` (``EYES`` are the usual ones).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from types import MappingProxyType


class Suit(StrEnum):
    HERZ = "herz"
    SCHELLEN = "schellen"
    KREUZ = "kreuz"
    SCHIPPEN = "schippen"


class Rank(StrEnum):
    ASS = "A"
    ZEHN = "10"
    KOENIG = "K"
    OBER = "O"
    UNTER = "U"
    SIEBEN = "7"


SUITS: tuple[Suit, ...] = tuple(Suit)
RANKS: tuple[Rank, ...] = tuple(Rank)
RANKS_WITHOUT_SEVENS: tuple[Rank, ...] = tuple(rank for rank in Rank if rank is not Rank.SIEBEN)
SUIT_SYMBOLS: Mapping[Suit, str] = MappingProxyType(
    {Suit.HERZ: "♥", Suit.SCHELLEN: "♦", Suit.KREUZ: "♣", Suit.SCHIPPEN: "♠"}
)
# The usual eyes (rule 11; Machtpunkte in docs/rules.md "luxusfamilie"): a seven counts nothing.
EYES: Mapping[Rank, int] = MappingProxyType(
    {
        Rank.ASS: 11,
        Rank.ZEHN: 10,
        Rank.KOENIG: 4,
        Rank.OBER: 3,
        Rank.UNTER: 2,
        Rank.SIEBEN: 0,
    }
)
COPIES = 2  # every card is in the deck twice
# Names of the ranks in the itemised melds ("vier_koenige", "acht_asse").
RANK_PLURALS: Mapping[Rank, str] = MappingProxyType(
    {
        Rank.ASS: "asse",
        Rank.ZEHN: "zehner",
        Rank.KOENIG: "koenige",
        Rank.OBER: "ober",
        Rank.UNTER: "unter",
        Rank.SIEBEN: "siebener",
    }
)


def deck_ranks(sevens: bool) -> tuple[Rank, ...]:
    """The ranks of every suit: A, 10, K, O, U, and 7 when sevens are played."""
    return RANKS if sevens else RANKS_WITHOUT_SEVENS


@dataclass(frozen=True, order=True)
class Card:
    suit: Suit
    rank: Rank

    def label(self) -> str:
        """E.g. "♥K" (♥ Herz, ♦ Schellen, ♣ Kreuz, ♠ Schippen)."""
        return f"{SUIT_SYMBOLS[self.suit]}{self.rank.value}"

    @property
    def eyes(self) -> int:
        """The usual eyes (``EYES``); a rule set may count otherwise (``RuleSet.card_eyes``)."""
        return EYES[self.rank]

    @property
    def sort_key(self) -> tuple[int, int]:
        """Suit order Herz, Schellen, Kreuz, Schippen; rank order A, 10, K, O, U, 7."""
        return (SUITS.index(self.suit), RANKS.index(self.rank))


@cache
def cards_of(sevens: bool) -> tuple[Card, ...]:
    """Every card of the deck, two of each, in display order (40 or, with sevens, 48)."""
    return tuple(
        Card(suit, rank) for suit in SUITS for rank in deck_ranks(sevens) for _ in range(COPIES)
    )
