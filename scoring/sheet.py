"""A whole score sheet: the game sequence and every game scored, in one place.

The sheet of one table in one round holds its games in order. For each game this module decides
who deals and who sits out, validates and scores the game with the engine (``scoring.engine``),
keeps the running totals and compares the scorer's hand-written sums. The desk, the printouts, the
simulation and table entry ask this module; none of them re-derives a dealer.

The game sequence (docs/rules.md, "Tables" and "Durch"; seats and columns are 0-based, see
``scoring.tables``):

* Game 1 is dealt by seat 0; dealing moves on seat by seat.
* After a Durch the Durch player deals the next game and the rotation goes on from there (rule 14;
  ``RuleSet.durch_player_deals_next``). At a 4-table whose dealer sits out, the printed rotation
  stays (``RuleSet.four_sitout_keeps_rotation``, docs/rules.md "Decisions"): moving the deal there
  would make one player sit out twice.
* At a pair table the sheet names the declaring pair, not which partner played the Durch: the
  next game's dealer must be entered; until it is, the printed rotation is assumed and the game
  carries a warning saying so.
* A dealer entered for a game overrides the sequence; the rotation goes on from that seat.
* At a 4-table the dealer's column sits out: it must stay empty and scores 0.

JSON (``python -m scoring sheet``; the contract of the score-sheet issue)::

    {"table": "three" | "pairs" | "four_sitout",
     "games": [{"kind": "played", "declarer": 1, "bid": 200, "revoked": [], "dealer": null,
                "columns": [{"meld": 60, "tricks": 152}, {"meld": 20, "tricks": 58},
                            {"meld": 0, "tricks": 40}]}]}

``columns`` are the sheet's columns in seat order (3 at a 3-table; 4 at a 4-table with the
sitting-out dealer's column empty ``{}``; 2 pairs at a pair table); ``declarer`` and ``revoked``
name 0-based columns; ``dealer`` null means the sequence decides, a 0-based seat overrides it.
Optional: a game's ``written`` (the scorer's points per column, null where not written) and the
sheet's ``written_totals``; a difference is a warning, never an error (docs/rules.md
"What an entry must satisfy").

The result names every problem by its field, e.g. ``games[3].columns[1].tricks``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from scoring import messages as M
from scoring.engine import check_read, score_game
from scoring.errors import DEFAULT_LANGUAGE, FieldError, ScoringError
from scoring.model import GameInput, GameKind, GameRead, GameResult, PartyInput
from scoring.reading import is_int
from scoring.rules import EJL, RuleSet
from scoring.tables import FIRST_DEALER, TableKind, TableShape, table_shape

Problems = Mapping[str, tuple[FieldError, ...]]
_NO_PROBLEMS: Problems = MappingProxyType({})


# --- input -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SheetGame:
    """One game as entered on the sheet. ``None`` in a field means "not entered"."""

    kind: GameKind | None = None
    declarer: int | None = None  # column
    bid: int | None = None
    columns: tuple[PartyInput, ...] = ()  # every column of the sheet, in seat order
    revoked: tuple[int, ...] = ()  # columns
    dealer: int | None = None  # seat; None: the game sequence decides
    written: tuple[int | None, ...] = ()  # the scorer's points per column, where written

    def __post_init__(self) -> None:
        if self.kind is not None and not isinstance(self.kind, GameKind):
            raise TypeError(f"SheetGame.kind must be a GameKind or None: {self.kind!r}")
        for name in ("declarer", "bid", "dealer"):
            value = getattr(self, name)
            if value is not None and not is_int(value):
                raise TypeError(f"SheetGame.{name} must be an int or None: {value!r}")
        if not all(isinstance(c, PartyInput) for c in self.columns):
            raise TypeError(f"SheetGame.columns must hold PartyInput: {self.columns!r}")
        if not all(is_int(c) for c in self.revoked):
            raise TypeError(f"SheetGame.revoked must hold ints: {self.revoked!r}")
        if not all(w is None or is_int(w) for w in self.written):
            raise TypeError(f"SheetGame.written must hold ints or None: {self.written!r}")


@dataclass(frozen=True)
class SheetInput:
    """A sheet as entered: ``games[i]`` is game i + 1, ``None`` where nothing is entered yet."""

    table: TableKind
    games: tuple[SheetGame | None, ...] = ()
    written_totals: tuple[int | None, ...] = ()

    @classmethod
    def read(cls, data: object) -> SheetRead:
        """Read the JSON shape above; never raises for bad input (see ``SheetRead``)."""
        return _read_sheet(data)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "table": str(self.table),
            "games": [None if g is None else _game_dict(g) for g in self.games],
        }
        if self.written_totals:
            out["written_totals"] = list(self.written_totals)
        return out


@dataclass(frozen=True)
class SheetRead:
    """What ``SheetInput.read`` made of a sheet's JSON: ``sheet`` is None when the table kind or
    the shape is unreadable; ``problems`` maps a field to the problems of its type or shape
    (such a field was read as not entered, and its own checks are skipped)."""

    sheet: SheetInput | None
    problems: Problems = field(default_factory=lambda: _NO_PROBLEMS)

    @property
    def errors(self) -> tuple[FieldError, ...]:
        return tuple(e for errors in self.problems.values() for e in errors)


# --- output ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameScore:
    number: int  # 1-based, as printed
    dealer: int  # seat
    sits_out: int | None  # the column that sits out (4-table), else None
    entered: bool
    points: tuple[int, ...] | None  # per column (0 for the sitting-out one); None: not scored
    won: bool | None
    running: tuple[int, ...]  # totals per column after this game (scored games only)
    errors: tuple[FieldError, ...] = ()
    warnings: tuple[FieldError, ...] = ()
    written_mismatch: tuple[int, ...] = ()  # columns whose written points differ

    @property
    def playing(self) -> bool:
        return self.entered and self.points is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "sits_out": self.sits_out,
            "points": None if self.points is None else list(self.points),
            "won": self.won,
        }


@dataclass(frozen=True)
class SheetScore:
    table: TableKind
    games: tuple[GameScore, ...]  # every game of the sheet, entered or not
    totals: tuple[int, ...]
    errors: tuple[FieldError, ...]  # every error of the sheet, in game order
    warnings: tuple[FieldError, ...]
    total_mismatch: tuple[int, ...] = ()  # columns whose written total differs

    @property
    def entered_games(self) -> int:
        return sum(1 for g in self.games if g.entered)

    @property
    def complete(self) -> bool:
        """Every game entered and valid."""
        return all(g.playing for g in self.games)

    @property
    def scorer_mismatch(self) -> bool:
        return bool(self.total_mismatch) or any(g.written_mismatch for g in self.games)

    def to_dict(self, entered: int | None = None, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """The CLI's JSON: the first ``entered`` games (default: all), the totals, and the
        warnings (only when there are any, shaped like errors)."""
        games = self.games if entered is None else self.games[:entered]
        out: dict[str, Any] = {
            "games": [g.to_dict() for g in games],
            "totals": list(self.totals),
        }
        warnings = [w for w in self.warnings if _within(w.field, entered)]
        if warnings:
            out["warnings"] = [w.as_dict(lang) for w in warnings]
        return out


def _within(name: str, entered: int | None) -> bool:
    """Whether a field belongs to the first ``entered`` games (or to the sheet as a whole)."""
    match = re.match(r"^games\[(\d+)\]", name)
    return entered is None or match is None or int(match.group(1)) < entered


# --- the game sequence -------------------------------------------------------------------------
def deals_next(kind: GameKind | None, rules: RuleSet = EJL) -> bool:
    """Whether the declarer of a game of this kind deals the next game (rule 14: a Durch, where
    the rule set says so)."""
    return kind is not None and rules.declarer_deals_next(kind)


def score_sheet(
    sheet: SheetInput,
    rules: RuleSet = EJL,
    problems: Problems = _NO_PROBLEMS,
) -> SheetScore:
    """Every game of the sheet in order: dealer, sitting-out column, points, running totals,
    errors and warnings. Never raises for bad input; ``problems`` are fields the caller could
    not read (by their sheet field, e.g. ``games[2].bid``): they are reported in place of their
    checks."""
    shape = table_shape(sheet.table)
    length = rules.games_for(str(shape.kind))
    errors: list[FieldError] = []
    warnings: list[FieldError] = []
    if len(sheet.games) > length:
        errors.append(
            FieldError.of("games", M.SHEET_TOO_MANY_GAMES, games=length, count=len(sheet.games))
        )
    totals = [0] * shape.columns
    scored: list[GameScore] = []
    dealer = FIRST_DEALER
    previous: _Previous | None = None
    for index in range(length):
        entry = sheet.games[index] if index < len(sheet.games) else None
        prefix = f"games[{index}]"
        own = _problems_under(problems, prefix)
        game = _score_one(shape, rules, index, entry, dealer, previous, own)
        if game.points is not None:
            totals = [t + p for t, p in zip(totals, game.points, strict=True)]
        game = _with_running(game, tuple(totals))
        scored.append(game)
        errors.extend(game.errors)
        warnings.extend(game.warnings)
        previous = _Previous(game, entry)
        dealer = next_dealer(shape, rules, game.dealer, entry, game.sits_out)
    mismatch: list[int] = []
    for column, written in enumerate(sheet.written_totals[: shape.columns]):
        if written is not None and written != totals[column]:
            mismatch.append(column)
            warnings.append(
                FieldError.of(
                    f"written_totals[{column}]",
                    M.WRITTEN_DIFFERS,
                    written=written,
                    computed=totals[column],
                )
            )
    if len(sheet.written_totals) > shape.columns:
        errors.append(FieldError.of("written_totals", M.SHEET_COLUMN_COUNT, columns=shape.columns))
    left = [p for key, ps in problems.items() if not key.startswith("games[") for p in ps]
    errors.extend(left)
    return SheetScore(
        table=shape.kind,
        games=tuple(scored),
        totals=tuple(totals),
        errors=tuple(errors),
        warnings=tuple(warnings),
        total_mismatch=tuple(mismatch),
    )


def dealers(kind: TableKind | str, games: int) -> tuple[int, ...]:
    """The printed dealer of each game of an empty sheet (seats, game 1 first)."""
    shape = table_shape(kind)
    return tuple(shape.rotation_dealer(n) for n in range(1, games + 1))


@dataclass(frozen=True)
class _Previous:
    game: GameScore
    entry: SheetGame | None


def next_dealer(
    shape: TableShape,
    rules: RuleSet,
    dealer: int,
    entry: SheetGame | None,
    sits_out: int | None = None,
) -> int:
    """The seat that deals after a game dealt by ``dealer`` (``entry``: that game as entered,
    ``sits_out``: its sitting-out column). At a pair table after a Durch the sheet cannot tell
    which partner played it: the printed rotation is returned and the next game's dealer must be
    entered (``score_sheet`` warns until it is)."""
    rotation = shape.next_dealer(dealer)
    if entry is None or not deals_next(entry.kind, rules):
        return rotation
    if shape.dealer_sits_out and rules.four_sitout_keeps_rotation:
        return rotation
    declarer = entry.declarer
    if declarer is None or not 0 <= declarer < shape.columns or declarer == sits_out:
        return rotation
    seats = shape.seats_of_column(declarer)
    if len(seats) > 1:
        return rotation  # a pair: which partner played the Durch is entered with the dealer
    return seats[0]


def _score_one(
    shape: TableShape,
    rules: RuleSet,
    index: int,
    entry: SheetGame | None,
    sequence_dealer: int,
    previous: _Previous | None,
    problems: Problems,
) -> GameScore:
    """One game of the sheet: its dealer and sitting-out column, then (when entered) its
    fields checked in sheet terms, the game scored by the engine for the playing columns, and
    the scorer's written figures compared with the computed ones."""
    prefix = f"games[{index}]"
    dealer, errors, warnings = _game_dealer(
        shape, rules, prefix, entry, sequence_dealer, previous, problems
    )
    sits_out = shape.sitting_out(dealer)
    running = (0,) * shape.columns
    if entry is None:
        errors.extend(e for es in problems.values() for e in es if e not in errors)
        return GameScore(
            index + 1, dealer, sits_out, False, None, None, running, tuple(errors), tuple(warnings)
        )
    playing = shape.playing_columns(dealer)
    engine_problems, sheet_problems = _split_problems(problems, playing)
    columns_ok = "columns" not in problems and len(entry.columns) == shape.columns
    if "columns" not in problems and len(entry.columns) != shape.columns:
        errors.append(
            FieldError.of(f"{prefix}.columns", M.SHEET_COLUMN_COUNT, columns=shape.columns)
        )
    if columns_ok and sits_out is not None:
        errors.extend(_sitting_out_values(prefix, sits_out, entry.columns[sits_out], problems))
    declarer = _playing_declarer(shape, prefix, entry, sits_out, playing, problems, engine_problems)
    revoked = _playing_revoked(shape, prefix, entry, sits_out, playing, problems, engine_problems)
    points: tuple[int, ...] | None = None
    won: bool | None = None
    if columns_ok:
        game = GameInput(
            kind=entry.kind,
            declarer=declarer,
            bid=entry.bid,
            parties=tuple(entry.columns[c] for c in playing),
            revoked=tuple(revoked),
        )
        read = GameRead(game, MappingProxyType({k: tuple(v) for k, v in engine_problems.items()}))
        check = check_read(read, rules)
        errors.extend(_sheet_error(e, prefix, playing, engine_problems) for e in check.errors)
        warnings.extend(_sheet_error(w, prefix, playing, engine_problems) for w in check.warnings)
        if not errors and not sheet_problems:
            points, won = _points_by_column(shape, playing, score_game(game, rules))
    else:
        errors.extend(e for es in engine_problems.values() for e in es)
    errors.extend(sheet_problems)
    mismatch = _written_mismatch(shape, prefix, entry, points, warnings)
    return GameScore(
        number=index + 1,
        dealer=dealer,
        sits_out=sits_out,
        entered=True,
        points=points,
        won=won,
        running=running,
        errors=tuple(errors),
        warnings=tuple(warnings),
        written_mismatch=tuple(mismatch),
    )


def _game_dealer(
    shape: TableShape,
    rules: RuleSet,
    prefix: str,
    entry: SheetGame | None,
    sequence_dealer: int,
    previous: _Previous | None,
    problems: Problems,
) -> tuple[int, list[FieldError], list[FieldError]]:
    """Who deals the game: the sequence's dealer, or the one entered (checked); a warning
    when a pair table's Durch leaves the next dealer to be entered. Returns (dealer, errors,
    warnings)."""
    errors: list[FieldError] = []
    warnings: list[FieldError] = []
    dealer = sequence_dealer
    override = None if entry is None else entry.dealer
    if "dealer" in problems:
        errors.extend(problems["dealer"])
    elif override is not None:
        if 0 <= override < shape.seats:
            dealer = override
        else:
            errors.append(
                FieldError.of(f"{prefix}.dealer", M.SHEET_DEALER_RANGE, seats=shape.seats)
            )
    if (
        override is None
        and previous is not None
        and previous.entry is not None
        and shape.partners
        and deals_next(previous.entry.kind, rules)
    ):
        warnings.append(FieldError.of(f"{prefix}.dealer", M.SHEET_DURCH_PAIR_DEALER))
    return dealer, errors, warnings


def _split_problems(
    problems: Problems, playing: Sequence[int]
) -> tuple[dict[str, list[FieldError]], list[FieldError]]:
    """The problems the sheet's reader found: those of the engine's fields (by the playing
    columns' parties), and those of the sheet itself."""
    engine_problems: dict[str, list[FieldError]] = {}
    sheet_problems: list[FieldError] = []
    for key, found in problems.items():
        if key == "dealer":
            continue
        mapped = _engine_field(key, playing)
        if mapped is None:
            sheet_problems.extend(found)
        else:
            engine_problems.setdefault(mapped, []).extend(found)
    return engine_problems, sheet_problems


def _playing_declarer(
    shape: TableShape,
    prefix: str,
    entry: SheetGame,
    sits_out: int | None,
    playing: Sequence[int],
    problems: Problems,
    engine_problems: dict[str, list[FieldError]],
) -> int | None:
    """The declarer among the playing columns (None: not entered, or not one of them — the
    problem is added to ``engine_problems``)."""
    if "declarer" in problems or entry.declarer is None:
        return None
    if not 0 <= entry.declarer < shape.columns:
        problem = FieldError.of(f"{prefix}.declarer", M.SHEET_DECLARER_RANGE, columns=shape.columns)
    elif entry.declarer == sits_out:
        problem = FieldError.of(f"{prefix}.declarer", M.SHEET_DECLARER_SITS_OUT)
    else:
        return playing.index(entry.declarer)
    engine_problems.setdefault("declarer", []).append(problem)
    return None


def _playing_revoked(
    shape: TableShape,
    prefix: str,
    entry: SheetGame,
    sits_out: int | None,
    playing: Sequence[int],
    problems: Problems,
    engine_problems: dict[str, list[FieldError]],
) -> list[int]:
    """The revoked parties among the playing columns (problems go to ``engine_problems``)."""
    revoked: list[int] = []
    if "revoked" in problems:
        return revoked
    found: list[FieldError] = []
    for column in entry.revoked:
        if not 0 <= column < shape.columns:
            found.append(FieldError.of(f"{prefix}.revoked", M.REVOKED_UNKNOWN, value=column))
        elif column == sits_out:
            found.append(FieldError.of(f"{prefix}.revoked", M.SHEET_SITS_OUT_VALUE))
        elif playing.index(column) in revoked:
            found.append(FieldError.of(f"{prefix}.revoked", M.REVOKED_TWICE, value=column))
        else:
            revoked.append(playing.index(column))
    if found:
        engine_problems.setdefault("revoked", []).extend(found)
    return revoked


def _points_by_column(
    shape: TableShape, playing: Sequence[int], result: GameResult
) -> tuple[tuple[int, ...], bool]:
    """The engine's points of the playing parties, spread over the sheet's columns (0 for the
    one sitting out)."""
    by_column = [0] * shape.columns
    for column, value in zip(playing, result.points, strict=True):
        by_column[column] = value
    return tuple(by_column), result.won


def _written_mismatch(
    shape: TableShape,
    prefix: str,
    entry: SheetGame,
    points: tuple[int, ...] | None,
    warnings: list[FieldError],
) -> list[int]:
    """The columns where the scorer wrote other points than computed (a warning each)."""
    mismatch: list[int] = []
    for column, written in enumerate(entry.written[: shape.columns]):
        if written is None or points is None or written == points[column]:
            continue
        mismatch.append(column)
        warnings.append(
            FieldError.of(
                f"{prefix}.written[{column}]",
                M.WRITTEN_DIFFERS,
                written=written,
                computed=points[column],
            )
        )
    return mismatch


def _with_running(game: GameScore, running: tuple[int, ...]) -> GameScore:
    return GameScore(
        game.number,
        game.dealer,
        game.sits_out,
        game.entered,
        game.points,
        game.won,
        running,
        game.errors,
        game.warnings,
        game.written_mismatch,
    )


def _sitting_out_values(
    prefix: str, column: int, party: PartyInput, problems: Problems
) -> list[FieldError]:
    out = []
    for name in ("meld", "tricks", "took_trick"):
        key = f"columns[{column}].{name}"
        if getattr(party, name) is not None and key not in problems:
            out.append(FieldError.of(f"{prefix}.{key}", M.SHEET_SITS_OUT_VALUE))
    return out


_COLUMN_FIELD = re.compile(r"^columns\[(\d+)\](.*)$")
_PARTY_FIELD = re.compile(r"^parties\[(\d+)\](.*)$")


def _engine_field(key: str, playing: Sequence[int]) -> str | None:
    """The engine's name for a sheet field of one game (``columns[2].tricks`` →
    ``parties[1].tricks`` when column 2 is the second playing party); None for a field the
    engine does not know (the written points, a sitting-out column)."""
    if key in ("kind", "declarer", "bid", "revoked", "columns"):
        return "parties" if key == "columns" else key
    match = _COLUMN_FIELD.match(key)
    if match is None:
        return None
    column = int(match.group(1))
    if column not in playing:
        return None
    return f"parties[{playing.index(column)}]{match.group(2)}"


def _sheet_error(
    error: FieldError,
    prefix: str,
    playing: Sequence[int],
    engine_problems: Mapping[str, Sequence[FieldError]],
) -> FieldError:
    """An engine error of one game, addressed to the sheet's field. Problems the sheet itself
    put under an engine field keep their sheet field."""
    for found in engine_problems.values():
        if error in found:
            return error
    name = error.field
    match = _PARTY_FIELD.match(name)
    if match is not None:
        name = f"columns[{playing[int(match.group(1))]}]{match.group(2)}"
    elif name == "parties":
        name = "columns"
    return FieldError(f"{prefix}.{name}" if name else prefix, error.msgid, error.params)


def _problems_under(problems: Problems, prefix: str) -> Problems:
    """The problems of one game's fields, keyed by the field inside the game."""
    start = prefix + "."
    out: dict[str, tuple[FieldError, ...]] = {}
    for key, found in problems.items():
        if key.startswith(start):
            out[key[len(start) :]] = found
        elif key == prefix:
            out[""] = found
    return MappingProxyType(out)


# --- reading JSON ------------------------------------------------------------------------------
_SHEET_KEYS = frozenset({"table", "games", "written_totals"})
_GAME_KEYS = frozenset({"kind", "declarer", "bid", "revoked", "dealer", "columns", "written"})
_TABLES = frozenset(kind.value for kind in TableKind)


def _read_sheet(data: object) -> SheetRead:
    problems: dict[str, list[FieldError]] = {}

    def problem(error: FieldError) -> None:
        problems.setdefault(error.field, []).append(error)

    if not isinstance(data, Mapping):
        problem(FieldError.of("", M.NOT_AN_OBJECT))
        return SheetRead(None, _frozen(problems))
    for key in data:
        if key not in _SHEET_KEYS:
            problem(FieldError.of(str(key), M.UNKNOWN_FIELD, name=key))
    table = data.get("table")
    kind: TableKind | None = None
    if table is None:
        problem(FieldError.of("table", M.REQUIRED))
    elif not isinstance(table, str) or table not in _TABLES:
        problem(FieldError.of("table", M.UNKNOWN_TABLE_KIND, kind=table))
    else:
        kind = TableKind(table)

    games: list[SheetGame | None] = []
    raw_games = data.get("games")
    if raw_games is None:
        problem(FieldError.of("games", M.REQUIRED))
    elif not isinstance(raw_games, list):
        problem(FieldError.of("games", M.NOT_A_LIST))
    else:
        for i, raw in enumerate(raw_games):
            games.append(_read_game(raw, f"games[{i}]", problem))

    written_totals = _int_list(data.get("written_totals"), "written_totals", problem)
    if kind is None:
        return SheetRead(None, _frozen(problems))
    return SheetRead(SheetInput(kind, tuple(games), written_totals), _frozen(problems))


def _read_game(raw: object, prefix: str, problem: Callable[[FieldError], None]) -> SheetGame | None:
    if not isinstance(raw, Mapping):
        problem(FieldError.of(prefix, M.NOT_AN_OBJECT))
        return None
    for key in raw:
        if key not in _GAME_KEYS:
            problem(FieldError.of(f"{prefix}.{key}", M.UNKNOWN_FIELD, name=key))
    # The engine reads what a game of it holds; its "parties" are the sheet's columns.
    as_game = {k: raw[k] for k in ("kind", "declarer", "bid", "revoked") if k in raw}
    as_game["parties"] = raw.get("columns")
    read = GameInput.read(as_game)
    for key, found in read.problems.items():
        name = key.replace("parties", "columns", 1) if key.startswith("parties") else key
        for error in found:
            problem(FieldError(f"{prefix}.{name}", error.msgid, error.params))
    game = read.game
    assert game is not None  # as_game is an object
    dealer = raw.get("dealer")
    if dealer is not None and not is_int(dealer):
        problem(FieldError.of(f"{prefix}.dealer", M.NOT_AN_INTEGER))
        dealer = None
    return SheetGame(
        kind=game.kind,
        declarer=game.declarer,
        bid=game.bid,
        columns=game.parties,
        revoked=game.revoked,
        dealer=dealer,
        written=_int_list(raw.get("written"), f"{prefix}.written", problem),
    )


def _int_list(
    raw: object, name: str, problem: Callable[[FieldError], None]
) -> tuple[int | None, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        problem(FieldError.of(name, M.NOT_A_LIST))
        return ()
    out: list[int | None] = []
    for i, value in enumerate(raw):
        if value is not None and not is_int(value):
            problem(FieldError.of(f"{name}[{i}]", M.NOT_AN_INTEGER))
            value = None
        out.append(value)
    return tuple(out)


def _frozen(problems: dict[str, list[FieldError]]) -> Problems:
    return MappingProxyType({key: tuple(found) for key, found in problems.items()})


def _game_dict(game: SheetGame) -> dict[str, Any]:
    out: dict[str, Any] = {
        "kind": None if game.kind is None else str(game.kind),
        "declarer": game.declarer,
        "bid": game.bid,
        "revoked": list(game.revoked),
        "dealer": game.dealer,
        "columns": [
            {k: v for k, v in party.to_dict().items() if v is not None} for party in game.columns
        ],
    }
    if game.written:
        out["written"] = list(game.written)
    return out


def read_sheet(data: object, rules: RuleSet = EJL) -> SheetScore:
    """A scored sheet from its JSON, or ScoringError naming every problem of type, shape and
    entry (the ``python -m scoring sheet`` contract)."""
    read = SheetInput.read(data)
    if read.sheet is None:
        raise ScoringError(read.errors)
    result = score_sheet(read.sheet, rules, read.problems)
    if result.errors:
        raise ScoringError(result.errors)
    return result
