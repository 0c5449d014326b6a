"""The plan's data: modes, table kinds, entrants, tables, rounds, plans and their JSON form.

JSON shape (docs/architecture.md "Command-line contracts")::

    {"mode": "singles", "rounds": [{"number": 1, "tables": [
        {"number": 1, "kind": "three", "seats": [12, 5, 33]}]}]}

``seats`` lists start numbers in seat order: seat 1 deals game 1, dealing moves on seat by seat,
seat 3 keeps the score sheet. At a pair table ``seats`` holds the two pairs' start numbers; the
partners sit crosswise, so the first pair deals game 1 and keeps the score sheet.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from scoring.tables import FIRST_DEALER, table_shape
from scoring.tables import TableKind as TableKind  # the one enumeration, re-exported

from .errors import N_, FieldError, PairingError

MAX_ROUNDS = 12
#: The most entrants (Einzel players or Paare pairs) a plan takes: the search keeps an N × N
#: table of meetings, so far larger fields would take minutes and gigabytes.
MAX_ENTRANTS = 2000


class Mode(StrEnum):
    SINGLES = "singles"
    PAIRS = "pairs"


# Entrants per table: a table's sheet columns (a pair is one entrant).
SEATS: dict[TableKind, int] = {kind: table_shape(kind).columns for kind in TableKind}
KINDS: dict[Mode, frozenset[TableKind]] = {
    Mode.SINGLES: frozenset({TableKind.THREE, TableKind.FOUR_SITOUT}),
    Mode.PAIRS: frozenset({TableKind.PAIRS}),
}


@dataclass(frozen=True)
class Entrant:
    start_number: int
    club: str | None = None


@dataclass(frozen=True)
class Table:
    number: int
    kind: TableKind
    seats: tuple[int, ...]

    @property
    def dealer(self) -> int:
        """The entrant who deals game 1 (scoring.tables: seat 1)."""
        return self.seats[table_shape(self.kind).column_of_seat(FIRST_DEALER)]

    @property
    def scorer(self) -> int:
        """The entrant keeping the score sheet (scoring.tables: seat 3; at a pair table that is
        the first pair's second player)."""
        return self.seats[table_shape(self.kind).scorer_column]


@dataclass(frozen=True)
class Round:
    number: int
    tables: tuple[Table, ...]

    def entrants(self) -> set[int]:
        return {n for t in self.tables for n in t.seats}


@dataclass(frozen=True)
class Plan:
    mode: Mode
    rounds: tuple[Round, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": str(self.mode),
            "rounds": [
                {
                    "number": r.number,
                    "tables": [
                        {"number": t.number, "kind": str(t.kind), "seats": list(t.seats)}
                        for t in r.tables
                    ],
                }
                for r in self.rounds
            ],
        }

    @classmethod
    def from_dict(cls, d: object) -> Plan:
        """Read the JSON shape; anything malformed raises PairingError naming every problem."""
        errors: list[FieldError] = []
        if not isinstance(d, Mapping):
            raise PairingError([FieldError.of("plan", N_("A plan must be a JSON object."))])
        mode = _member(
            Mode,
            d.get("mode"),
            "mode",
            N_("The mode is missing: use singles or pairs."),
            N_("Unknown mode {value}: use singles or pairs."),
            errors,
        )
        raw_rounds = d.get("rounds")
        rounds: list[Round] = []
        if not isinstance(raw_rounds, list) or not raw_rounds:
            errors.append(FieldError.of("rounds", N_("A plan needs a non-empty list of rounds.")))
            raw_rounds = []
        for i, raw_round in enumerate(raw_rounds):
            where = f"rounds[{i}]"
            if not isinstance(raw_round, Mapping):
                errors.append(FieldError.of(where, N_("A round must be a JSON object.")))
                continue
            number = _integer(raw_round.get("number"), f"{where}.number", errors)
            raw_tables = raw_round.get("tables")
            if not isinstance(raw_tables, list) or not raw_tables:
                errors.append(
                    FieldError.of(
                        f"{where}.tables", N_("A round needs a non-empty list of tables.")
                    )
                )
                raw_tables = []
            tables: list[Table] = []
            for j, raw_table in enumerate(raw_tables):
                twhere = f"{where}.tables[{j}]"
                if not isinstance(raw_table, Mapping):
                    errors.append(FieldError.of(twhere, N_("A table must be a JSON object.")))
                    continue
                tnumber = _integer(raw_table.get("number"), f"{twhere}.number", errors)
                kind = _member(
                    TableKind,
                    raw_table.get("kind"),
                    f"{twhere}.kind",
                    N_("The table kind is missing: use three, four_sitout or pairs."),
                    N_("Unknown table kind {value}: use three, four_sitout or pairs."),
                    errors,
                )
                raw_seats = raw_table.get("seats")
                seats: list[int] = []
                if not isinstance(raw_seats, list):
                    errors.append(
                        FieldError.of(
                            f"{twhere}.seats", N_("The seats must be a list of start numbers.")
                        )
                    )
                else:
                    for k, s in enumerate(raw_seats):
                        value = _integer(s, f"{twhere}.seats[{k}]", errors)
                        if value is not None:
                            seats.append(value)
                if tnumber is not None and kind is not None:
                    tables.append(Table(tnumber, kind, tuple(seats)))
            if number is not None:
                rounds.append(Round(number, tuple(tables)))
        if errors or mode is None:
            raise PairingError(errors)
        plan = cls(mode, tuple(rounds))
        validate_plan(plan)
        return plan


_E = TypeVar("_E", Mode, TableKind)


def _member(
    kind: type[_E], raw: object, field: str, missing: str, unknown: str, errors: list[FieldError]
) -> _E | None:
    if isinstance(raw, str):
        try:
            return kind(raw)
        except ValueError:
            pass
    if raw is None:
        errors.append(FieldError.of(field, missing))
    else:
        errors.append(FieldError.of(field, unknown, value=shown(raw)))
    return None


def _integer(value: object, field: str, errors: list[FieldError]) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        errors.append(not_whole(field, value))
        return None
    return value


def not_whole(field: str, value: object) -> FieldError:
    """The error for a value that should be a whole number, shown as the user wrote it (JSON
    spelling, never a Python repr): yes/no values and missing values are named as such."""
    if isinstance(value, bool):
        return FieldError.of(
            field,
            N_("{value} is a yes/no value, not a whole number."),
            value="true" if value else "false",
        )
    if value is None:
        return FieldError.of(field, N_("A whole number is missing (the value is empty)."))
    return FieldError.of(field, N_("{value} is not a whole number."), value=shown(value))


def shown(value: object) -> str:
    """A value for a message as the user wrote it: text as it is, anything else in JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def validate_played(played: object, total: int) -> None:
    """The number of played rounds of a plan of ``total`` rounds: a whole number 0..total."""
    if isinstance(played, bool) or not isinstance(played, int) or not 0 <= played <= total:
        raise PairingError(
            [
                FieldError.of(
                    "played",
                    N_("The number of played rounds must be between 0 and {maximum}."),
                    maximum=total,
                )
            ]
        )


def validate_plan(plan: Plan) -> None:
    """Check a plan's structure: rounds numbered 1..r, tables of the mode's kinds with the right
    number of seats, positive start numbers, nobody seated twice in a round."""
    errors: list[FieldError] = []
    if not plan.rounds:
        errors.append(FieldError.of("rounds", N_("A plan needs a non-empty list of rounds.")))
    for i, rnd in enumerate(plan.rounds):
        where = f"rounds[{i}]"
        if rnd.number != i + 1:
            errors.append(
                FieldError.of(
                    f"{where}.number",
                    N_("Round {position} must have the number {expected}, not {value}."),
                    position=i + 1,
                    expected=i + 1,
                    value=rnd.number,
                )
            )
        if not rnd.tables:
            errors.append(FieldError.of(f"{where}.tables", N_("A round needs tables.")))
        seen: set[int] = set()
        numbers: set[int] = set()
        for j, table in enumerate(rnd.tables):
            twhere = f"{where}.tables[{j}]"
            if table.number < 1 or table.number in numbers:
                errors.append(
                    FieldError.of(
                        f"{twhere}.number",
                        N_("Table number {value} is not positive or appears twice in the round."),
                        value=table.number,
                    )
                )
            numbers.add(table.number)
            if table.kind not in KINDS[plan.mode]:
                errors.append(
                    FieldError.of(
                        f"{twhere}.kind",
                        N_("A {kind} table does not belong in a {mode} plan."),
                        kind=str(table.kind),
                        mode=str(plan.mode),
                    )
                )
            if len(table.seats) != SEATS[table.kind]:
                errors.append(
                    FieldError.of(
                        f"{twhere}.seats",
                        N_("A {kind} table has {expected} seats, not {value}."),
                        kind=str(table.kind),
                        expected=SEATS[table.kind],
                        value=len(table.seats),
                    )
                )
            for k, n in enumerate(table.seats):
                if n < 1:
                    errors.append(
                        FieldError.of(
                            f"{twhere}.seats[{k}]",
                            N_("Start number {value} is not positive."),
                            value=n,
                        )
                    )
                elif n in seen:
                    errors.append(
                        FieldError.of(
                            f"{twhere}.seats[{k}]",
                            N_("Start number {value} is seated twice in round {round}."),
                            value=n,
                            round=rnd.number,
                        )
                    )
                seen.add(n)
    if errors:
        raise PairingError(errors)


def validate_entrant_count(n: int, mode: Mode) -> None:
    """Refuse entrant counts that cannot be seated.

    Einzel: 3-tables, plus ``n mod 3`` 4-tables with a sitting-out dealer, so every count from 3
    up except 5 works. Paare: tables of two pairs, so the count must be even and at least 2.
    Either way at most :data:`MAX_ENTRANTS`.
    """
    message = _count_problem(n, mode)
    if message is not None:
        msgid, params = message
        raise PairingError([FieldError.of("entrants", msgid, **params)])


def _count_problem(n: int, mode: Mode) -> tuple[str, dict[str, object]] | None:
    if n > MAX_ENTRANTS:
        if mode is Mode.SINGLES:
            msgid = N_("{count} entrants are too many: a seating plan takes at most {maximum}.")
        else:
            msgid = N_("{count} pairs are too many: a seating plan takes at most {maximum}.")
        return msgid, {"count": n, "maximum": MAX_ENTRANTS}
    if mode is Mode.SINGLES:
        if n <= 0:
            return N_("There are no entrants to seat: an Einzel competition needs at least 3."), {}
        if n == 1:
            return (
                N_(
                    "1 entrant cannot be seated: an Einzel competition needs at least 3. Add 2 "
                    "unranked substitutes (außer Konkurrenz)."
                ),
                {},
            )
        if n == 2:
            return (
                N_(
                    "2 entrants cannot be seated: an Einzel competition needs at least 3. Add an "
                    "unranked substitute (außer Konkurrenz)."
                ),
                {},
            )
        if n == 5:
            return (
                N_(
                    "5 entrants cannot be seated at 3-tables and 4-tables. Add an unranked "
                    "substitute (außer Konkurrenz) to make 6."
                ),
                {},
            )
        return None
    if n <= 0:
        return N_("There are no pairs to seat: a Paare competition needs at least 2 pairs."), {}
    if n == 1:
        return (
            N_(
                "1 pair cannot be seated: a Paare competition needs at least 2 pairs. Add an "
                "unranked substitute pair (außer Konkurrenz)."
            ),
            {},
        )
    if n % 2:
        return (
            N_(
                "{count} pairs cannot be seated: pair tables need an even number of pairs. Add "
                "an unranked substitute pair (außer Konkurrenz)."
            ),
            {"count": n},
        )
    return None


def layout(n: int, mode: Mode) -> tuple[TableKind, ...]:
    """The table kinds of one round for ``n`` entrants, in table-number order: Einzel has its
    3-tables first and its ``n mod 3`` 4-tables last."""
    validate_entrant_count(n, mode)
    if mode is Mode.PAIRS:
        return (TableKind.PAIRS,) * (n // 2)
    fours = n % 3
    return (TableKind.THREE,) * ((n - 4 * fours) // 3) + (TableKind.FOUR_SITOUT,) * fours


def table_sizes(n: int, mode: Mode = Mode.SINGLES) -> tuple[int, ...]:
    """The seats of each table of :func:`layout`, in the same order."""
    return tuple(SEATS[kind] for kind in layout(n, mode))


def validate_entrants(entrants: Sequence[Entrant], field: str = "entrants") -> None:
    """Start numbers must be positive and unique."""
    errors: list[FieldError] = []
    seen: set[int] = set()
    for i, e in enumerate(entrants):
        if isinstance(e.start_number, bool) or not isinstance(e.start_number, int):
            errors.append(not_whole(f"{field}[{i}]", e.start_number))
        elif e.start_number < 1:
            errors.append(
                FieldError.of(
                    f"{field}[{i}]",
                    N_("Start number {value} is not positive."),
                    value=e.start_number,
                )
            )
        elif e.start_number in seen:
            errors.append(
                FieldError.of(
                    f"{field}[{i}]",
                    N_("Start number {value} appears twice."),
                    value=e.start_number,
                )
            )
        else:
            seen.add(e.start_number)
    if errors:
        raise PairingError(errors)


def validate_rounds(rounds: int) -> None:
    if isinstance(rounds, bool) or not isinstance(rounds, int):
        raise PairingError([not_whole("rounds", rounds)])
    if not 1 <= rounds <= MAX_ROUNDS:
        raise PairingError(
            [
                FieldError.of(
                    "rounds",
                    N_("The number of rounds must be between 1 and {maximum}, not {value}."),
                    maximum=MAX_ROUNDS,
                    value=rounds,
                )
            ]
        )
