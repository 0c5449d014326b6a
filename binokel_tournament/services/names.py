"""Names as people type them: "Muller", "Mueller" and "muller" all mean "Müller", "Strasser"
means "Straßer". One folding for every search a player or the desk makes by name."""

from __future__ import annotations

import re
import unicodedata

# German umlauts are written out with an "e" where a keyboard has none; folded the same way
# as the umlaut itself, both spellings meet.
_SPELLED_OUT = re.compile(r"([aou])e")
_SPACES = re.compile(r"[\s\-_.,']+")


def fold(text: str) -> str:
    """A name reduced to what a search compares: case, accents, ß/ss, ä/ae/a, spacing and
    hyphens do not matter."""
    text = unicodedata.normalize("NFKD", text.casefold())  # ß → ss, ü → u + diaeresis
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = _SPELLED_OUT.sub(r"\1", text)
    return _SPACES.sub(" ", text).strip()


def matches(query: str, *names: str) -> bool:
    """Does every word of the query occur (folded) in one of the names?"""
    words = fold(query).split()
    folded = [fold(name) for name in names if name]
    return bool(words) and all(any(w in name for name in folded) for w in words)
