"""The preset rule sets: every rule system in our sources (docs/rules.md "Rule presets").

``ejl`` (the ejl rulebook, the default, ``RuleSet()``), ``klassisch`` (the classic rules),
``preisbinokel`` (a regional prize tournament), ``dabb`` (the rules of the Dabb app) and
``luxusfamilie`` (a Binokel variant with its own deck and scoring); docs/rules.md "Sources". An
organiser may change any field of a preset; the regional variants (docs/rules.md "Regional
switches") are fields set on top of any
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
    # docs/rules.md "klassisch": the opponents of a conceded game get their meld + a bonus of 30 at
    # three players, i.e. 10 for every player in the game (a dealer who sits out does not play);
    # the declarer loses the bid once.
    conceded_declarer_factor=1,
    conceded_opponent_mode="per_player",
    conceded_bonus_per_player=10,
)

PREISBINOKEL = RuleSet(
    name="preisbinokel",
    # docs/rules.md "preisbinokel": no Durch, and a double Familie counts 1000 like eight of a rank
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
    # docs/rules.md "dabb": no Durch; going out: the bid winner -bid, every opponent its melds + 40
    game_kinds=(GameKind.PLAYED, GameKind.CONCEDED),
    conceded_declarer_factor=1,
    conceded_opponent_mode="per_opponent",
    conceded_bonus_per_opponent=40,
    # "If they fall short, they lose points equal to their bid instead of gaining any."
    lost_factor=1,
    # "each player's round score is: meld points + trick points" -- tricks count exactly, and
    # (decision) the melds count without a trick: the Dabb rules have no rule 13
    trick_rounding="none",
    meld_needs_trick=False,
    # Decision (RULES.md "dabb"): the Dabb rules list only the cards' points and score "meld
    # points + trick points", so there is no bonus for the last trick: the tricks add up to 240.
    last_trick_bonus=0,
    # Acht Asse 1000, Könige 600, Ober 400, Buaben 200; a Familie's K+O is not also a Paar
    eight_of_a_rank=rank_values(A=1000, K=600, O=400, U=200),
    # Decision: the Dabb rules list no Rundlauf (its Paare and the 4 Könige and 4 Ober count one
    # by one, which is the same 240 without a Familie) and says nothing of a double Familie
    # (two Familien, as docs/rules.md "Decisions" says).
    rundlauf_value=0,
    rundlauf_with_familie_value=0,
)

# docs/rules.md "luxusfamilie", "Kartenkombinationen: Einfach / Doppelt", in the order a suit is
# looked at: the double values, then the three combinations ("bei einer Familie mit doppeltem Paar
# zählt das zweite Paar dreifach (100 bzw. 150)", "... Luxusfamilie mit doppeltem Paar ... fünffach
# (200 bzw. 300)", "... Luxusfamilie mit doppelter Familie ... fünffach (300 bzw. 450)"), then the
# single melds. A Familie is K, Dame (O), Bube (U); a Luxusfamilie adds A and 10. The trump
# seven counts 10, both 20.
LUXUSFAMILIE_SUIT_MELDS: tuple[SuitMeld, ...] = (
    SuitMeld.of("doppelluxusfamilie", "A A 10 10 K K O O U U", 1000, 1500),
    SuitMeld.of("luxusfamilie_doppelfamilie", "A 10 K K O O U U", 300, 450),
    SuitMeld.of("luxusfamilie_doppelpaar", "A 10 K K O O U", 200, 300),
    SuitMeld.of("luxusfamilie", "A 10 K O U", 100, 150),
    SuitMeld.of("doppelfamilie", "K K O O U U", 160, 240),
    SuitMeld.of("familie_doppelpaar", "K K O O U", 100, 150),
    SuitMeld.of("familie", "K O U", 40, 60),
    SuitMeld.of("doppelpaar", "K K O O", 60, 90),
    SuitMeld.of("paar", "K O", 20, 30),
    SuitMeld.of("diss", "7", 0, 10),
)

LUXUSFAMILIE = RuleSet(
    name="luxusfamilie",
    # "Die angesagten Reizpunkte müssen durch 10 teilbar sein" -- no lowest bid is named;
    # decision: any multiple of 10
    min_bid=10,
    bid_step=10,
    # Only played games: Luxusfamilie has no conceding and no Durch.
    game_kinds=(GameKind.PLAYED,),
    # "Hat er weniger Punkte erreicht, verfallen diese und seine Reizpunkte werden ihm als
    # Minuspunkte abgeschrieben. Die Punktzahl der anderen Spieler darf beliebig sein."
    lost_factor=1,
    trick_rounding="none",
    # Decision: Luxusfamilie shows the melds before any trick and says nothing of losing them.
    meld_needs_trick=False,
    # Two 32-card decks without eights and nines: A, 10, K, D, B, 7 twice in four suits; three
    # players, 16 cards each, no Dabb (the four open Farbkarten come from the eights and nines
    # and do not play). Machtpunkte sum to 240: no bonus for the last trick.
    sevens=True,
    last_trick_bonus=0,
    hand_cards=(("three", 16),),
    # "Ab dem 60. Machtpunkt zählt jeder weitere Punkt doppelt (90 = 120), ab dem 120.
    # dreifach (150 = 270), ab dem 180. vierfach (210 = 480)"
    trick_scaling=((60, 2), (120, 3), (180, 4)),
    # Farbkarten: forgotten or late 20, a turned colour played 50, turned back on purpose 100.
    penalty_values=(20, 50, 100),
    penalty_before_scaling=True,
    suit_melds=LUXUSFAMILIE_SUIT_MELDS,
    four_of_a_rank=rank_values(K=40, O=60, U=80),
    eight_of_a_rank=rank_values(K=240, O=360, U=480),
    binokel_value=0,
    doppelbinokel_value=0,
    rundlauf_value=0,
    rundlauf_with_familie_value=0,
)

PRESETS: Mapping[str, RuleSet] = MappingProxyType(
    {rules.name: rules for rules in (EJL, KLASSISCH, PREISBINOKEL, DABB, LUXUSFAMILIE)}
)


def get_preset(name: str) -> RuleSet:
    """The preset rule set called ``name`` (one of ``PRESETS``)."""
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise ScoringError(
            [FieldError.of("preset", M.UNKNOWN_PRESET, name=name, choices=", ".join(PRESETS))]
        ) from None
