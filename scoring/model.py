"""The plain data the engine takes and returns: one game in, the points of its parties out.

JSON shape (docs/architecture.md "Command-line contracts")::

    {"kind": "played", "declarer": 0, "bid": 200,
     "parties": [{"meld": 60, "tricks": 152}, {"meld": 20, "tricks": 58},
                 {"meld": 0, "tricks": 40}],
     "revoked": []}

A party is a player at a 3-table (three parties, 12-card hands) or a pair at a pair table (two
parties; meld and tricks are the sums of both partners). ``took_trick`` is only needed for a
declarer who took no trick: the declarer's tricks always include the pressed cards, so they are
not 0 even then. A party may carry ``"penalty"``: its minus points in this game, where the rule
set has penalties (Luxusfamilie's Farbkarten).

``GameInput.read`` is the type boundary: it reads what it can of a JSON object and reports every
value of the wrong type; the engine's ``read_game`` then validates the rest of the entry, so one
answer names every problem. Past that boundary the fields hold the types they are annotated with
(``None`` meaning "not entered"); a wrong type built in code is a bug and raises ``TypeError``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from scoring import messages as M
from scoring.errors import FieldError, ScoringError
from scoring.kinds import GameKind as GameKind  # re-exported: the kinds of a game
from scoring.reading import is_int


@dataclass(frozen=True)
class PartyInput:
    meld: int | None = None
    tricks: int | None = None
    # Only meaningful for the declarer: False = took no trick (tricks then are only pressed cards).
    took_trick: bool | None = None
    # Minus points given to this party in this game (Luxusfamilie's Farbkarten, docs/rules.md
    # "luxusfamilie": the sum of 20, 50 and 100), where the rule set has penalties
    # (RuleSet.penalty_values).
    penalty: int | None = None

    def __post_init__(self) -> None:
        _require_int("PartyInput.meld", self.meld)
        _require_int("PartyInput.tricks", self.tricks)
        _require_int("PartyInput.penalty", self.penalty)
        if self.took_trick is not None and not isinstance(self.took_trick, bool):
            raise TypeError(f"PartyInput.took_trick must be a bool or None: {self.took_trick!r}")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"meld": self.meld, "tricks": self.tricks}
        if self.took_trick is not None:
            out["took_trick"] = self.took_trick
        if self.penalty is not None:
            out["penalty"] = self.penalty
        return out


@dataclass(frozen=True)
class GameInput:
    kind: GameKind | None
    declarer: int | None
    bid: int | None
    parties: tuple[PartyInput, ...]
    revoked: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.kind is not None and not isinstance(self.kind, GameKind):
            raise TypeError(f"GameInput.kind must be a GameKind or None: {self.kind!r}")
        _require_int("GameInput.declarer", self.declarer)
        _require_int("GameInput.bid", self.bid)
        if not isinstance(self.parties, tuple) or not all(
            isinstance(party, PartyInput) for party in self.parties
        ):
            raise TypeError(f"GameInput.parties must be a tuple of PartyInput: {self.parties!r}")
        if not isinstance(self.revoked, tuple) or not all(is_int(i) for i in self.revoked):
            raise TypeError(f"GameInput.revoked must be a tuple of ints: {self.revoked!r}")

    @classmethod
    def read(cls, data: object) -> GameRead:
        """Read what can be read of the JSON shape above; never raises for bad input.

        A value of the wrong type is reported and read as "not entered" (``None``; a party that
        is not an object as an empty party), so the rest of the entry can still be validated."""
        problems: dict[str, list[FieldError]] = {}

        def problem(error: FieldError) -> None:
            problems.setdefault(error.field, []).append(error)

        if not isinstance(data, Mapping):
            problem(FieldError.of("", M.NOT_AN_OBJECT))
            return GameRead(None, _frozen(problems))
        _unknown_keys(data, _GAME_KEYS, "", problem)

        kind: GameKind | None = None
        raw_kind = data.get("kind")
        if raw_kind is None:
            problem(FieldError.of("kind", M.REQUIRED))
        elif not isinstance(raw_kind, str):
            problem(FieldError.of("kind", M.NOT_TEXT))
        elif raw_kind not in _KINDS:
            choices = ", ".join(kind.value for kind in GameKind)
            problem(FieldError.of("kind", M.UNKNOWN_KIND, value=raw_kind, choices=choices))
        else:
            kind = GameKind(raw_kind)

        declarer = _optional_int(data, "declarer", "declarer", problem)
        bid = _optional_int(data, "bid", "bid", problem)

        parties: list[PartyInput] = []
        raw_parties = data.get("parties")
        if raw_parties is None:
            problem(FieldError.of("parties", M.REQUIRED))
        elif not isinstance(raw_parties, list):
            problem(FieldError.of("parties", M.NOT_A_LIST))
        else:
            for i, raw in enumerate(raw_parties):
                prefix = f"parties[{i}]"
                if not isinstance(raw, Mapping):
                    problem(FieldError.of(prefix, M.NOT_AN_OBJECT))
                    parties.append(PartyInput())
                    continue
                _unknown_keys(raw, _PARTY_KEYS, f"{prefix}.", problem)
                took = raw.get("took_trick")
                if took is not None and not isinstance(took, bool):
                    problem(FieldError.of(f"{prefix}.took_trick", M.NOT_A_BOOLEAN))
                    took = None
                parties.append(
                    PartyInput(
                        meld=_optional_int(raw, "meld", f"{prefix}.meld", problem),
                        tricks=_optional_int(raw, "tricks", f"{prefix}.tricks", problem),
                        took_trick=took,
                        penalty=_optional_int(raw, "penalty", f"{prefix}.penalty", problem),
                    )
                )

        revoked: tuple[int, ...] = ()
        raw_revoked = data.get("revoked")
        if raw_revoked is not None:
            if not isinstance(raw_revoked, list):
                problem(FieldError.of("revoked", M.NOT_A_LIST))
            elif not all(is_int(x) for x in raw_revoked):
                problem(FieldError.of("revoked", M.NOT_AN_INTEGER))
            else:
                revoked = tuple(raw_revoked)

        game = cls(kind, declarer, bid, tuple(parties), revoked)
        return GameRead(game, _frozen(problems))

    @classmethod
    def from_dict(cls, data: object) -> GameInput:
        """Read the JSON shape above. Malformed input raises ScoringError naming every problem
        of shape and type; whether the game itself is valid is ``validate_game``'s business
        (``scoring.read_game`` does both at once)."""
        read = cls.read(data)
        if read.errors or read.game is None:
            raise ScoringError(read.errors)
        return read.game

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": None if self.kind is None else str(self.kind),
            "declarer": self.declarer,
            "bid": self.bid,
            "parties": [party.to_dict() for party in self.parties],
            "revoked": list(self.revoked),
        }


@dataclass(frozen=True)
class GameRead:
    """What ``GameInput.read`` made of one game's JSON.

    ``game`` is None only when the input is not an object. ``problems`` maps a field
    (``"bid"``, ``"parties[1]"``, ``"parties[1].tricks"``, an unknown key) to the problems of its
    shape or type, in reading order; such a field was read as not entered."""

    game: GameInput | None
    problems: Mapping[str, tuple[FieldError, ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )

    @property
    def errors(self) -> tuple[FieldError, ...]:
        return tuple(error for errors in self.problems.values() for error in errors)


@dataclass(frozen=True)
class GameResult:
    points: tuple[int, ...]
    won: bool

    def to_dict(self) -> dict[str, Any]:
        return {"points": list(self.points), "won": self.won}


_KINDS = frozenset(kind.value for kind in GameKind)
_GAME_KEYS = frozenset({"kind", "declarer", "bid", "parties", "revoked"})
_PARTY_KEYS = frozenset({"meld", "tricks", "took_trick", "penalty"})


def _require_int(name: str, value: object) -> None:
    if value is not None and not is_int(value):
        raise TypeError(f"{name} must be an int or None: {value!r}")


def _frozen(problems: dict[str, list[FieldError]]) -> Mapping[str, tuple[FieldError, ...]]:
    return MappingProxyType({key: tuple(errors) for key, errors in problems.items()})


def _unknown_keys(
    data: Mapping[Any, Any],
    known: frozenset[str],
    prefix: str,
    problem: Callable[[FieldError], None],
) -> None:
    for key in data:
        if key not in known:
            problem(FieldError.of(f"{prefix}{key}", M.UNKNOWN_FIELD, name=key))


def _optional_int(
    data: Mapping[Any, Any], key: str, field_name: str, problem: Callable[[FieldError], None]
) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if not is_int(value):
        problem(FieldError.of(field_name, M.NOT_AN_INTEGER))
        return None
    return value
