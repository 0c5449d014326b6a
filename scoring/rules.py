"""Rule sets: every rule that varies between regions is a field of one frozen dataclass.

The default (``RuleSet()``, preset ``ejl``) is exactly ``RULES.md``. A rule set loads from and
saves to JSON; loading reports every problem at once, addressed to the rule's name: a value of the
wrong type is reported and the other rules are still checked. A rule set built in code is checked
too (``ScoringError`` for a value out of range); a wrong type there is a bug (``TypeError``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any

from scoring import messages as M
from scoring.errors import DEFAULT_LANGUAGE, FieldError, ScoringError, translate
from scoring.reading import is_int, load_json

TABLE_KINDS: tuple[str, ...] = ("three", "pairs", "four_sitout")
CONCEDED_OPPONENT_MODES: tuple[str, ...] = ("half_bid", "per_player")
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
        "conceded_declarer_factor": 0,
        "conceded_bonus_per_player": 0,
        "durch_won": 0,
        "durch_lost_factor": 0,
        "rundlauf_value": 0,
        "rundlauf_with_familie_value": 0,
        "rounds": 1,
    }
)
_MELD_VALUE_FIELDS = ("rundlauf_value", "rundlauf_with_familie_value")
_BOOL_FIELDS = (
    "meld_needs_trick",
    "opponents_half_bid_on_lost",
    "double_familie_counts_twice",
    "durch_player_deals_next",
    "four_sitout_keeps_rotation",
)
_CHOICE_FIELDS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "conceded_opponent_mode": CONCEDED_OPPONENT_MODES,
        "trick_rounding": TRICK_ROUNDINGS,
    }
)


@dataclass(frozen=True)
class RuleSet:
    """How games are scored and how a competition is played (defaults: the ejl rulebook)."""

    name: str = "ejl"
    min_bid: int = 150
    bid_step: int = 10
    # Lost game: the declarer scores -lost_factor * bid (rule 9).
    lost_factor: int = 2
    # Conceded game: the declarer scores -conceded_declarer_factor * bid (rule 6).
    conceded_declarer_factor: int = 1
    # "half_bid": every opponent gets ceil10(bid / 2) + its meld (ejl rule 6);
    # "per_player": its meld + conceded_bonus_per_player for every player in the game (classic):
    # 3 at a 3-table and at a 4-table whose dealer sits out, 4 at a pair table.
    conceded_opponent_mode: str = "half_bid"
    conceded_bonus_per_player: int = 10
    durch_won: int = 1000
    durch_lost_factor: int = 2
    # Rule 14: after a Durch the Durch player deals the next game, the rotation goes on from there.
    durch_player_deals_next: bool = True
    # Decision (RULES.md): at a 4-table whose dealer sits out, the printed rotation stays after a
    # Durch, so that everyone still plays the same number of games.
    four_sitout_keeps_rotation: bool = True
    # "round10": to the nearest 10, 5 rounds up (rule 11); "none": exact eyes.
    trick_rounding: str = "round10"
    # Rule 13: a party that took no trick loses its meld.
    meld_needs_trick: bool = True
    # Preisbinokel: on a lost game the opponents also get ceil10(bid / 2).
    opponents_half_bid_on_lost: bool = False
    rundlauf_value: int = 240
    # Rule 15: Rundlauf together with a Familie.
    rundlauf_with_familie_value: int = 200
    double_familie_counts_twice: bool = True
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

    # --- queries -----------------------------------------------------------------------------
    def games_for(self, table_kind: str) -> int:
        """Games per round at a table of this kind ("three", "pairs", "four_sitout")."""
        for kind, games in self.games_per_round:
            if kind == table_kind:
                return games
        raise ScoringError([FieldError.of("table_kind", M.UNKNOWN_TABLE_KIND, kind=table_kind)])

    @property
    def meld_key(self) -> tuple[int, int, bool]:
        """The fields that change which meld totals a hand can show (a cache key)."""
        return (
            self.rundlauf_value,
            self.rundlauf_with_familie_value,
            self.double_familie_counts_twice,
        )

    # --- JSON --------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "games_per_round":
                value = dict(value)
            elif f.name == "tie_breaks":
                value = list(value)
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
            t(M.DESCRIBE_LOST, factor=self.lost_factor),
            t(
                M.DESCRIBE_OPPONENTS_HALF_BID
                if self.opponents_half_bid_on_lost
                else M.DESCRIBE_OPPONENTS
            ),
        ]
        if self.conceded_opponent_mode == "per_player":
            lines.append(
                t(
                    M.DESCRIBE_CONCEDED_PER_PLAYER,
                    factor=self.conceded_declarer_factor,
                    bonus=self.conceded_bonus_per_player,
                )
            )
        else:
            lines.append(t(M.DESCRIBE_CONCEDED_HALF_BID, factor=self.conceded_declarer_factor))
        lines.append(t(M.DESCRIBE_DURCH, won=self.durch_won, factor=self.durch_lost_factor))
        lines.append(
            t(M.DESCRIBE_ROUND10 if self.trick_rounding == "round10" else M.DESCRIBE_NO_ROUNDING)
        )
        lines.append(
            t(
                M.DESCRIBE_MELD_NEEDS_TRICK
                if self.meld_needs_trick
                else M.DESCRIBE_MELD_WITHOUT_TRICK
            )
        )
        lines.append(t(M.DESCRIBE_REVOKE))
        lines.append(
            t(
                M.DESCRIBE_RUNDLAUF,
                value=self.rundlauf_value,
                with_familie=self.rundlauf_with_familie_value,
            )
        )
        lines.append(
            t(
                M.DESCRIBE_DOUBLE_FAMILIE_TWICE
                if self.double_familie_counts_twice
                else M.DESCRIBE_DOUBLE_FAMILIE_ONCE
            )
        )
        lines.append(t(M.DESCRIBE_ROUNDS, rounds=self.rounds, **dict(self.games_per_round)))
        if self.tie_breaks:
            labels = [translate(TIE_BREAKS[key], lang) for key in self.tie_breaks]
            lines.append(t(M.DESCRIBE_TIES, order=translate(M.TIE_BREAK_THEN, lang).join(labels)))
        else:
            lines.append(t(M.DESCRIBE_TIES_SHARED))
        return lines


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


def _is_tie_breaks(value: object) -> bool:
    return isinstance(value, tuple) and all(isinstance(key, str) for key in value)


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
        "games_per_round": _parse_games_per_round,
        "tie_breaks": _parse_tie_breaks,
    }
)

# --- presets ---------------------------------------------------------------------------------
EJL = RuleSet()

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
    opponents_half_bid_on_lost=True,
    rounds=3,
    # 15 games at every table; at a 4-table with a sitting-out dealer everyone still plays 15
    # (each of the four deals 5 games).
    games_per_round=(("three", 15), ("pairs", 15), ("four_sitout", 20)),
)

_DEFAULTS: Mapping[str, Any] = MappingProxyType({f.name: f.default for f in fields(RuleSet)})
_FIELD_INDEX: Mapping[str, int] = MappingProxyType(
    {f.name: i for i, f in enumerate(fields(RuleSet))}
)

PRESETS: Mapping[str, RuleSet] = MappingProxyType(
    {rules.name: rules for rules in (EJL, KLASSISCH, PREISBINOKEL)}
)


def get_preset(name: str) -> RuleSet:
    """The preset rule set called ``name`` ("ejl", "klassisch", "preisbinokel")."""
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise ScoringError(
            [FieldError.of("preset", M.UNKNOWN_PRESET, name=name, choices=", ".join(PRESETS))]
        ) from None
