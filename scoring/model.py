"""The plain data the engine takes and returns: one game in, the points of its parties out.

JSON shape (DESIGN.md)::

    {"kind": "played", "declarer": 0, "bid": 200,
     "parties": [{"meld": 60, "tricks": 152}, {"meld": 20, "tricks": 58},
                 {"meld": 0, "tricks": 40}],
     "revoked": []}

A party is a player at a 3-table (three parties, 12-card hands) or a pair at a pair table (two
parties; meld and tricks are the sums of both partners). ``took_trick`` is only needed for a
declarer who took no trick: the declarer's tricks always include the pressed cards, so they are
not 0 even then.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from scoring import messages as M
from scoring.errors import FieldError, ScoringError


class GameKind(StrEnum):
    PLAYED = "played"
    CONCEDED = "conceded"
    DURCH = "durch"


@dataclass(frozen=True)
class PartyInput:
    meld: int | None = None
    tricks: int | None = None
    # Only meaningful for the declarer: False = took no trick (tricks then are only pressed cards).
    took_trick: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"meld": self.meld, "tricks": self.tricks}
        if self.took_trick is not None:
            out["took_trick"] = self.took_trick
        return out


@dataclass(frozen=True)
class GameInput:
    kind: GameKind
    declarer: int | None
    bid: int | None
    parties: tuple[PartyInput, ...]
    revoked: tuple[int, ...] = ()

    @classmethod
    def from_dict(cls, data: object) -> GameInput:
        """Read the JSON shape above. Malformed input raises ScoringError naming every problem;
        whether the game itself is valid is ``validate_game``'s business."""
        errors: list[FieldError] = []
        if not isinstance(data, Mapping):
            raise ScoringError([FieldError.of("", M.NOT_AN_OBJECT)])
        _unknown_keys(data, _GAME_KEYS, "", errors)

        kind: GameKind | None = None
        if "kind" not in data or data["kind"] is None:
            errors.append(FieldError.of("kind", M.REQUIRED))
        elif not isinstance(data["kind"], str):
            errors.append(FieldError.of("kind", M.NOT_TEXT))
        elif data["kind"] not in _KINDS:
            errors.append(FieldError.of("kind", M.UNKNOWN_KIND, value=data["kind"]))
        else:
            kind = GameKind(data["kind"])

        declarer = _optional_int(data, "declarer", "declarer", errors)
        bid = _optional_int(data, "bid", "bid", errors)

        parties: list[PartyInput] = []
        raw_parties = data.get("parties")
        if raw_parties is None:
            errors.append(FieldError.of("parties", M.REQUIRED))
        elif not isinstance(raw_parties, list):
            errors.append(FieldError.of("parties", M.NOT_A_LIST))
        else:
            for i, raw in enumerate(raw_parties):
                prefix = f"parties[{i}]"
                if not isinstance(raw, Mapping):
                    errors.append(FieldError.of(prefix, M.NOT_AN_OBJECT))
                    continue
                _unknown_keys(raw, _PARTY_KEYS, f"{prefix}.", errors)
                took = raw.get("took_trick")
                if took is not None and not isinstance(took, bool):
                    errors.append(FieldError.of(f"{prefix}.took_trick", M.NOT_A_BOOLEAN))
                    took = None
                parties.append(
                    PartyInput(
                        meld=_optional_int(raw, "meld", f"{prefix}.meld", errors),
                        tricks=_optional_int(raw, "tricks", f"{prefix}.tricks", errors),
                        took_trick=took,
                    )
                )

        revoked: list[int] = []
        raw_revoked = data.get("revoked")
        if raw_revoked is not None:
            if not isinstance(raw_revoked, list):
                errors.append(FieldError.of("revoked", M.NOT_A_LIST))
            elif not all(_is_int(x) for x in raw_revoked):
                errors.append(FieldError.of("revoked", M.NOT_AN_INTEGER))
            else:
                revoked = list(raw_revoked)

        if errors or kind is None:
            raise ScoringError(errors)
        return cls(kind, declarer, bid, tuple(parties), tuple(revoked))

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": str(self.kind),
            "declarer": self.declarer,
            "bid": self.bid,
            "parties": [party.to_dict() for party in self.parties],
            "revoked": list(self.revoked),
        }


@dataclass(frozen=True)
class GameResult:
    points: tuple[int, ...]
    won: bool

    def to_dict(self) -> dict[str, Any]:
        return {"points": list(self.points), "won": self.won}


_KINDS = frozenset(kind.value for kind in GameKind)
_GAME_KEYS = frozenset({"kind", "declarer", "bid", "parties", "revoked"})
_PARTY_KEYS = frozenset({"meld", "tricks", "took_trick"})


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _unknown_keys(
    data: Mapping[Any, Any], known: frozenset[str], prefix: str, errors: list[FieldError]
) -> None:
    for key in data:
        if key not in known:
            errors.append(FieldError.of(f"{prefix}{key}", M.UNKNOWN_FIELD, name=key))


def _optional_int(
    data: Mapping[Any, Any], key: str, field: str, errors: list[FieldError]
) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if not _is_int(value):
        errors.append(FieldError.of(field, M.NOT_AN_INTEGER))
        return None
    assert isinstance(value, int)
    return value
