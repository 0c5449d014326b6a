"""Cards written the way ``Card.label()`` prints them ("♥K", "♣10"), for readable tests."""

from __future__ import annotations

from scoring import Card, Rank, Suit

SYMBOLS = {"♥": Suit.HERZ, "♦": Suit.SCHELLEN, "♣": Suit.KREUZ, "♠": Suit.SCHIPPEN}


def card(label: str) -> Card:
    return Card(SYMBOLS[label[0]], Rank(label[1:]))


def hand(text: str) -> list[Card]:
    return [card(label) for label in text.split()]
