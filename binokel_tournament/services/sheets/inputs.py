"""What the desk's form and a table's phone send, translated to the sheet writer's operations
-- in one place, beside the sheet's field names (``sheet_fields``).

The desk's form carries every game of the version it was opened on (``version``) and each
part's stamp then (``opened``: ``1:ab12…,2:cd34…``; part 0 is the scorer's written totals).
Posting the whole form (a browser without script does) changes exactly the parts whose values
differ from what it was opened on; a part someone else changed meanwhile is refused with both
versions (``keep-g{n}`` = ``mine``/``theirs`` with ``current-g{n}`` then decides it). Ticks of
the four-eyes check are ``checked-g{n}`` = the game's stamp as shown.

A phone sends one game at a time as JSON (``phone_game``) with the stamp it was typed on."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from django.utils.translation import gettext as _

from . import operations as O
from . import sheet_fields as F

_STAMP = re.compile(r"^[0-9a-f]{1,16}$")
_PAIR = re.compile(r"^([0-9]{1,3}):([0-9a-f]{0,16})$")
MAX_OPENED: Final = 4000  # characters of the ``opened`` field read at most


def opened_text(entries: Mapping[str, str]) -> str:
    """The ``opened`` field for a form showing ``entries`` ("-": an empty sheet)."""
    return ",".join(f"{n}:{s}" for n, s in sorted(F.part_stamps(entries).items())) or "-"


def read_opened(text: str) -> dict[int, str] | None:
    """The stamps a form was opened on (None: the form named none, or not readably)."""
    if text == "-":
        return {}
    if not text:
        return None
    out: dict[int, str] = {}
    for item in text[:MAX_OPENED].split(","):
        match = _PAIR.match(item.strip())
        if match is None:
            return None
        if match[2]:
            out[int(match[1])] = match[2]
    return out


def _post_value(data: Mapping[str, object], name: str) -> str:
    getter = getattr(data, "getlist", None)
    value = getter(name)[-1] if getter is not None and getter(name) else data.get(name, "")
    return value if isinstance(value, str) else ""


def _numbered(data: Mapping[str, object], prefix: str) -> dict[int, str]:
    """``{prefix}{n}`` fields with a stamp as value (``checked-g4=ab12…``)."""
    out: dict[int, str] = {}
    for name in data:
        if isinstance(name, str) and name.startswith(prefix):
            number = name[len(prefix) :]
            value = _post_value(data, name)
            if number.isdigit() and len(number) <= 3 and _STAMP.match(value):
                out[int(number)] = value
    return out


def desk_ops(
    data: Mapping[str, object],
    *,
    games: int,
    stored: Mapping[str, str],
    stored_version: int,
    version: int | None,
    confirm: bool,
) -> list[O.Operation]:
    """The operations a post of the desk's sheet form asks for. ``stored``/``stored_version``:
    the sheet as read before the write (the writer checks again under its lock)."""
    posted = F.clean(data)
    opened = read_opened(_post_value(data, "opened"))
    if opened is None and version == 0:
        opened = {}  # the page showed a sheet with nothing on it
    elif opened is None and version is not None and version == stored_version:
        opened = F.part_stamps(stored)  # an older page: it showed the stored version
    keep = {
        n: choice
        for n in range(games + 1)
        if (choice := _post_value(data, f"keep-g{n}")) in ("mine", "theirs")
    }
    current = {
        n: "" if value == "-" else value
        for n in keep
        if (value := _post_value(data, f"current-g{n}")) == "-" or _STAMP.match(value)
    }
    now = F.part_stamps(stored)
    ops: list[O.Operation] = []
    for part in range(games + 1):
        fields = F.part_fields(posted, part)
        mine = F.stamp(fields)
        base: str | None = opened.get(part, "") if opened is not None else None
        if keep.get(part) == "theirs":
            continue  # the version stored by someone else stays
        if keep.get(part) == "mine" and part in current:
            base = current[part]  # this person saw the other version and keeps theirs
        elif base is None and mine == now.get(part, ""):
            continue  # the same as stored
        elif base is not None and mine == base:
            continue  # untouched since the form was opened
        ops.append(O.SetGame(part, fields, base) if fields else O.ClearGame(part, base))
    if confirm:
        # what the person saw: the form as posted, and the other's version where they kept it
        seen = F.part_stamps(posted)
        for part, choice in keep.items():
            if choice == "theirs":
                seen[part] = current.get(part, now.get(part, ""))
        seen = {part: s for part, s in seen.items() if s}
        ops.append(O.ConfirmAtDesk(seen, _numbered(data, "checked-g")))
    return ops


# --- the phone ---------------------------------------------------------------------------
_INT_ATTRS = ("declarer", "bid", "dealer")
_COLUMN_INTS = ("meld", "tricks", "penalty")


def phone_game(number: int, values: object, columns: int) -> dict[str, str]:
    """The fields of one game sent by a phone, checked for shape and types first: ``kind`` a
    word, ``declarer``/``bid``/``dealer`` and every column's ``meld``/``tricks``/``penalty``
    whole numbers (or empty), ticks true or false, ``columns`` one object per party. A body of
    another shape is refused (BadGame, nothing changes); a value of the wrong type is refused
    on its field (GameRefused); what the values mean is the engine's to judge."""
    unreadable = _("Das Spiel ist nicht lesbar; nichts wurde geändert.")
    if not isinstance(values, Mapping):
        raise O.BadGame(unreadable)
    raw_columns = values.get("columns")
    if not isinstance(raw_columns, list) or len(raw_columns) != columns:
        raise O.BadGame(unreadable)
    if not all(isinstance(c, Mapping) for c in raw_columns):
        raise O.BadGame(unreadable)
    kind = values.get("kind")
    if not isinstance(kind, str) or not kind:
        raise O.BadGame(unreadable)
    messages: dict[str, list[str]] = {}
    not_whole = _("Bitte eine ganze Zahl eintragen.")

    def whole(field: str, value: object) -> None:
        if value is None or value == "" or (isinstance(value, int) and not isinstance(value, bool)):
            return
        messages.setdefault(field, []).append(not_whole)

    def tick(value: object) -> None:
        if value is not None and not isinstance(value, bool):
            raise O.BadGame(unreadable)

    for attr in _INT_ATTRS:
        whole(attr, values.get(attr))
    tick(values.get("notrick"))
    for c, column in enumerate(raw_columns, start=1):
        for attr in _COLUMN_INTS:
            whole(f"columns.{c}.{attr}", column.get(attr))
        tick(column.get("revoked"))
    if messages:
        raise O.GameRefused(messages)
    fields = F.part_fields(F.game_entries(number, values, columns), number)
    if not fields or set(fields) <= {F.game_field(number, "dealer")}:
        raise O.BadGame(_("Das Spiel ist leer; nichts wurde geändert."))
    return fields


def phone_ops(
    number: int, values: object, columns: int, base: str | None, delete: bool
) -> list[O.Operation]:
    """A phone's step for one game: keep it (its values) or remove it (an explicit, confirmed
    delete; never an empty or malformed body), on the stamp it was typed on."""
    if delete:
        return [O.ClearGame(number, base)]
    return [O.SetGame(number, phone_game(number, values, columns), base)]
