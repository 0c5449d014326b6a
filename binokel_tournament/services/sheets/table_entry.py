"""Tables enter their own games on a phone, through a link of their own (a QR code on the table
card and the pre-filled sheet). The paper sheet stays on the table as the record.

What a link may do: read and write its own table's sheet of its own round, nothing else; no
login. The link is an unguessable token; re-issuing it makes the old one useless at once, and
the organiser can switch all links of a tournament off. Games go into the same score sheet the
desk types (``ScoreSheet.entries``, the desk's wire format), one game at a time, each checked and
scored by the sheet engine before it is kept; a retried game (the reply was lost) is recognised
by the phone's key for it. When the round is over the opponents confirm the sheet on the phone;
from then on only the desk can change it, and the desk confirms it like any other sheet.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.tables import table_shape

from ...models import (
    GameKind,
    ScoreSheet,
    Seat,
    SheetStatus,
    Table,
    TableEntry,
    Tournament,
    new_entry_token,
)
from ..access import Action, Actor, require
from ..audit import log_action
from ..errors import DeskError, active_language
from ..rounds.state import require_started
from ..writes import write_transaction
from . import operations as O
from . import sheet_fields as F
from .inputs import phone_ops
from .operations import BadGame, SheetConflict
from .paper_check import open_differences
from .results import SheetEvaluation, evaluate_table, person
from .writer import write


class TableLinkError(DeskError):
    """The link does not open a table (unknown, re-issued, or links are switched off)."""


# --- links ---------------------------------------------------------------------------------------
def reissue_link(table: Table, user: Actor) -> str:
    """A new link for one table (e.g. a phone was lost): the old one stops working at once."""
    tournament = table.round.tournament
    require(user, tournament, Action.TABLE_LINKS)
    table.entry_token = new_entry_token()
    table.save(update_fields=["entry_token"])
    log_action(tournament, user, "table.link", table, after={"table": table.number})
    return table.entry_token


def table_by_token(token: str) -> Table:
    """The table a link opens, with everything its page shows; TableLinkError otherwise."""
    if not token:
        raise TableLinkError(_("Dieser Tisch-Link gilt nicht (mehr)."))
    table = (
        Table.objects.select_related("round__tournament", "competition", "sheet", "entry")
        .prefetch_related(Prefetch("seats", Seat.objects.select_related("entrant")))
        .filter(entry_token=token)
        .first()
    )
    if table is None or not table.round.tournament.table_entry:
        raise TableLinkError(_("Dieser Tisch-Link gilt nicht (mehr)."))
    return table


def _entry(table: Table, lock: bool = False) -> TableEntry:
    query = TableEntry.objects.select_for_update() if lock else TableEntry.objects
    found = query.filter(table=table).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return TableEntry.objects.create(table=table)
    except IntegrityError:  # the table's other phone made it a moment ago
        return query.get(table=table)


def _touch(entry: TableEntry, *changed: str) -> None:
    entry.last_activity_at = timezone.now()
    entry.save(update_fields=["last_activity_at", *changed])


# --- who sits where --------------------------------------------------------------------------
@dataclass(frozen=True)
class Chair:
    seat: int  # 1-based, dealing order
    column: int  # 1-based party column
    start_number: int
    name: str
    deals_first: bool
    keeps_score: bool


def chairs(table: Table) -> list[Chair]:
    """The chairs of the table in dealing order, with who sits there (the engine's roles)."""
    shape = table_shape(table.kind)
    entrants = [s.entrant for s in sorted(table.seats.all(), key=lambda s: s.position)]
    out = []
    for seat in range(shape.seats):
        column, which = shape.player_of_seat(seat)
        entrant = entrants[column]
        out.append(
            Chair(
                seat + 1,
                column + 1,
                entrant.start_number,
                person(entrant, which),
                seat == 0,
                seat == shape.scorer_seat,
            )
        )
    return out


def check_seats(table: Table, numbers: Sequence[int | None]) -> list[str]:
    """Compare the start numbers typed chair by chair with the seating plan; the problems
    (empty: everyone sits where the plan says, and that is recorded)."""
    require_started(table.round)
    expected = chairs(table)
    problems: list[str] = []
    if len(numbers) != len(expected):
        return [_("Bitte für jeden Platz eine Startnummer eintragen.")]
    for chair, number in zip(expected, numbers, strict=True):
        if number is None:
            problems.append(
                _("Platz %(seat)s: bitte die Startnummer eintragen.") % {"seat": chair.seat}
            )
        elif number != chair.start_number:
            problems.append(_where_else(table, chair, number))
    if not problems:
        with write_transaction():
            entry = _entry(table, lock=True)
            entry.seats_checked_at = entry.seats_checked_at or timezone.now()
            entry.last_activity_at = timezone.now()
            entry.save(update_fields=["seats_checked_at", "last_activity_at"])
    return problems


def _where_else(table: Table, chair: Chair, number: int) -> str:
    here = next((c for c in chairs(table) if c.start_number == number), None)
    if here is not None:
        return _(
            "Platz %(seat)s: die Startnummer %(number)s sitzt an diesem Tisch auf Platz "
            "%(other)s. Bitte so setzen, wie der Tischplan sagt."
        ) % {"seat": chair.seat, "number": number, "other": here.seat}
    elsewhere = (
        Seat.objects.filter(table__round=table.round, entrant__start_number=number)
        .select_related("table")
        .first()
    )
    if elsewhere is not None:
        return _(
            "Platz %(seat)s: die Startnummer %(number)s spielt in diesem Durchgang an Tisch "
            "%(table)s, nicht hier. Ist das der richtige Tisch?"
        ) % {"seat": chair.seat, "number": number, "table": elsewhere.table.number}
    return _("Platz %(seat)s: die Startnummer %(number)s spielt in diesem Durchgang nicht.") % {
        "seat": chair.seat,
        "number": number,
    }


# --- games -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameSaved:
    evaluation: SheetEvaluation
    repeated: bool = False


class GameConflict(DeskError):
    """The game was changed since the phone's values were typed on it (another phone, the desk):
    nothing was kept; the phone shows both versions and the person chooses."""

    def __init__(self, conflict: O.PartConflict, columns: int) -> None:
        who = (
            _("die Turnierleitung") if conflict.source != O.SOURCE_TABLE else _("ein anderes Handy")
        )
        if conflict.stamp:
            text = _(
                "Spiel %(n)s hat inzwischen %(who)s anders eingetragen. Nichts wurde "
                "überschrieben: bitte beide Fassungen vergleichen und eine wählen."
            )
        else:
            text = _(
                "Spiel %(n)s hat inzwischen %(who)s gelöscht. Nichts wurde überschrieben: "
                "bitte wählen, ob Ihre Fassung gelten soll."
            )
        super().__init__(text % {"n": conflict.number, "who": who})
        self.number = conflict.number
        self.stamp = conflict.stamp
        self.source = _phone_source(conflict.source)
        self.theirs = (
            F.game_values(conflict.theirs, conflict.number, columns) if conflict.stamp else None
        )


def _phone_source(source: str) -> str:
    """Who changed a game, as the phone tells it: the table's phones, or the desk."""
    if not source:
        return ""
    return O.SOURCE_TABLE if source == O.SOURCE_TABLE else O.SOURCE_DESK


def check_game(table: Table, number: int, values: Mapping[str, object]) -> SheetEvaluation:
    """The sheet as it would be with this game entered (nothing is kept): the engine's
    messages, points and running totals for the phone while the game is typed."""
    sheet = getattr(table, "sheet", None)
    entries = F.without_game(sheet.entries if sheet else {}, number)
    columns = table_shape(table.kind).columns
    return evaluate_table(table, {**entries, **F.game_entries(number, values, columns)})


def save_game(
    table: Table,
    number: int,
    values: object,
    key: str,
    base: str | None,
    delete: bool = False,
) -> GameSaved:
    """Keep one game entered at the table, or remove it (``delete``: the phone's explicit,
    confirmed delete; never an empty or malformed body). ``key`` is the phone's own key for
    this step: the same key with the same values again is the same save. ``base`` is the stamp
    of the game the values were typed on (``""``: a new game; None: the phone named none): if
    the game is stored otherwise now, nothing is kept and GameConflict carries both versions.
    Stored by the one writer; afterwards ``table.sheet`` and ``table.entry`` are what was
    stored, for the phone's answer."""
    tournament = table.round.tournament
    columns = table_shape(table.kind).columns
    if not 1 <= number <= tournament.rules().games_for(table.kind):
        raise BadGame(_("Dieses Spiel gibt es auf dem Zettel nicht."))
    require_started(table.round)
    # a phone that names no state (None) may only add a new game, never write over one
    ops = phone_ops(number, values, columns, base or "", delete)
    try:
        written = write(table, ops, source=O.SOURCE_TABLE, key=_receipt_key(key, number, ops, base))
    except SheetConflict as exc:
        raise GameConflict(exc.conflicts[0], columns) from exc
    if written.repeated:
        table.sheet = written.sheet
    return GameSaved(written.evaluation, repeated=written.repeated)


def _receipt_key(key: str, number: int, ops: Sequence[O.Operation], base: str | None) -> str:
    key = "".join(ch for ch in key if ch.isalnum() or ch == "-")[:40]
    if not key:
        return ""
    content = repr((number, ops, base)).encode()
    return f"t-{key}-{hashlib.sha256(content).hexdigest()[:16]}"


# --- the end of the round --------------------------------------------------------------------
def opponents(table: Table) -> list[Chair]:
    """Who confirms the sheet at the table: every party but the scorer's (one chair each)."""
    shape = table_shape(table.kind)
    seen: set[int] = set()
    out = []
    for chair in chairs(table):
        if chair.column - 1 == shape.scorer_column or chair.column in seen:
            continue
        seen.add(chair.column)
        out.append(chair)
    return out


def confirm_at_table(table: Table, numbers: Sequence[int | None], version: int | None) -> None:
    """The opponents confirm the sheet, each with their own start number: afterwards the table
    can no longer change it; it waits for the desk's confirmation. ``version`` is the sheet's
    version the phone showed them: a sheet changed since (the desk, the other phone) is not
    confirmed (StaleConfirmation), they look at it again."""
    require_started(table.round)
    expected = tuple(sorted(c.start_number for c in opponents(table)))
    typed = tuple(n for n in numbers if n is not None)
    write(table, [O.ConfirmAtTable(typed, expected, version)], source=O.SOURCE_TABLE)


def call_desk(table: Table) -> None:
    """The table asks for the Turnierleitung (shown on the desk's board until cleared)."""
    require_started(table.round)
    with write_transaction():
        entry = _entry(table, lock=True)
        entry.help_requested_at = timezone.now()
        entry.help_acknowledged_at = None  # a new call waits for the desk again
        entry.last_activity_at = entry.help_requested_at
        entry.save(update_fields=["help_requested_at", "help_acknowledged_at", "last_activity_at"])


def acknowledge_call(table: Table, user: Actor) -> None:
    """The desk saw the call and is on its way: the phone says "Die Turnierleitung kommt"."""
    require(user, table.round.tournament, Action.ENTER_RESULTS)
    TableEntry.objects.filter(table=table, help_requested_at__isnull=False).update(
        help_acknowledged_at=timezone.now()
    )


def clear_call(table: Table, user: Actor) -> None:
    require(user, table.round.tournament, Action.ENTER_RESULTS)
    TableEntry.objects.filter(table=table).update(help_requested_at=None, help_acknowledged_at=None)


# --- what the phone shows --------------------------------------------------------------------
def phone_stamp(table: Table) -> str:
    """A fingerprint of everything the phone shows that can change (the sheet's version and
    status, the table's seat check, confirmation and call): equal stamps, nothing new."""
    sheet: ScoreSheet | None = getattr(table, "sheet", None)
    entry: TableEntry | None = getattr(table, "entry", None)
    return _stamp(
        (sheet.version, sheet.status) if sheet is not None else None,
        tuple(getattr(entry, name) for name in _STAMPED) if entry is not None else None,
        table.round.tournament.table_entry,
    )


_STAMPED = ("seats_checked_at", "confirmed_at", "help_requested_at", "help_acknowledged_at")


def _stamp(sheet: tuple[int, str] | None, entry: tuple[Any, ...] | None, open_: bool) -> str:
    parts = ((sheet[0], str(sheet[1])) if sheet is not None else None, entry, open_)
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def polled_stamp(token: str) -> tuple[int, str] | None:
    """For a phone's regular poll (``?since=``): the table's id and its ``phone_stamp``,
    read as plain values in one query (not the table with its round, tournament, sheet and
    seats, which cost a hall of polling phones most of their answer); None unless the link
    opens a table of a started round (the table's page then says why)."""
    if not token:
        return None
    fields = ("sheet__version", "sheet__status") + tuple(f"entry__{n}" for n in _STAMPED)
    rows = list(
        Table.objects.filter(entry_token=token, round__locked=True)
        .order_by()
        .values_list("pk", "round__tournament__table_entry", "sheet__pk", "entry__pk", *fields)
        [:1]
    )  # fmt: skip
    if not rows or not rows[0][1]:
        return None
    pk, open_, sheet, entry, version, status, *stamped = rows[0]
    return pk, _stamp(
        (version, status) if sheet is not None else None,
        tuple(stamped) if entry is not None else None,
        open_,
    )


def phone_state(table: Table, evaluation: SheetEvaluation | None = None) -> dict[str, Any]:
    """Everything the table's page shows, as JSON: who sits where, the games as kept (with the
    engine's dealer, points and running totals), whether the table may still change them."""
    sheet = getattr(table, "sheet", None)
    if evaluation is None:
        evaluation = evaluate_table(table, sheet.entries if sheet else {})
    entry: TableEntry | None = getattr(table, "entry", None)
    layout = evaluation.layout
    rules = layout.rules
    shape = layout.shape
    labels = dict(GameKind.choices)
    seated = chairs(table)
    games = []
    stamps = F.game_stamps(evaluation.entries)
    sources = (sheet.game_sources or {}) if sheet is not None else {}
    for game in evaluation.score.games:
        n = game.number
        games.append(
            {
                "number": n,
                "dealer": game.dealer + 1,
                "dealer_name": seated[game.dealer].name,
                "sits_out": None if game.sits_out is None else game.sits_out + 1,
                "entered": game.entered,
                "values": F.game_values(evaluation.entries, n, shape.columns),
                "stamp": stamps.get(n, ""),
                "by": _phone_source(sources.get(str(n), "")),
                "points": None if game.points is None else list(game.points),
                "running": list(game.running),
                "notes": [w.text(active_language()) for w in game.warnings],
            }
        )
    locked = (entry is not None and entry.confirmed_at is not None) or (
        sheet is not None and sheet.status != SheetStatus.DRAFT
    )
    return {
        "tournament": table.round.tournament.name,
        "round": table.round.number,
        "table": table.number,
        "kind": table.kind,
        "kind_label": str(table.get_kind_display()),
        "columns": [
            {
                "number": c.number,
                "start_number": c.entrant.start_number,
                "name": c.entrant.display_name,
            }
            for c in layout.columns
        ],
        "chairs": [chair.__dict__ for chair in seated],
        "kinds": [
            {
                "value": k.value,
                "label": str(labels[k.value]),
                "melds": not k.is_special,
                "tricks": k.has_tricks,
            }
            for k in rules.game_kinds
        ],
        "penalties": rules.penalties,
        "total_eyes": rules.total_eyes,
        "games": games,
        "totals": list(evaluation.score.totals),
        "entered": evaluation.entered_games,
        "complete": evaluation.valid,
        "version": sheet.version if sheet else 0,
        "seats_checked": entry is not None and entry.seats_checked_at is not None,
        "help": entry is not None and entry.help_requested_at is not None,
        "help_coming": entry is not None and entry.help_acknowledged_at is not None,
        "stamp": phone_stamp(table),
        "locked": locked,
        "confirmed_at_table": entry is not None and entry.confirmed_at is not None,
        "confirmed_at_desk": sheet is not None and sheet.status == SheetStatus.CONFIRMED,
        "opponents": [chair.__dict__ for chair in opponents(table)],
    }


# --- the desk's board --------------------------------------------------------------------------
@dataclass
class BoardRow:
    table: Table
    entered: int
    games: int
    seats_checked: bool
    confirmed_at_table: bool
    confirmed_at_desk: bool
    help: bool
    help_coming: bool
    last_activity: Any
    mismatch: bool
    errors: int
    notes: list[str] = field(default_factory=list)
    # games where the paper typed blind at the desk differs from the sheet, not yet decided
    differs: list[int] = field(default_factory=list)


def board(tournament: Tournament, shown: Sequence[Table]) -> list[BoardRow]:
    """The tables shown on the desk's live board (one page of a round), in one query."""
    rules = tournament.rules()
    tables = list(
        Table.objects.filter(pk__in=[t.pk for t in shown])
        .select_related("sheet", "entry", "competition", "round")
        .annotate(stored_games=Count("sheet__games"))
        .order_by("number")
    )
    rows = []
    for table in tables:
        sheet: ScoreSheet | None = getattr(table, "sheet", None)
        entry: TableEntry | None = getattr(table, "entry", None)
        entered = table.stored_games
        rows.append(
            BoardRow(
                table=table,
                entered=entered,
                games=rules.games_for(table.kind),
                seats_checked=entry is not None and entry.seats_checked_at is not None,
                confirmed_at_table=entry is not None and entry.confirmed_at is not None,
                confirmed_at_desk=sheet is not None and sheet.status == SheetStatus.CONFIRMED,
                help=entry is not None and entry.help_requested_at is not None,
                help_coming=entry is not None and entry.help_acknowledged_at is not None,
                last_activity=entry.last_activity_at if entry else None,
                mismatch=sheet is not None and sheet.scorer_mismatch,
                errors=sheet.error_count if sheet else 0,
                differs=open_differences(sheet) if sheet is not None else [],
            )
        )
    return rows
