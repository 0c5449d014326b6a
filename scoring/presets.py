"""The preset rule sets: every rule system in our sources (RULES.md "Rule presets").

``ejl`` (seeds/001, the default, ``RuleSet()``), ``klassisch`` (seeds/000), ``preisbinokel`` (a
regional prize tournament, RULES.md), ``dabb`` (seeds/004, the rules of the Dabb app) and
``luxusfamilie`` (seeds/003, a Binokel variant with its own deck and scoring). An organiser may
change any field of a preset; the regional variants of seeds/002 are fields set on top of any
preset (Durch aufgelegt, Bettel, Rundlauf 250, counting variants, lost = bid + 100).
Where a source is silent or ambiguous, the decision is written where it is made.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from scoring import messages as M
from scoring.errors import FieldError, ScoringError
from scoring.kinds import GameKind
from scoring.meld_table import SuitMeld
from scoring.rules import CLASSIC_SUIT_MELDS, EJL, RuleSet, rank_values

KLASSISCH = RuleSet(
    name="klassisch",
    # seeds/000: the opponents of a conceded game get their meld + a bonus of 30 at three
    # players, i.e. 10 for every player in the game (a dealer who sits out does not play);
    # the declarer loses the bid once.
    conceded_declarer_factor=1,
    conceded_opponent_mode="per_player",
    conceded_bonus_per_player=10,
)

PREISBINOKEL = RuleSet(
    name="preisbinokel",
    # RULES.md "Rule presets": no Durch, and a double Familie counts 1000 like eight of a rank
    game_kinds=(GameKind.PLAYED, GameKind.CONCEDED),
    suit_melds=(
        SuitMeld.of("doppelfamilie", "A A 10 10 K K O O U U", 1000, 1000),
        *CLASSIC_SUIT_MELDS[1:],
    ),
    opponents_half_bid_on_lost=True,
    rounds=3,
    # 15 games at every table; at a 4-table with a sitting-out dealer everyone still plays 15
    # (each of the four deals 5 games).
    games_per_round=(("three", 15), ("pairs", 15), ("four_sitout", 20)),
)

DABB = RuleSet(
    name="dabb",
    # seeds/004 knows no Durch; going out: the bid winner -bid, every opponent its melds + 40
    game_kinds=(GameKind.PLAYED, GameKind.CONCEDED),
    conceded_declarer_factor=1,
    conceded_opponent_mode="per_opponent",
    conceded_bonus_per_opponent=40,
    # "If they fall short, they lose points equal to their bid instead of gaining any."
    lost_factor=1,
    # "each player's round score is: meld points + trick points" -- tricks count exactly, and
    # (decision) the melds count without a trick: seeds/004 has no rule 13
    trick_rounding="none",
    meld_needs_trick=False,
    # Acht Asse 1000, Könige 600, Ober 400, Buaben 200; a Familie's K+O is not also a Paar
    eight_of_a_rank=rank_values(A=1000, K=600, O=400, U=200),
    # Decision: seeds/004 lists no Rundlauf (its Paare and the 4 Könige and 4 Ober count one
    # by one, which is the same 240 without a Familie) and says nothing of a double Familie
    # (two Familien, as RULES.md decides).
    rundlauf_value=0,
    rundlauf_with_familie_value=0,
)

PRESETS: Mapping[str, RuleSet] = MappingProxyType(
    {rules.name: rules for rules in (EJL, KLASSISCH, PREISBINOKEL, DABB)}
)


def get_preset(name: str) -> RuleSet:
    """The preset rule set called ``name`` (one of ``PRESETS``)."""
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise ScoringError(
            [FieldError.of("preset", M.UNKNOWN_PRESET, name=name, choices=", ".join(PRESETS))]
        ) from None
