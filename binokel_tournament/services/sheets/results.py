"""Score sheets as the desk sees them: the table's layout (party columns, chairs), what was
typed scored by the sheet engine (``scoring.sheet``) with every message on its form field, and
the private working drafts kept while a desk person types. Saving is the one writer's
(``writer``); the form's field names are ``sheet_fields``'."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404

from scoring import RuleSet
from scoring.sheet import GameScore, SheetInput, SheetScore, score_sheet
from scoring.tables import TableShape, table_shape

from ...models import Entrant, ScoreSheet, Seat, SheetDraft, Table, Tournament
from ..access import Action, account_id, require
from ..errors import active_language
from ..writes import write_transaction
from . import sheet_fields as F

User = AbstractBaseUser | AnonymousUser | None


@dataclass(frozen=True)
class Column:
    """One party on the sheet: a player at a 3- or 4-table, a pair at a pair table."""

    number: int  # 1-based, seat order
    entrant: Entrant

    @property
    def label(self) -> str:
        return f"{self.entrant.start_number} {self.entrant.display_name}"


@dataclass(frozen=True)
class SheetLayout:
    table: Table
    rules: RuleSet
    shape: TableShape
    columns: tuple[Column, ...]
    players: tuple[str, ...]  # chairs in dealing order, 1-based on the page
    games: int

    @property
    def kind(self) -> str:
        return self.table.kind

    def dealer_label(self, seat: int) -> str:
        """The player in ``seat`` (1-based)."""
        return self.players[seat - 1] if 1 <= seat <= len(self.players) else "?"


def sheet_layout(table: Table, rules: RuleSet | None = None) -> SheetLayout:
    """The sheet of a table: its party columns and chairs (seat roles from the engine)."""
    rules = rules or table.round.tournament.rules()
    shape = table_shape(table.kind)
    seats = sorted(table.seats.all(), key=lambda s: s.position)
    columns = tuple(Column(s.position, s.entrant) for s in seats)
    players: list[str] = []
    for seat in range(shape.seats):
        column, which = shape.player_of_seat(seat)
        entrant = columns[column].entrant
        players.append(f"{person(entrant, which)} ({entrant.start_number})")
    return SheetLayout(table, rules, shape, columns, tuple(players), rules.games_for(table.kind))


def person(entrant: Entrant, which: int) -> str:
    """One player of an entrant: the named player (0) or, of a pair, the partner (1)."""
    return entrant.partner if which == 1 else entrant.name


@dataclass
class GameRow:
    """One game of the sheet as the desk shows it (numbers 1-based)."""

    number: int
    dealer: int  # seat
    entered: bool
    kind: str
    declarer: int | None  # column
    points: dict[int, int] | None  # column -> points, when valid
    won: bool | None
    sits_out: int | None  # column of a sitting-out dealer
    errors: dict[str, list[str]] = field(default_factory=dict)  # form field -> messages
    notes: list[str] = field(default_factory=list)  # warnings: shown, never blocking
    written_mismatch: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class SheetEvaluation:
    """A sheet as typed, scored once by the engine, with every message on its form field."""

    layout: SheetLayout
    entries: Mapping[str, str]
    input: SheetInput  # the entries as the engine read them
    score: SheetScore
    errors: dict[str, list[str]]  # form field -> error messages
    warnings: dict[str, list[str]]  # form field -> warnings (e.g. the scorer's sums)

    @property
    def error_count(self) -> int:
        return sum(len(v) for v in self.errors.values())

    @property
    def complete(self) -> bool:
        return self.score.complete

    @property
    def valid(self) -> bool:
        return self.score.complete and not self.score.errors

    @property
    def entered_games(self) -> int:
        return self.score.entered_games

    @property
    def written_totals(self) -> bool:
        return any(ref is not None and ref.game is None for ref in map(F.parse_name, self.entries))

    @property
    def scorer_mismatch(self) -> bool:
        return self.score.scorer_mismatch

    @property
    def totals(self) -> dict[int, int]:
        return {c.number: self.score.totals[c.number - 1] for c in self.layout.columns}

    @property
    def total_mismatch(self) -> set[int]:
        return {c + 1 for c in self.score.total_mismatch}

    @cached_property
    def running(self) -> dict[int, list[int]]:
        """Column -> running total after each game."""
        return {
            c.number: [g.running[c.number - 1] for g in self.score.games]
            for c in self.layout.columns
        }

    @cached_property
    def rows(self) -> list[GameRow]:
        return [self._row(g) for g in self.score.games]

    def _row(self, game: GameScore) -> GameRow:
        n = game.number
        columns = [c.number for c in self.layout.columns]
        names = {F.game_field(n, a) for a in F.GAME_FIELDS} | {
            F.column_field(n, c, a) for c in columns for a in F.COLUMN_FIELDS
        }
        entered = self.input.games[n - 1] if n <= len(self.input.games) else None
        return GameRow(
            number=n,
            dealer=game.dealer + 1,
            entered=game.entered,
            kind=self.entries.get(F.game_field(n, "kind"), "played"),
            declarer=None if entered is None or entered.declarer is None else entered.declarer + 1,
            points=None
            if game.points is None
            else {c: p for c, p in zip(columns, game.points, strict=True)},
            won=game.won,
            sits_out=None if game.sits_out is None else game.sits_out + 1,
            errors={k: v for k, v in self.errors.items() if k in names},
            notes=[m for k, v in self.warnings.items() if k in names for m in v],
            written_mismatch={c + 1 for c in game.written_mismatch},
        )


def evaluate(layout: SheetLayout, entries: Mapping[str, str], rules: RuleSet) -> SheetEvaluation:
    """Score a sheet as typed (``sheet_fields.clean`` strings); never raises for bad input."""
    read = F.read_entries(entries, layout.shape, layout.games)
    score = score_sheet(read.sheet, rules, read.problems)
    lang = active_language()
    errors: dict[str, list[str]] = {}
    for error in score.errors:
        name = F.form_field(error.field, score.games, layout.shape.columns)
        errors.setdefault(name, []).append(error.text(lang))
    warnings: dict[str, list[str]] = {}
    for warning in score.warnings:
        name = F.form_field(warning.field, score.games, layout.shape.columns)
        warnings.setdefault(name, []).append(warning.text(lang))
    return SheetEvaluation(layout, dict(entries), read.sheet, score, errors, warnings)


def evaluate_table(table: Table, entries: Mapping[str, str]) -> SheetEvaluation:
    rules = table.round.tournament.rules()
    return evaluate(sheet_layout(table, rules), entries, rules)


def load_table(table_id: int, tournament: Tournament | None = None) -> Table:
    """A table with its seats; 404 when it does not exist (in that tournament)."""
    tables = Table.objects.select_related("round__tournament", "competition").prefetch_related(
        Prefetch("seats", Seat.objects.select_related("entrant"))
    )
    if tournament is not None:
        tables = tables.filter(round__tournament=tournament)
    return get_object_or_404(tables, pk=table_id)


# --- working drafts (autosave) -------------------------------------------------------------
SHEET, PAPER = "sheet", "paper"  # what a draft is of: the sheet, or the paper typed blind


def keep_draft(
    table: Table,
    user: User,
    entries: Mapping[str, str],
    seq: int,
    base_version: int,
    base_stamps: Mapping[int, str] | None = None,
    kind: str = SHEET,
) -> SheetDraft | None:
    """Keep what ``user`` has typed so far as their working draft of the sheet (or of the
    paper typed blind, ``kind``), unless a newer state (a higher ``seq``) is kept already. A
    draft of the sheet equal to the saved sheet is dropped: nothing is unsaved then. Returns
    the draft kept (None: nothing to keep)."""
    if user is None or not user.is_authenticated:
        return None
    require(user, table.round.tournament, Action.ENTER_RESULTS)
    saved = ScoreSheet.objects.filter(table=table).values_list("entries", flat=True).first()
    stamps = {str(n): s for n, s in (base_stamps or {}).items()}
    mine = SheetDraft.objects.filter(table=table, user_id=account_id(user), kind=kind)
    with write_transaction():
        draft = mine.select_for_update().first()
        if draft is not None and draft.seq >= seq:
            return draft  # a later state arrived first; this one is older
        if kind == SHEET and F.normalized(entries) == F.normalized(F.clean(saved or {})):
            if draft is not None:
                draft.delete()
            return None
        if draft is None:
            try:
                with transaction.atomic():
                    return SheetDraft.objects.create(
                        table=table,
                        user_id=account_id(user),
                        kind=kind,
                        entries=dict(entries),
                        seq=seq,
                        base_version=base_version,
                        base_stamps=stamps,
                    )
            except IntegrityError:  # the same person's other tab created it a moment ago
                draft = mine.select_for_update().get()
                if draft.seq >= seq:
                    return draft
        draft.entries = dict(entries)
        draft.seq = seq
        draft.base_version = base_version
        draft.base_stamps = stamps
        draft.save()
        return draft


def draft_of(table: Table, user: User, kind: str = SHEET) -> SheetDraft | None:
    if user is None or not user.is_authenticated:
        return None
    return SheetDraft.objects.filter(table=table, user_id=account_id(user), kind=kind).first()


def discard_draft(table: Table, user: User, kind: str = SHEET) -> None:
    if user is not None and user.is_authenticated:
        SheetDraft.objects.filter(table=table, user_id=account_id(user), kind=kind).delete()


def entries_snapshot(entries: Mapping[str, Any]) -> dict[str, str]:
    """Stored entries as the form's strings (old rows may hold other types)."""
    return F.clean(entries)
