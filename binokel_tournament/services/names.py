"""Names as people type them: "Muller", "Mueller" and "muller" all mean "Müller", "Strasser"
means "Straßer". One folding for every search a player or the desk makes by name."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# German umlauts are written out with an "e" where a keyboard has none; folded the same way
# as the umlaut itself, both spellings meet.
_SPELLED_OUT = re.compile(r"([aou])e")
_SPACES = re.compile(r"[\s\-_.,']+")
# stored names kept folded (``folded_name``): the register's are folded again on every pause
# in typing at registration, a tournament's on every "Wo sitze ich?", and the same few
# thousand names come back each time
FOLDED_KEPT = 1 << 16


def fold(text: str) -> str:
    """A name reduced to what a search compares: case, accents, ß/ss, ä/ae/a, spacing and
    hyphens do not matter."""
    text = unicodedata.normalize("NFKD", text.casefold())  # ß → ss, ü → u + diaeresis
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = _SPELLED_OUT.sub(r"\1", text)
    return _SPACES.sub(" ", text).strip()


@lru_cache(maxsize=FOLDED_KEPT)
def folded_name(name: str) -> str:
    """``fold`` of a stored name (a player's or an entrant's, at most 120 characters), kept
    for the next time. What people type is folded with ``fold`` and not kept: a public search
    cannot fill the memory."""
    return fold(name)


class NameQuery:
    """What someone typed to find a name, folded once and asked of many stored names."""

    def __init__(self, query: str) -> None:
        self.words = fold(query).split()

    def found_in(self, *names: str) -> bool:
        """Does every word of the query occur (folded) in one of the names?"""
        folded = [folded_name(name) for name in names if name]
        return bool(self.words) and all(any(w in name for name in folded) for w in self.words)
