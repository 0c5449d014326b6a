"""The kinds of game: the one enumeration the engine, the sheet and the desk share.

Which kinds a rule set plays is ``RuleSet.game_kinds`` (ask ``rules.plays(kind)``); after which
kinds the declarer deals the next game is ``rules.declarer_deals_next(kind)``.
"""

from __future__ import annotations

from enum import StrEnum


class GameKind(StrEnum):
    PLAYED = "played"
    CONCEDED = "conceded"  # Abschreiben / Abgehen: given up after the Dabb, no tricks
    DURCH = "durch"  # the declarer must take every trick; no trump, no melds
    # docs/rules.md "Regional switches": the Durch laid open before the first trick ("aufgelegt")
    DURCH_AUFGELEGT = "aufgelegt"
    # docs/rules.md "Regional switches": Bettel / Untendurch, the declarer must take no trick; no
    # trump, no melds
    BETTEL = "bettel"

    @property
    def is_durch(self) -> bool:
        """A Durch: the declarer must take every trick (and leads; rule 14 lets the Durch
        player deal the next game where ``RuleSet.durch_player_deals_next`` says so)."""
        return self is GameKind.DURCH or self is GameKind.DURCH_AUFGELEGT

    @property
    def is_special(self) -> bool:
        """A special game: no trump, no melds, a fixed value when won, a multiple of the bid
        when lost."""
        return self.is_durch or self is GameKind.BETTEL

    @property
    def letter(self) -> str:
        """The letter that stands for the kind: typed at the desk, printed on the paper sheet
        (one per kind)."""
        return _LETTERS[self]

    @property
    def has_tricks(self) -> bool:
        """Whether tricks are played (and entered)."""
        return self is not GameKind.CONCEDED


_LETTERS = {
    GameKind.PLAYED: "g",  # gespielt
    GameKind.CONCEDED: "a",  # abgeschrieben
    GameKind.DURCH: "d",
    GameKind.DURCH_AUFGELEGT: "f",  # aufgelegt (the "a" is abgeschrieben's)
    GameKind.BETTEL: "e",  # Bettel
}
