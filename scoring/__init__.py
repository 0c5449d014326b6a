"""Pure-Python Binokel scoring engine: rule sets, validation, game scoring and meld sets.

It never imports Django; the web app calls it with plain frozen dataclasses. See docs/rules.md.
"""

from scoring.cards import EYES, Card, Rank, Suit
from scoring.engine import GameCheck, check_game, read_game, score_game, validate_game
from scoring.errors import EngineError, FieldError, ScoringError, translate
from scoring.kinds import GameKind
from scoring.meld_table import MeldTable, SuitMeld
from scoring.melds import (
    MeldCounts,
    Witness,
    achievable_pair_totals,
    achievable_totals,
    best_trump,
    find_witness,
    full_deck,
    hand_meld_total,
    hand_melds,
    meld_total,
    nearest_totals,
    witness,
)
from scoring.model import GameInput, GameRead, GameResult, PartyInput
from scoring.presets import PRESETS, get_preset
from scoring.rules import EJL, TIE_BREAKS, RuleSet

__all__ = [
    "EJL",
    "EYES",
    "PRESETS",
    "TIE_BREAKS",
    "Card",
    "EngineError",
    "FieldError",
    "GameCheck",
    "GameInput",
    "GameKind",
    "GameRead",
    "GameResult",
    "MeldCounts",
    "MeldTable",
    "PartyInput",
    "Rank",
    "RuleSet",
    "ScoringError",
    "Suit",
    "SuitMeld",
    "Witness",
    "achievable_pair_totals",
    "achievable_totals",
    "best_trump",
    "check_game",
    "find_witness",
    "full_deck",
    "get_preset",
    "hand_meld_total",
    "hand_melds",
    "meld_total",
    "nearest_totals",
    "read_game",
    "score_game",
    "translate",
    "validate_game",
    "witness",
]
