"""Rule sets: every rule that varies between regions is a field of one frozen dataclass.

The default (``RuleSet()``, preset ``ejl``) is exactly ``docs/rules.md``. A rule set loads from and
saves to JSON; loading reports every problem at once, addressed to the rule's name: a value of the
wrong type is reported and the other rules are still checked. A rule set built in code is checked
too (``ScoringError`` for a value out of range); a wrong type there is a bug (``TypeError``).
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from functools import cached_property
from types import MappingProxyType
from typing import Any

from scoring import messages as M
from scoring.cards import COPIES, EYES, SUITS, Rank, deck_ranks
from scoring.errors import DEFAULT_LANGUAGE, FieldError, ScoringError, translate
from scoring.kinds import GameKind
from scoring.meld_table import (
    PAAR_KEY,
    MeldTable,
    SuitMeld,
    check_rank_values,
    check_suit_melds,
    parse_rank_values,
    parse_suit_melds,
    rank_values_dict,
    rank_values_of,
)
from scoring.reading import is_int, load_json

TABLE_KINDS: tuple[str, ...] = ("three", "pairs", "four_sitout")
# Hands by the shape of a game: "three" players (a 3-table, or the active players of a 4-table
# whose dealer sits out) or two "pairs" (a pair table; the partners hold a hand each).
HAND_SHAPES: Mapping[str, int] = MappingProxyType({"three": 3, "pairs": 4})  # -> players
CONCEDED_OPPONENT_MODES: tuple[str, ...] = ("half_bid", "per_player", "per_opponent")
TRICK_ROUNDINGS: tuple[str, ...] = ("round10", "none")
# The tie-breaks a rule set may name, in this one place: key -> label (msgid). The standings
# (binokel_tournament/services/standings.py, METRICS) implement exactly these keys.
TIE_BREAKS: Mapping[str, str] = MappingProxyType(
    {
        "declarer_wins": M.TIE_BREAK_DECLARER_WINS,
        "best_round": M.TIE_BREAK_BEST_ROUND,
    }
)

_INT_FIELDS_MIN: Mapping[str, int] = MappingProxyType(
    {
        "min_bid": 1,
        "bid_step": 1,
        "lost_factor": 0,
        "lost_extra": 0,
        "conceded_declarer_factor": 0,
        "conceded_bonus_per_player": 0,
        "conceded_bonus_per_opponent": 0,
        "last_trick_bonus": 0,
        "durch_won": 0,
        "durch_lost_factor": 0,
        "durch_aufgelegt_won": 0,
        "durch_aufgelegt_lost_factor": 0,
        "bettel_won": 0,
        "bettel_lost_factor": 0,
        "binokel_value": 0,
        "doppelbinokel_value": 0,
        "rundlauf_value": 0,
        "rundlauf_with_familie_value": 0,
        "rounds": 1,
    }
)
_MELD_VALUE_FIELDS = (
    "binokel_value",
    "doppelbinokel_value",
    "rundlauf_value",
    "rundlauf_with_familie_value",
)
_BOOL_FIELDS = (
    "meld_needs_trick",
    "opponents_half_bid_on_lost",
    "durch_player_deals_next",
    "four_sitout_keeps_rotation",
    "penalty_before_scaling",
)
_CHOICE_FIELDS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "conceded_opponent_mode": CONCEDED_OPPONENT_MODES,
        "trick_rounding": TRICK_ROUNDINGS,
    }
)


def rank_values(**values: int) -> tuple[tuple[str, int], ...]:
    """A value per rank in rank order (A, 10, K, O, U, 7), 0 where none is given; the seven and
    the ten are written ``S`` and ``Z`` here: ``rank_values(A=100, K=80)``."""
    labels = {"Z": "10", "S": "7"}
    given = {labels.get(key, key): value for key, value in values.items()}
    return tuple((rank.value, given.get(rank.value, 0)) for rank in Rank)


# The meld table of docs/rules.md "Melds" (the classic rules). A double Familie counts as two
# Familien (docs/rules.md "Decisions"); preisbinokel and some halls count it 1000 or 1500 instead.
CLASSIC_SUIT_MELDS: tuple[SuitMeld, ...] = (
    SuitMeld.of("doppelfamilie", "A A 10 10 K K O O U U", 200, 300),
    SuitMeld.of("familie", "A 10 K O U", 100, 150),
    SuitMeld.of(PAAR_KEY, "K O", 20, 40),
)
# RULES.md "Decisions (2026-11-27)": with the sevens (48 cards) the trump seven, the Diss, is a
# 10-point meld, one per trump seven held ("the DISS ... is 10 points"); it needs a trick like every
# meld and is no part of a Familie. A rule set with sevens plays it unless its suit melds name a
# seven themselves (e.g. ``diss`` 0 / 0: no Diss).
DISS = SuitMeld.of("diss", "7", 0, 10)
EJL_HAND_CARDS: tuple[tuple[str, int], ...] = (("three", 12), ("pairs", 9))
CLASSIC_FOUR = rank_values(A=100, K=80, O=60, U=40)
CLASSIC_EIGHT = rank_values(A=1000, K=1000, O=1000, U=1000)


@dataclass(frozen=True)
class RuleSet:
    """How games are scored and how a competition is played (defaults: the ejl rulebook)."""

    name: str = "ejl"
    min_bid: int = 150
    bid_step: int = 10
    # The kinds of game this rule set plays (preisbinokel: no Durch; issue 9).
    game_kinds: tuple[GameKind, ...] = (GameKind.PLAYED, GameKind.CONCEDED, GameKind.DURCH)
    # Lost game: the declarer scores -(lost_factor * bid + lost_extra) (rule 9: twice the bid;
    # "Regional switches": the bid + 100, the melds forfeited; "dabb": the bid; docs/rules.md). A
    # lost game's declarer never keeps melds or tricks.
    lost_factor: int = 2
    lost_extra: int = 0
    # Conceded game: the declarer scores -conceded_declarer_factor * bid (rule 6).
    conceded_declarer_factor: int = 1
    # "half_bid": every opponent gets ceil10(bid / 2) + its meld (ejl rule 6);
    # "per_player": its meld + conceded_bonus_per_player for every player in the game (classic):
    # 3 at a 3-table and at a 4-table whose dealer sits out, 4 at a pair table.
    conceded_opponent_mode: str = "half_bid"
    conceded_bonus_per_player: int = 10
    # "per_opponent": its meld + conceded_bonus_per_opponent (docs/rules.md "dabb": 40).
    conceded_bonus_per_opponent: int = 40
    durch_won: int = 1000
    durch_lost_factor: int = 2
    # docs/rules.md "Regional switches" (where game_kinds plays them): the Durch laid open
    # ("aufgelegt") and the Bettel / Untendurch (no trick; 500, 1000 or 1500 by region); lost, like
    # every lost game (rule 9, docs/rules.md "Decisions" for the Durch): factor x bid.
    durch_aufgelegt_won: int = 1500
    durch_aufgelegt_lost_factor: int = 2
    bettel_won: int = 1000
    bettel_lost_factor: int = 2
    # Rule 14: after a Durch the Durch player deals the next game, the rotation goes on from there.
    durch_player_deals_next: bool = True
    # Decision (docs/rules.md "Tables"): at a 4-table whose dealer sits out, the printed rotation
    # stays after a Durch, so that everyone still plays the same number of games.
    four_sitout_keeps_rotation: bool = True
    # "round10": to the nearest 10, 5 rounds up (rule 11; the regional variants: "up from 5 eyes,
    # down to 4", the same rounding); "none": exact eyes ("to the point"; docs/rules.md "dabb").
    trick_rounding: str = "round10"
    # Rule 13: a party that took no trick loses its meld.
    meld_needs_trick: bool = True
    # Preisbinokel: on a lost game the opponents also get ceil10(bid / 2).
    opponents_half_bid_on_lost: bool = False
    # The deck: 40 cards, or 48 with the sevens (docs/rules.md "Regional switches").
    sevens: bool = False
    # The eyes a card counts (rule 11; docs/rules.md "Regional switches" lists counting variants,
    # e.g. A 10, 10 10, K 10, others 0) and the bonus for the last trick (rule 11: 10).
    card_eyes: tuple[tuple[str, int], ...] = tuple((rank.value, EYES[rank]) for rank in Rank)
    last_trick_bonus: int = 10
    # Cards per hand: at a 3-table (and for the three active players of a 4-table whose dealer
    # sits out), and per partner at a pair table; without "pairs" the rule set has no pair
    # tables. The Dabb holds the cards left over (4 at ejl tables).
    hand_cards: tuple[tuple[str, int], ...] = EJL_HAND_CARDS
    # Trick points from the eyes (docs/rules.md "luxusfamilie": Machtpunkte -> Stichpunkte): from
    # each threshold on every further eye counts this many times, e.g. ((60, 2), (120, 3), (180,
    # 4)): 90 -> 120, 150 -> 270, 210 -> 480. Empty: the eyes are the trick points.
    trick_scaling: tuple[tuple[int, int], ...] = ()
    # Minus points a player can be given in a game (docs/rules.md "luxusfamilie", the Farbkarten:
    # 20, 50, 100); entered per party and game as their sum (PartyInput.penalty). Empty: no
    # penalties.
    penalty_values: tuple[int, ...] = ()
    # Decision (docs/rules.md "luxusfamilie": the trick points are found "after deducting the
    # minus points"): the minus points come off the eyes before they are scaled (and a lost
    # declarer's go with his tricks); false: they come off the game's points after scaling, in
    # every case.
    penalty_before_scaling: bool = True
    # The meld table (scoring/meld_table.py): suit melds in the order they are looked for,
    # 4 and 8 of a rank per rank (0: no such meld), Binokel, Rundlauf (0: no Rundlauf).
    suit_melds: tuple[SuitMeld, ...] = CLASSIC_SUIT_MELDS
    four_of_a_rank: tuple[tuple[str, int], ...] = CLASSIC_FOUR
    eight_of_a_rank: tuple[tuple[str, int], ...] = CLASSIC_EIGHT
    binokel_value: int = 40
    doppelbinokel_value: int = 300
    rundlauf_value: int = 240
    # Rule 15: Rundlauf together with a Familie.
    rundlauf_with_familie_value: int = 200
    games_per_round: tuple[tuple[str, int], ...] = (
        ("three", 12),
        ("pairs", 12),
        ("four_sitout", 16),
    )
    rounds: int = 3
    # Keys of TIE_BREAKS, in the order they break a tie of the total points.
    tie_breaks: tuple[str, ...] = ("declarer_wins", "best_round")

    def __post_init__(self) -> None:
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        wrong = [name for name, value in values.items() if not _HAS_TYPE[name](value)]
        if wrong:
            raise TypeError(
                "RuleSet fields of the wrong type (a bug; read JSON with RuleSet.from_dict): "
                + ", ".join(f"{name}={values[name]!r}" for name in wrong)
            )
        errors = _check_values(values)
        if errors:
            raise ScoringError(errors)
        for name in (*_RANK_VALUE_FIELDS, "card_eyes"):  # one spelling: every rank, in order
            given = dict(values[name])
            object.__setattr__(
                self, name, tuple((rank.value, given.get(rank.value, 0)) for rank in Rank)
            )

    # --- queries -----------------------------------------------------------------------------
    def plays(self, kind: GameKind) -> bool:
        """Whether this rule set plays games of this kind (the desk and the printed sheet
        offer only these)."""
        return kind in self.game_kinds

    def won_value(self, kind: GameKind) -> int:
        """What the declarer scores for a won special game (Durch, Durch aufgelegt, Bettel)."""
        return self._special_values(kind)[0]

    def lost_factor_of(self, kind: GameKind) -> int:
        """A lost special game costs the declarer this many times the bid."""
        return self._special_values(kind)[1]

    def _special_values(self, kind: GameKind) -> tuple[int, int]:
        return {
            GameKind.DURCH: (self.durch_won, self.durch_lost_factor),
            GameKind.DURCH_AUFGELEGT: (self.durch_aufgelegt_won, self.durch_aufgelegt_lost_factor),
            GameKind.BETTEL: (self.bettel_won, self.bettel_lost_factor),
        }[kind]

    def declarer_deals_next(self, kind: GameKind) -> bool:
        """Whether after a game of this kind its declarer deals the next game (rule 14: the
        Durch player). At a 4-table whose dealer sits out ``four_sitout_keeps_rotation`` says
        whether the printed rotation stays instead."""
        return self.durch_player_deals_next and kind.is_durch

    def games_for(self, table_kind: str) -> int:
        """Games per round at a table of this kind ("three", "pairs", "four_sitout")."""
        for kind, games in self.games_per_round:
            if kind == table_kind:
                return games
        raise ScoringError([FieldError.of("table_kind", M.UNKNOWN_TABLE_KIND, kind=table_kind)])

    @cached_property
    def memo(self) -> dict[object, Any]:
        """Values computed from this rule set (meld sets, bounds), kept with it: a lookup here
        costs less than hashing the meld table for a shared cache on every entry checked."""
        return {}

    @cached_property
    def deck_size(self) -> int:
        return len(deck_ranks(self.sevens)) * len(SUITS) * COPIES

    def hand_size(self, parties: int) -> int | None:
        """Cards per hand in a game of ``parties`` parties (3 players or 2 pairs); None when the
        rule set has no such game."""
        shape = {3: "three", 2: "pairs"}.get(parties)
        return None if shape is None else self._hands.get(shape)

    @cached_property
    def _hands(self) -> Mapping[str, int]:
        return MappingProxyType(dict(self.hand_cards))

    @property
    def pair_hand_cards(self) -> int | None:
        """Cards per partner at a pair table (None: this rule set has no pair tables)."""
        return self.hand_size(2)

    @property
    def table_kinds(self) -> tuple[str, ...]:
        """The table kinds this rule set plays: a 3-table and the 4-table whose dealer sits
        out always, a pair table where the partners have a hand size."""
        return tuple(k for k in TABLE_KINDS if k != "pairs" or self.pair_hand_cards is not None)

    def trick_points(self, eyes: int) -> int:
        """The trick points of ``eyes`` eyes, before any rounding (``trick_scaling``)."""
        points = eyes
        factor = 1
        for threshold, times in self.trick_scaling:
            if eyes > threshold:
                points += (times - factor) * (eyes - threshold)
            factor = times
        return points

    @property
    def penalties(self) -> bool:
        """Whether minus points (penalties) are entered in this rule set's games."""
        return bool(self.penalty_values)

    def dabb_size(self, parties: int) -> int:
        """The cards of the Dabb (the declarer takes and presses them) in such a game."""
        hand = self.hand_size(parties)
        players = HAND_SHAPES["three" if parties == 3 else "pairs"]
        return 0 if hand is None else self.deck_size - players * hand

    @cached_property
    def _deck_eyes(self) -> tuple[int, ...]:
        """The eyes of every card of the deck, cheapest first."""
        eyes = dict(self.card_eyes)
        ranks = deck_ranks(self.sevens)
        return tuple(sorted(eyes[rank.value] for rank in ranks for _ in range(len(SUITS) * COPIES)))

    @cached_property
    def total_eyes(self) -> int:
        """The eyes of a game: every card, and 10 for the last trick (250 with ejl cards)."""
        return sum(self._deck_eyes) + self.last_trick_bonus

    def trick_min_eyes(self, parties: int) -> int:
        """The fewest eyes of a party that took a trick: a trick holds a card of every player
        (docs/rules.md "Plausibility": 3 Unter, 6 eyes, at a 3-table; 4 Unter, 8, at a pair
        table)."""
        key = ("trick_min_eyes", parties)
        if key not in self.memo:
            players = HAND_SHAPES["three" if parties == 3 else "pairs"]
            self.memo[key] = sum(self._deck_eyes[:players])
        return int(self.memo[key])

    def pressed_eyes(self, parties: int) -> tuple[int, int]:
        """The fewest and the most eyes the cards a declarer presses can hold (the Dabb)."""
        key = ("pressed_eyes", parties)
        if key not in self.memo:
            dabb, eyes = self.dabb_size(parties), self._deck_eyes
            self.memo[key] = (sum(eyes[:dabb]), sum(eyes[len(eyes) - dabb :]))
        least, most = self.memo[key]
        return int(least), int(most)

    @cached_property
    def suit_melds_in_play(self) -> tuple[SuitMeld, ...]:
        """The suit melds that count: ``suit_melds``, and with the sevens the Diss (``DISS``)
        where no suit meld names a seven or the key ``diss``."""
        if not self.sevens or any(
            meld.key == DISS.key or Rank.SIEBEN in meld.cards for meld in self.suit_melds
        ):
            return self.suit_melds
        return (*self.suit_melds, DISS)

    @cached_property
    def meld_table(self) -> MeldTable:
        """The meld table of this rule set (what every meld is worth)."""
        return MeldTable(
            suit_melds=self.suit_melds_in_play,
            four=rank_values_of(self.four_of_a_rank),
            eight=rank_values_of(self.eight_of_a_rank),
            binokel=self.binokel_value,
            doppelbinokel=self.doppelbinokel_value,
            rundlauf=self.rundlauf_value,
            rundlauf_with_familie=self.rundlauf_with_familie_value,
        )

    @property
    def meld_key(self) -> MeldTable:
        """What changes which meld totals a hand can show (a cache key: equal tables share
        their meld sets, different ones never do)."""
        return self.meld_table

    # --- JSON --------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("games_per_round", "hand_cards"):
                value = dict(value)
            elif f.name in ("tie_breaks", "game_kinds"):
                value = [str(item) for item in value]
            elif f.name == "trick_scaling":
                value = [list(item) for item in value]
            elif f.name == "penalty_values":
                value = list(value)
            elif f.name == "suit_melds":
                value = [meld.to_dict() for meld in value]
            elif f.name in (*_RANK_VALUE_FIELDS, "card_eyes"):
                value = rank_values_dict(value)
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: object) -> RuleSet:
        """Build a rule set from a JSON object; missing rules keep their ejl default.

        Raises ScoringError naming every problem: unknown rules, values of the wrong type (read
        as unknown) and values out of range, in the order of the fields."""
        if not isinstance(data, Mapping):
            raise ScoringError([FieldError.of("", M.NOT_AN_OBJECT)])
        errors: list[FieldError] = []
        readable: dict[str, Any] = {}
        data = dict(data)
        legacy = data.pop(_LEGACY_DOUBLE_FAMILIE, None)
        if legacy is not None and not isinstance(legacy, bool):
            errors.append(FieldError.of(_LEGACY_DOUBLE_FAMILIE, M.NOT_A_BOOLEAN))
        elif legacy is False:
            data = _double_familie_once(data)
        for key, value in data.items():
            if key not in _PARSERS:
                errors.append(FieldError.of(str(key), M.UNKNOWN_RULE, name=key))
                continue
            parsed = _PARSERS[key](key, value, errors)
            if parsed is not None:
                readable[key] = parsed
        # Check the values that could be read (the defaults stand in for the rest).
        errors.extend(_check_values({**_DEFAULTS, **readable}))
        if errors:
            errors.sort(key=_field_order)
            raise ScoringError(errors)
        return cls(**readable)

    def to_json(self) -> str:
        """The JSON text of this rule set (what ``python -m scoring rules`` prints)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2)

    @classmethod
    def from_json(cls, text: str | bytes) -> RuleSet:
        return cls.from_dict(load_json(text))

    # --- for people ----------------------------------------------------------------------------
    def describe(self, lang: str = DEFAULT_LANGUAGE) -> list[str]:
        """Short lines stating this rule set's scoring, e.g. for the foot of a score sheet."""

        def t(msgid: str, **params: object) -> str:
            return translate(msgid, lang).format(**params)

        lines = [
            t(M.DESCRIBE_BID, min_bid=self.min_bid, step=self.bid_step),
            t(M.DESCRIBE_WON),
            t(M.DESCRIBE_LOST_EXTRA, factor=self.lost_factor, extra=self.lost_extra)
            if self.lost_extra
            else t(M.DESCRIBE_LOST, factor=self.lost_factor),
            t(
                M.DESCRIBE_OPPONENTS_HALF_BID
                if self.opponents_half_bid_on_lost
                else M.DESCRIBE_OPPONENTS
            ),
        ]
        lines.append(self._describe_conceded(t))
        if self.plays(GameKind.DURCH):
            lines.append(t(M.DESCRIBE_DURCH, won=self.durch_won, factor=self.durch_lost_factor))
        else:
            lines.append(t(M.DESCRIBE_NO_DURCH))
        if self.plays(GameKind.DURCH_AUFGELEGT):
            lines.append(
                t(
                    M.DESCRIBE_DURCH_AUFGELEGT,
                    won=self.durch_aufgelegt_won,
                    factor=self.durch_aufgelegt_lost_factor,
                )
            )
        if self.plays(GameKind.BETTEL):
            lines.append(t(M.DESCRIBE_BETTEL, won=self.bettel_won, factor=self.bettel_lost_factor))
        lines.append(
            t(M.DESCRIBE_ROUND10 if self.trick_rounding == "round10" else M.DESCRIBE_NO_ROUNDING)
        )
        eyes = dict(self.card_eyes)
        if eyes != {rank.value: EYES[rank] for rank in Rank} or self.last_trick_bonus != 10:
            lines.append(
                t(
                    M.DESCRIBE_EYES,
                    A=eyes["A"],
                    Z=eyes["10"],
                    K=eyes["K"],
                    O=eyes["O"],
                    U=eyes["U"],
                    last=self.last_trick_bonus,
                )
            )
        lines.append(
            t(
                M.DESCRIBE_MELD_NEEDS_TRICK
                if self.meld_needs_trick
                else M.DESCRIBE_MELD_WITHOUT_TRICK
            )
        )
        lines.append(t(M.DESCRIBE_REVOKE))
        if self.rundlauf_value:
            lines.append(
                t(
                    M.DESCRIBE_RUNDLAUF,
                    value=self.rundlauf_value,
                    with_familie=self.rundlauf_with_familie_value,
                )
            )
        else:
            lines.append(t(M.DESCRIBE_NO_RUNDLAUF))
        lines.extend(self._describe_double_familie(t))
        if self.eight_of_a_rank != CLASSIC_EIGHT:
            values = ", ".join(
                f"{translate(M.RANK_NAMES[label], lang)} {value}"
                for label, value in self.eight_of_a_rank
                if value
            )
            lines.append(t(M.DESCRIBE_EIGHT, values=values))
        lines.extend(self._describe_cards_and_points(t))
        games = dict(self.games_per_round)
        if self.pair_hand_cards is None:
            lines.append(t(M.DESCRIBE_ROUNDS_NO_PAIRS, rounds=self.rounds, **games))
        else:
            lines.append(t(M.DESCRIBE_ROUNDS, rounds=self.rounds, **games))
        if self.tie_breaks:
            labels = [translate(TIE_BREAKS[key], lang) for key in self.tie_breaks]
            lines.append(t(M.DESCRIBE_TIES, order=translate(M.TIE_BREAK_THEN, lang).join(labels)))
        else:
            lines.append(t(M.DESCRIBE_TIES_SHARED))
        return lines

    def describe_melds(self, lang: str = DEFAULT_LANGUAGE) -> list[tuple[str, str]]:
        """The meld table as (meld, points) rows, e.g. for a score sheet or the desk:
        ``("Paar (K O)", "20 / Trumpf 40")``. Only melds worth something are listed."""

        def t(msgid: str, **params: object) -> str:
            return translate(msgid, lang).format(**params)

        rows: list[tuple[str, str]] = []
        for meld in self.suit_melds_in_play:
            label = M.SUIT_MELD_NAMES.get(meld.key)
            name = translate(label, lang) if label else meld.key
            title = f"{name} ({meld.cards_text()})"
            if meld.plain == meld.trump:
                rows.append((title, str(meld.plain)))
            elif meld.plain:
                rows.append((title, t(M.MELD_POINTS_TRUMP, plain=meld.plain, trump=meld.trump)))
            else:
                rows.append((title, t(M.MELD_POINTS_ONLY_TRUMP, trump=meld.trump)))
        four, eight = dict(self.four_of_a_rank), dict(self.eight_of_a_rank)
        for rank in Rank:
            if four[rank.value] or eight[rank.value]:
                name = translate(M.RANK_NAMES[rank.value], lang)
                rows.append(
                    (
                        name,
                        t(
                            M.MELD_POINTS_FOUR_EIGHT,
                            four=four[rank.value],
                            eight=eight[rank.value] or four[rank.value],
                        ),
                    )
                )
        if self.binokel_value or self.doppelbinokel_value:
            rows.append(
                (
                    t(M.MELD_NAME_BINOKEL),
                    t(
                        M.MELD_POINTS_BINOKEL,
                        one=self.binokel_value,
                        two=self.doppelbinokel_value or self.binokel_value,
                    ),
                )
            )
        if self.rundlauf_value:
            rows.append(
                (
                    t(M.MELD_NAME_RUNDLAUF),
                    t(
                        M.MELD_POINTS_RUNDLAUF,
                        value=self.rundlauf_value,
                        with_familie=self.rundlauf_with_familie_value,
                    ),
                )
            )
        return rows

    def _describe_cards_and_points(self, t: Callable[..., str]) -> list[str]:
        """The deck, the trick points and the minus points, where they differ from ejl."""
        lines = []
        if self.sevens or self.hand_cards != EJL_HAND_CARDS:
            deck, three, dabb = self.deck_size, self.hand_size(3), self.dabb_size(3)
            lines.append(t(M.DESCRIBE_DECK, deck=deck, three=three, dabb=dabb))
        if self.trick_scaling:
            steps = [t(M.DESCRIBE_SCALING_STEP, at=at, times=n) for at, n in self.trick_scaling]
            lines.append(t(M.DESCRIBE_SCALING, steps=", ".join(steps)))
        if self.penalty_values:
            values = ", ".join(map(str, self.penalty_values))
            before = self.penalty_before_scaling
            msgid = M.DESCRIBE_PENALTIES_BEFORE if before else M.DESCRIBE_PENALTIES_AFTER
            lines.append(t(msgid, values=values))
        return lines

    def _describe_conceded(self, t: Callable[..., str]) -> str:
        if not self.plays(GameKind.CONCEDED):
            return t(M.DESCRIBE_NO_CONCEDING)
        if self.conceded_opponent_mode == "per_player":
            return t(
                M.DESCRIBE_CONCEDED_PER_PLAYER,
                factor=self.conceded_declarer_factor,
                bonus=self.conceded_bonus_per_player,
            )
        if self.conceded_opponent_mode == "per_opponent":
            return t(
                M.DESCRIBE_CONCEDED_PER_OPPONENT,
                factor=self.conceded_declarer_factor,
                bonus=self.conceded_bonus_per_opponent,
            )
        return t(M.DESCRIBE_CONCEDED_HALF_BID, factor=self.conceded_declarer_factor)

    def _describe_double_familie(self, t: Callable[..., str]) -> list[str]:
        melds = {meld.key: meld for meld in self.suit_melds}
        double, familie, paar = (melds.get(k) for k in ("doppelfamilie", "familie", PAAR_KEY))
        if familie is None:
            return []
        if double is None or (double.plain, double.trump) == (2 * familie.plain, 2 * familie.trump):
            return [t(M.DESCRIBE_DOUBLE_FAMILIE_TWICE)]
        if paar is not None and (double.plain, double.trump) == (
            familie.plain + paar.plain,
            familie.trump + paar.trump,
        ):
            return [t(M.DESCRIBE_DOUBLE_FAMILIE_ONCE)]
        return [t(M.DESCRIBE_DOUBLE_FAMILIE_VALUE, plain=double.plain, trump=double.trump)]


# --- value checks (run on every RuleSet, however it was built) ---------------------------------
def _check_values(values: Mapping[str, Any]) -> list[FieldError]:
    """Problems of the values of every field (of the right type; in ``games_per_round`` and
    ``tie_breaks`` an entry of the wrong type may be None: it is reported already)."""
    errors: list[FieldError] = []
    for name, minimum in _INT_FIELDS_MIN.items():
        value = values[name]
        if value < minimum:
            errors.append(FieldError.of(name, M.MUST_BE_AT_LEAST, min=minimum, value=value))
        elif name in _MELD_VALUE_FIELDS and value % 10:
            errors.append(FieldError.of(name, M.MUST_BE_MULTIPLE_OF_10, value=value))
    for name, choices in _CHOICE_FIELDS.items():
        value = values[name]
        if value not in choices:
            errors.append(
                FieldError.of(name, M.MUST_BE_ONE_OF, choices=", ".join(choices), value=value)
            )
    if not values["name"].strip():
        errors.append(FieldError.of("name", M.MUST_NOT_BE_EMPTY))
    errors.extend(_check_game_kinds(values["game_kinds"]))
    errors.extend(check_suit_melds("suit_melds", values["suit_melds"]))
    for name in _RANK_VALUE_FIELDS:
        errors.extend(check_rank_values(name, values[name]))
    errors.extend(check_rank_values("card_eyes", values["card_eyes"], meld_values=False))
    if values["rundlauf_value"] > 0 and not any(
        meld is not None and meld.key == PAAR_KEY and sorted(meld.cards) == sorted("KO")
        for meld in values["suit_melds"]
    ):
        errors.append(FieldError.of("rundlauf_value", M.RUNDLAUF_NEEDS_PAAR))
    errors.extend(_check_hand_cards(values["hand_cards"], values["sevens"]))
    errors.extend(_check_trick_scaling(values["trick_scaling"]))
    errors.extend(_check_penalty_values(values["penalty_values"]))
    errors.extend(_check_games_per_round(values["games_per_round"]))
    errors.extend(_check_tie_breaks(values["tie_breaks"]))
    return errors


def _check_games_per_round(value: Sequence[tuple[str, int | None]]) -> list[FieldError]:
    field = "games_per_round"
    errors: list[FieldError] = []
    seen: list[str] = []
    for kind, games in value:
        sub = f"{field}.{kind}"
        if kind not in TABLE_KINDS:
            errors.append(FieldError.of(sub, M.UNKNOWN_TABLE_KIND, kind=kind))
        elif kind in seen:
            errors.append(FieldError.of(sub, M.DUPLICATE_ENTRY, value=kind))
        else:
            seen.append(kind)
        if games is not None and games < 1:
            errors.append(FieldError.of(sub, M.MUST_BE_AT_LEAST, min=1, value=games))
    missing = [kind for kind in TABLE_KINDS if kind not in seen]
    if missing:
        errors.append(FieldError.of(field, M.TABLE_KINDS_MISSING, kinds=", ".join(missing)))
    return errors


def _check_trick_scaling(value: Sequence[tuple[int, int]]) -> list[FieldError]:
    errors: list[FieldError] = []
    threshold, factor = 0, 1
    for i, (at, times) in enumerate(value):
        if at < threshold or (i and at == threshold):
            errors.append(FieldError.of(f"trick_scaling[{i}]", M.SCALING_ORDER, value=at))
        if times < factor:
            errors.append(
                FieldError.of(f"trick_scaling[{i}]", M.MUST_BE_AT_LEAST, min=factor, value=times)
            )
        threshold, factor = at, max(factor, times)
    return errors


def _check_penalty_values(value: Sequence[int]) -> list[FieldError]:
    errors = []
    for i, points in enumerate(value):
        if points < 1:
            errors.append(
                FieldError.of(f"penalty_values[{i}]", M.MUST_BE_AT_LEAST, min=1, value=points)
            )
        elif points in value[:i]:
            errors.append(FieldError.of(f"penalty_values[{i}]", M.DUPLICATE_ENTRY, value=points))
    return errors


def _check_game_kinds(value: Sequence[GameKind | None]) -> list[FieldError]:
    field = "game_kinds"
    errors = [
        FieldError.of(f"{field}[{i}]", M.DUPLICATE_ENTRY, value=kind.value)
        for i, kind in enumerate(value)
        if kind is not None and kind in value[:i]
    ]
    if None not in value and GameKind.PLAYED not in value:
        errors.append(FieldError.of(field, M.GAME_KINDS_WITHOUT_PLAYED))
    return errors


def _check_hand_cards(value: Sequence[tuple[str, int | None]], sevens: bool) -> list[FieldError]:
    field = "hand_cards"
    errors: list[FieldError] = []
    seen: list[str] = []
    deck = len(deck_ranks(sevens)) * len(SUITS) * COPIES
    for shape, cards in value:
        sub = f"{field}.{shape}"
        if shape not in HAND_SHAPES:
            errors.append(FieldError.of(sub, M.UNKNOWN_HAND_SHAPE, shape=shape))
            continue
        if shape in seen:
            errors.append(FieldError.of(sub, M.DUPLICATE_ENTRY, value=shape))
        seen.append(shape)
        if cards is None:
            continue
        players = HAND_SHAPES[shape]
        if cards < 1:
            errors.append(FieldError.of(sub, M.MUST_BE_AT_LEAST, min=1, value=cards))
        elif players * cards > deck:
            errors.append(
                FieldError.of(sub, M.HANDS_EXCEED_DECK, players=players, cards=cards, deck=deck)
            )
    if "three" not in seen:
        errors.append(FieldError.of(field, M.TABLE_KINDS_MISSING, kinds="three"))
    return errors


def _check_tie_breaks(value: Sequence[str | None]) -> list[FieldError]:
    field = "tie_breaks"
    errors: list[FieldError] = []
    for i, key in enumerate(value):
        if key is None:
            continue
        if not key.strip():
            errors.append(FieldError.of(f"{field}[{i}]", M.MUST_NOT_BE_EMPTY))
        elif key in value[:i]:
            errors.append(FieldError.of(f"{field}[{i}]", M.DUPLICATE_ENTRY, value=key))
        elif key not in TIE_BREAKS:
            errors.append(
                FieldError.of(field, M.UNKNOWN_TIE_BREAK, key=key, choices=", ".join(TIE_BREAKS))
            )
    return errors


def _field_order(error: FieldError) -> int:
    """Sort key of a rule set's error: the position of its rule (unknown rules last)."""
    name = re.split(r"[.\[]", error.field, maxsplit=1)[0]
    return _FIELD_INDEX.get(name, len(_FIELD_INDEX))


# --- types: what a field holds (for a RuleSet built in code) ---------------------------------
def _is_games_per_round(value: object) -> bool:
    return isinstance(value, tuple) and all(
        isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str) and is_int(item[1])
        for item in value
    )


def _is_int_pairs(value: object) -> bool:
    return isinstance(value, tuple) and all(
        isinstance(item, tuple) and len(item) == 2 and is_int(item[0]) and is_int(item[1])
        for item in value
    )


def _is_ints(value: object) -> bool:
    return isinstance(value, tuple) and all(is_int(item) for item in value)


def _is_tie_breaks(value: object) -> bool:
    return isinstance(value, tuple) and all(isinstance(key, str) for key in value)


def _is_suit_melds(value: object) -> bool:
    return isinstance(value, tuple) and all(
        isinstance(meld, SuitMeld)
        and isinstance(meld.key, str)
        and isinstance(meld.cards, tuple)
        and all(isinstance(rank, Rank) for rank in meld.cards)
        and is_int(meld.plain)
        and is_int(meld.trump)
        for meld in value
    )


def _is_game_kinds(value: object) -> bool:
    return isinstance(value, tuple) and all(isinstance(kind, GameKind) for kind in value)


def _is_bool(value: object) -> bool:
    return isinstance(value, bool)


def _is_str(value: object) -> bool:
    return isinstance(value, str)


_HAS_TYPE: Mapping[str, Callable[[object], bool]] = MappingProxyType(
    {
        "name": _is_str,
        **{name: is_int for name in _INT_FIELDS_MIN},
        **{name: _is_bool for name in _BOOL_FIELDS},
        **{name: _is_str for name in _CHOICE_FIELDS},
        "game_kinds": _is_game_kinds,
        "sevens": _is_bool,
        "card_eyes": _is_games_per_round,
        "hand_cards": _is_games_per_round,
        "trick_scaling": _is_int_pairs,
        "penalty_values": _is_ints,
        "suit_melds": _is_suit_melds,
        **{name: _is_games_per_round for name in ("four_of_a_rank", "eight_of_a_rank")},
        "games_per_round": _is_games_per_round,
        "tie_breaks": _is_tie_breaks,
    }
)


# --- JSON type parsers (one per field kind): None = unreadable, reported in ``errors`` --------
def _parse_int(key: str, value: object, errors: list[FieldError]) -> object:
    if not is_int(value):
        errors.append(FieldError.of(key, M.NOT_AN_INTEGER))
        return None
    return value


def _parse_bool(key: str, value: object, errors: list[FieldError]) -> object:
    if not isinstance(value, bool):
        errors.append(FieldError.of(key, M.NOT_A_BOOLEAN))
        return None
    return value


def _parse_str(key: str, value: object, errors: list[FieldError]) -> object:
    if not isinstance(value, str):
        errors.append(FieldError.of(key, M.NOT_TEXT))
        return None
    return value


def _parse_games_per_round(key: str, value: object, errors: list[FieldError]) -> object:
    """{"three": 12, ...} (as written by to_dict) or [["three", 12], ...]; a count of the wrong
    type is reported and read as None (unknown)."""
    if isinstance(value, Mapping):
        items = list(value.items())
    elif isinstance(value, list) and all(
        isinstance(item, list) and len(item) == 2 for item in value
    ):
        items = [(item[0], item[1]) for item in value]
    else:
        errors.append(FieldError.of(key, M.NOT_AN_OBJECT))
        return None
    parsed: list[tuple[str, int | None]] = []
    for kind, games in items:
        if not is_int(games):
            errors.append(FieldError.of(f"{key}.{kind}", M.NOT_AN_INTEGER))
            games = None
        parsed.append((str(kind), games))
    return tuple(parsed)


def _parse_game_kinds(key: str, value: object, errors: list[FieldError]) -> object:
    """A list of kinds ("played", "conceded", "durch", ...); an unknown entry is reported and
    read as None."""
    if not isinstance(value, list):
        errors.append(FieldError.of(key, M.NOT_A_LIST))
        return None
    parsed: list[GameKind | None] = []
    choices = ", ".join(kind.value for kind in GameKind)
    for i, item in enumerate(value):
        if item not in {kind.value for kind in GameKind}:
            errors.append(FieldError.of(f"{key}[{i}]", M.UNKNOWN_KIND, value=item, choices=choices))
            parsed.append(None)
        else:
            parsed.append(GameKind(item))
    return tuple(parsed)


def _parse_trick_scaling(key: str, value: object, errors: list[FieldError]) -> object:
    """``[[60, 2], [120, 3], ...]``: from each threshold on, every eye counts this often."""
    if not isinstance(value, list) or not all(
        isinstance(item, list) and len(item) == 2 for item in value
    ):
        errors.append(FieldError.of(key, M.NOT_PAIRS))
        return None
    parsed = []
    for i, (threshold, times) in enumerate(value):
        if not (is_int(threshold) and is_int(times)):
            errors.append(FieldError.of(f"{key}[{i}]", M.NOT_AN_INTEGER))
            return None
        parsed.append((threshold, times))
    return tuple(parsed)


def _parse_ints(key: str, value: object, errors: list[FieldError]) -> object:
    if not isinstance(value, list):
        errors.append(FieldError.of(key, M.NOT_A_LIST))
        return None
    wrong = [i for i, item in enumerate(value) if not is_int(item)]
    for i in wrong:
        errors.append(FieldError.of(f"{key}[{i}]", M.NOT_AN_INTEGER))
    return None if wrong else tuple(value)


def _parse_tie_breaks(key: str, value: object, errors: list[FieldError]) -> object:
    """A list of keys; an entry of the wrong type is reported and read as None (unknown)."""
    if not isinstance(value, list):
        errors.append(FieldError.of(key, M.NOT_A_LIST))
        return None
    parsed: list[str | None] = []
    for i, item in enumerate(value):
        if not isinstance(item, str):
            errors.append(FieldError.of(f"{key}[{i}]", M.NOT_TEXT))
            item = None
        parsed.append(item)
    return tuple(parsed)


_Parser = Callable[[str, object, list[FieldError]], object]
_PARSERS: Mapping[str, _Parser] = MappingProxyType(
    {
        "name": _parse_str,
        **{name: _parse_int for name in _INT_FIELDS_MIN},
        **{name: _parse_bool for name in _BOOL_FIELDS},
        **{name: _parse_str for name in _CHOICE_FIELDS},
        "game_kinds": _parse_game_kinds,
        "sevens": _parse_bool,
        "card_eyes": parse_rank_values,
        "hand_cards": _parse_games_per_round,
        "trick_scaling": _parse_trick_scaling,
        "penalty_values": _parse_ints,
        "suit_melds": parse_suit_melds,
        **{name: parse_rank_values for name in ("four_of_a_rank", "eight_of_a_rank")},
        "games_per_round": _parse_games_per_round,
        "tie_breaks": _parse_tie_breaks,
    }
)
_RANK_VALUE_FIELDS = ("four_of_a_rank", "eight_of_a_rank")

# Rule sets saved before the double Familie became a value (issue 9) said
# "double_familie_counts_twice": false for "one Familie and one Paar": read as that value.
_LEGACY_DOUBLE_FAMILIE = "double_familie_counts_twice"


def _double_familie_once(data: dict[str, Any]) -> dict[str, Any]:
    melds = data.get("suit_melds", [meld.to_dict() for meld in CLASSIC_SUIT_MELDS])
    if not isinstance(melds, list) or not all(isinstance(m, Mapping) for m in melds):
        return data  # reported when the suit melds are read
    by_key = {m.get("key"): m for m in melds}
    familie, paar = by_key.get("familie"), by_key.get(PAAR_KEY)
    if familie is None or paar is None:
        return data
    changed = []
    for meld in melds:
        if meld.get("key") == "doppelfamilie":
            # a broken entry is reported when the suit melds are read
            with contextlib.suppress(KeyError, TypeError):
                meld = {
                    **meld,
                    "plain": familie["plain"] + paar["plain"],
                    "trump": familie["trump"] + paar["trump"],
                }
        changed.append(meld)
    return {**data, "suit_melds": changed}


# --- presets ---------------------------------------------------------------------------------
EJL = RuleSet()

_DEFAULTS: Mapping[str, Any] = MappingProxyType({f.name: f.default for f in fields(RuleSet)})
_FIELD_INDEX: Mapping[str, int] = MappingProxyType(
    {f.name: i for i, f in enumerate(fields(RuleSet))}
)
