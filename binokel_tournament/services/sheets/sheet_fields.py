"""The desk score sheet's wire format, in one place: the names of its form fields, reading what was
typed into the engine's typed sheet (``scoring.sheet.SheetInput``), and addressing the engine's
messages back to the form fields. No other file spells a field name out.

Names (games, columns and seats 1-based, as the desk and the paper sheet number them)::

    g{n}-kind  g{n}-dealer  g{n}-declarer  g{n}-bid  g{n}-notrick
    g{n}-c{c}-meld  g{n}-c{c}-tricks  g{n}-c{c}-revoked  g{n}-c{c}-written  g{n}-c{c}-penalty
    written-total-c{c}

``g{n}-declarer`` is a party column, ``g{n}-dealer`` a seat (dealing order), ``g{n}-notrick`` the
tick "declarer took no trick", ``-written`` the scorer's own figures, ``-penalty`` the minus
points of rule sets that have them (Luxusfamilie's Farbkarten). What was typed is kept as
stripped strings (``ScoreSheet.entries``), so a draft with a typo loses nothing.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from scoring import FieldError, GameKind, PartyInput
from scoring import messages as M
from scoring.sheet import GameScore, Problems, SheetGame, SheetInput
from scoring.tables import TableShape

GAME_FIELDS: Final = ("kind", "dealer", "declarer", "bid", "notrick")
COLUMN_FIELDS: Final = ("meld", "tricks", "revoked", "written", "penalty")
# Fields that say a game was entered (the kind and the dealer alone do not: both have defaults).
_ENTERED_BY: Final = frozenset({"declarer", "bid", "notrick", *COLUMN_FIELDS})
_TICKS: Final = frozenset({"notrick", "revoked"})
MAX_VALUE_LENGTH: Final = 32  # longer input is cut (a sheet holds numbers, never essays)
_NAME = re.compile(
    r"^(?:g(?P<game>[1-9][0-9]{0,2})-(?:(?P<gattr>kind|dealer|declarer|bid|notrick)"
    r"|c(?P<col>[1-9])-(?P<cattr>meld|tricks|revoked|written|penalty))"
    r"|written-total-c(?P<tcol>[1-9]))$"
)
_GAME_HEAD = re.compile(r"g([1-9][0-9]{0,2})")  # a game field's first part, as in _NAME
_KINDS: Final = tuple(kind.value for kind in GameKind)
_NUMBER = re.compile(r"^-?[0-9]{1,9}$")  # ASCII digits only: "²" or "١" are not numbers here


def game_field(game: int, attr: str) -> str:
    """``g{n}-{attr}`` for a field of game ``game`` (1-based)."""
    if attr not in GAME_FIELDS:
        raise ValueError(f"no game field {attr!r}")
    return f"g{game}-{attr}"


def column_field(game: int, column: int, attr: str) -> str:
    """``g{n}-c{c}-{attr}`` for a party column's field (both 1-based)."""
    if attr not in COLUMN_FIELDS:
        raise ValueError(f"no column field {attr!r}")
    return f"g{game}-c{column}-{attr}"


def total_field(column: int) -> str:
    """The scorer's written total of a column (1-based)."""
    return f"written-total-c{column}"


@dataclass(frozen=True)
class FieldRef:
    """A parsed field name: ``game`` and ``column`` 1-based, None where the field has none."""

    game: int | None
    column: int | None
    attr: str


@functools.lru_cache(maxsize=4096)
def parse_name(name: str) -> FieldRef | None:
    """The parts of a sheet field name, or None for any other name. Kept per name (a sheet
    has a few hundred; a save asks some 15,000 times, sorting and grouping its fields)."""
    match = _NAME.match(name)
    if match is None:
        return None
    if match["tcol"]:
        return FieldRef(None, int(match["tcol"]), "written-total")
    game = int(match["game"])
    if match["gattr"]:
        return FieldRef(game, None, match["gattr"])
    return FieldRef(game, int(match["col"]), match["cattr"])


def clean(data: Mapping[str, object]) -> dict[str, str]:
    """The sheet's fields of a form post (or of stored entries) as stripped strings; other
    names and empty values are dropped, control characters removed, over-long values cut."""
    out: dict[str, str] = {}
    for key in data:
        if not isinstance(key, str) or parse_name(key) is None:
            continue
        getter = getattr(data, "getlist", None)
        value = getter(key)[-1] if getter is not None else data[key]
        if not isinstance(value, str):
            value = "" if value is None else str(value)
        value = "".join(ch for ch in value if ch.isprintable()).strip()[:MAX_VALUE_LENGTH]
        if value:
            out[key] = value
    return dict(sorted(out.items(), key=_order))


def _order(item: tuple[str, str]) -> tuple[int, int, int, str]:
    ref = parse_name(item[0])
    assert ref is not None
    return (ref.game or 10_000, ref.column or 0, _ATTR_ORDER.get(ref.attr, 99), item[0])


_ATTR_ORDER: Final = {
    name: i for i, name in enumerate((*GAME_FIELDS, *COLUMN_FIELDS, "written-total"))
}


@dataclass(frozen=True)
class ReadEntries:
    """What was typed, read as the engine's sheet: ``problems`` are the fields that could not be
    read (by their engine field), reported by the engine in place of their checks."""

    sheet: SheetInput
    problems: Problems


def read_entries(entries: Mapping[str, str], shape: TableShape, games: int) -> ReadEntries:
    """The engine's typed sheet from the typed strings (see the names above)."""
    by_game: dict[int, dict[str, str]] = {}
    totals: dict[int, str] = {}
    for key, value in entries.items():
        ref = parse_name(key)
        if ref is None:
            continue
        if ref.game is None:
            if ref.column is not None and ref.column <= shape.columns:
                totals[ref.column] = value
            continue
        if ref.game > games or (ref.column is not None and ref.column > shape.columns):
            continue  # a field that is not on this sheet (a tampered form) is ignored
        attr = ref.attr if ref.column is None else f"c{ref.column}-{ref.attr}"
        by_game.setdefault(ref.game, {})[attr] = value

    problems: dict[str, list[FieldError]] = {}

    def number(value: str | None, field: str, offset: int = 0) -> int | None:
        if value is None:
            return None
        if not _NUMBER.match(value):
            problems.setdefault(field, []).append(FieldError.of(field, M.NOT_AN_INTEGER))
            return None
        return int(value) - offset

    sheet_games: list[SheetGame | None] = []
    for n in range(1, games + 1):
        typed = by_game.get(n, {})
        prefix = f"games[{n - 1}]"
        dealer = number(typed.get("dealer"), f"{prefix}.dealer", offset=1)
        if not any(_entered_by(attr) for attr in typed):
            if dealer is None:
                sheet_games.append(None)
                continue
            sheet_games.append(SheetGame(dealer=dealer))  # only a dealer: not a game yet
            continue
        kind_text = typed.get("kind", GameKind.PLAYED.value)
        kind: GameKind | None = None
        if kind_text in _KINDS:
            kind = GameKind(kind_text)
        else:
            field = f"{prefix}.kind"
            problems.setdefault(field, []).append(
                FieldError.of(field, M.UNKNOWN_KIND, value=kind_text, choices=", ".join(_KINDS))
            )
        declarer = number(typed.get("declarer"), f"{prefix}.declarer", offset=1)
        columns: list[PartyInput] = []
        revoked: list[int] = []
        written: list[int | None] = []
        for c in range(shape.columns):
            p = f"c{c + 1}-"
            cprefix = f"{prefix}.columns[{c}]"
            took = False if "notrick" in typed and declarer == c else None
            columns.append(
                PartyInput(
                    meld=number(typed.get(p + "meld"), f"{cprefix}.meld"),
                    tricks=number(typed.get(p + "tricks"), f"{cprefix}.tricks"),
                    took_trick=took,
                    penalty=number(typed.get(p + "penalty"), f"{cprefix}.penalty"),
                )
            )
            if p + "revoked" in typed:
                revoked.append(c)
            written.append(number(typed.get(p + "written"), f"{prefix}.written[{c}]"))
        sheet_games.append(
            SheetGame(
                kind=kind,
                declarer=declarer,
                bid=number(typed.get("bid"), f"{prefix}.bid"),
                columns=tuple(columns),
                revoked=tuple(revoked),
                dealer=dealer,
                written=tuple(written) if any(w is not None for w in written) else (),
            )
        )
    while sheet_games and sheet_games[-1] is None:
        sheet_games.pop()
    written_totals = tuple(
        number(totals.get(c + 1), f"written_totals[{c}]") for c in range(shape.columns)
    )
    return ReadEntries(
        SheetInput(
            table=shape.kind,
            games=tuple(sheet_games),
            written_totals=written_totals if any(t is not None for t in written_totals) else (),
        ),
        MappingProxyType({k: tuple(v) for k, v in problems.items()}),
    )


def _entered_by(attr: str) -> bool:
    return attr.split("-")[-1] in _ENTERED_BY


_ENGINE_FIELD = re.compile(
    r"^games\[(?P<game>\d+)\](?:\.(?P<rest>.*))?$|^written_totals\[(?P<tcol>\d+)\]$"
)
_REST = re.compile(
    r"^(?:columns(?:\[(?P<col>\d+)\](?:\.(?P<attr>\w+))?)?|written\[(?P<wcol>\d+)\])$"
)


def form_field(engine_field: str, games: tuple[GameScore, ...], columns: int) -> str:
    """The form field an engine message belongs to (``games[3].columns[1].tricks`` →
    ``g4-c2-tricks``). A message about a game as a whole goes to its declarer field, the trick
    sum to the last playing party's tricks, "took no trick" to the tick."""
    match = _ENGINE_FIELD.match(engine_field)
    if match is None:
        return game_field(1, "declarer")
    if match["tcol"] is not None:
        return total_field(int(match["tcol"]) + 1)
    index = int(match["game"])
    n = index + 1
    rest = match["rest"] or ""
    if rest in ("kind", "dealer", "declarer", "bid"):
        return game_field(n, rest)
    inner = _REST.match(rest)
    if inner is None:
        return game_field(n, "declarer")  # revoked and anything about the whole game
    if inner["wcol"] is not None:
        return column_field(n, int(inner["wcol"]) + 1, "written")
    column = int(inner["col"]) if inner["col"] is not None else None
    attr = inner["attr"]
    if column is None:  # e.g. the tricks do not add up to 250
        sits_out = games[index].sits_out if index < len(games) else None
        playing = [c for c in range(columns) if c != sits_out]
        return column_field(n, playing[-1] + 1, "tricks")
    if attr == "took_trick":
        return game_field(n, "notrick")
    if attr in ("meld", "tricks", "penalty"):
        return column_field(n, column + 1, attr)
    return column_field(n, column + 1, "meld")


def game_of(name: str) -> int | None:
    """The game a field belongs to (None: the sheet's written totals, or not a sheet field)."""
    ref = parse_name(name)
    return None if ref is None else ref.game


# The parts of a sheet: each game (1 …) and the scorer's written totals (``TOTALS``). A part is
# what one operation of the sheet's writer sets or clears, and what a stamp fingerprints.
TOTALS: Final = 0


def part_of(name: str) -> int | None:
    """The part a field belongs to: its game, ``TOTALS`` for a written total, None for any
    other name."""
    ref = parse_name(name)
    if ref is None:
        return None
    return TOTALS if ref.game is None else ref.game


def _kept(fields: Mapping[str, str]) -> dict[str, str]:
    """A game's fields as stored: a game exists only when something was entered in it. Without
    any entered field (only the form's default kind, or a kind picked and left) nothing is
    kept but a dealer typed for it (it changes who deals)."""
    if any(_entered_by(parse_name(name).attr) for name in fields):  # type: ignore[union-attr]
        return dict(fields)
    return {name: v for name, v in fields.items() if name.endswith("-dealer")}


def parts(entries: Mapping[str, str]) -> dict[int, dict[str, str]]:
    """The entries by part, each as stored (see ``_kept``); parts with nothing kept are left
    out. Names that are no sheet field are ignored."""
    grouped: dict[int, dict[str, str]] = {}
    for name, value in entries.items():
        part = part_of(name)
        if part is not None and value != "":
            grouped.setdefault(part, {})[name] = value
    out = {}
    for part, fields in grouped.items():
        kept = fields if part == TOTALS else _kept(fields)
        if kept:
            out[part] = kept
    return out


def part_fields(entries: Mapping[str, str], part: int) -> dict[str, str]:
    """One part's fields as stored (empty: the part holds nothing)."""
    return parts({k: v for k, v in entries.items() if part_of(k) == part}).get(part, {})


def normalized(entries: Mapping[str, str]) -> dict[str, str]:
    """The entries as the sheet stores them: every part as ``parts`` keeps it, in the form's
    order."""
    kept = {name: v for fields in parts(entries).values() for name, v in fields.items()}
    return dict(sorted(kept.items(), key=_order))


def stamp(fields: Mapping[str, str]) -> str:
    """A short fingerprint of one part's fields ("": the part holds nothing)."""
    if not fields:
        return ""
    return hashlib.sha256(repr(sorted(fields.items())).encode()).hexdigest()[:12]


def part_stamps(entries: Mapping[str, str]) -> dict[int, str]:
    """The stamp of every part that holds something (part -> stamp). A write names the stamp
    of the part it was typed on; a different stamp now means that someone else changed it in
    between."""
    return {part: stamp(fields) for part, fields in parts(entries).items()}


def games_in(entries: Iterable[str]) -> set[int]:
    """The games that stored (normalized, so every name valid) entries have fields of: read
    from the names' distinct first parts ("g7" of "g7-c2-meld"), not from every name."""
    heads = {name.partition("-")[0] for name in entries}
    return {int(m[1]) for m in map(_GAME_HEAD.fullmatch, heads) if m is not None}


def without_game(entries: Mapping[str, str], game: int) -> dict[str, str]:
    """The entries of every field but those of ``game``."""
    return {k: v for k, v in entries.items() if game_of(k) != game}


def with_part(entries: Mapping[str, str], part: int, fields: Mapping[str, str]) -> dict[str, str]:
    """The entries with part ``part`` replaced by ``fields`` (nothing: the part cleared)."""
    rest = {k: v for k, v in entries.items() if part_of(k) != part}
    return normalized({**rest, **fields})


def game_stamps(entries: Mapping[str, str]) -> dict[int, str]:
    """The stamp of every entered game (game -> stamp), as ``part_stamps`` without the
    written totals."""
    return {part: s for part, s in part_stamps(entries).items() if part != TOTALS}


def differing_games(first: Mapping[str, str], second: Mapping[str, str]) -> list[int]:
    """The games whose fields differ between two versions of a sheet (e.g. the paper typed at
    the desk and the sheet as stored)."""
    a, b = game_stamps(first), game_stamps(second)
    return sorted(n for n in set(a) | set(b) if a.get(n, "") != b.get(n, ""))


def game_entries(game: int, values: Mapping[str, object], columns: int) -> dict[str, str]:
    """The fields of one game from its values as a phone sends them (1-based columns)::

        {"kind": "played", "declarer": 2, "bid": 200, "dealer": null, "notrick": false,
         "columns": [{"meld": 60, "tricks": 152, "revoked": false, "penalty": null}, ...]}

    Values become the strings the desk would have typed; ticks become "on"; anything else
    is kept as text for the engine to judge (never an error here)."""
    out: dict[str, str] = {}

    def put(name: str, value: object) -> None:
        if value is None or value is False or value == "":
            return
        text = "on" if value is True else str(value)
        out[name] = "".join(ch for ch in text if ch.isprintable()).strip()[:MAX_VALUE_LENGTH]

    for attr in ("kind", "declarer", "bid", "dealer", "notrick"):
        put(game_field(game, attr), values.get(attr))
    raw_columns = values.get("columns")
    if isinstance(raw_columns, list):
        for c, column in enumerate(raw_columns[:columns], start=1):
            if isinstance(column, Mapping):
                for attr in ("meld", "tricks", "revoked", "penalty"):
                    put(column_field(game, c, attr), column.get(attr))
    return clean(out)


def game_values(entries: Mapping[str, str], game: int, columns: int) -> dict[str, object]:
    """One game's fields in the phone's shape (see ``game_entries``), typed: whole numbers as
    numbers, an empty field as None, ticks as booleans (a stored typo stays its text)."""

    def value(name: str) -> int | str | None:
        text = entries.get(name, "")
        if not text:
            return None
        return int(text) if _NUMBER.match(text) else text

    return {
        "kind": entries.get(game_field(game, "kind")) or "played",
        "declarer": value(game_field(game, "declarer")),
        "bid": value(game_field(game, "bid")),
        "dealer": value(game_field(game, "dealer")),
        "notrick": bool(entries.get(game_field(game, "notrick"))),
        "columns": [
            {
                "meld": value(column_field(game, c, "meld")),
                "tricks": value(column_field(game, c, "tricks")),
                "revoked": bool(entries.get(column_field(game, c, "revoked"))),
                "penalty": value(column_field(game, c, "penalty")),
            }
            for c in range(1, columns + 1)
        ],
    }


def sheet_entries(sheet: SheetInput) -> dict[str, str]:
    """The desk's fields of a sheet as the engine reads it: the inverse of ``read_entries``
    (an evening taken in from a result file is written through the sheet's writer as the
    desk would have typed it)."""
    out: dict[str, str] = {}

    def put(name: str, value: object) -> None:
        if value is not None and value is not False:
            out[name] = "on" if value is True else str(value)

    for n, game in enumerate(sheet.games, start=1):
        if game is None:
            continue
        put(game_field(n, "dealer"), None if game.dealer is None else game.dealer + 1)
        if game.kind is None and game.declarer is None and not game.columns:
            continue  # only a dealer
        put(game_field(n, "kind"), None if game.kind is None else game.kind.value)
        put(game_field(n, "declarer"), None if game.declarer is None else game.declarer + 1)
        put(game_field(n, "bid"), game.bid)
        declarer = (
            game.columns[game.declarer]
            if game.declarer is not None and game.declarer < len(game.columns)
            else None
        )
        put(game_field(n, "notrick"), declarer is not None and declarer.took_trick is False)
        for c, party in enumerate(game.columns, start=1):
            put(column_field(n, c, "meld"), party.meld)
            put(column_field(n, c, "tricks"), party.tricks)
            put(column_field(n, c, "penalty"), party.penalty)
            put(column_field(n, c, "revoked"), (c - 1) in game.revoked)
        for c, written in enumerate(game.written, start=1):
            put(column_field(n, c, "written"), written)
    for c, total in enumerate(sheet.written_totals, start=1):
        put(total_field(c), total)
    return normalized(out)
