"""Score sheets at the desk: what was typed is scored by the sheet engine (``scoring.sheet``),
kept as a private working draft while the desk types, saved as versions that lose nothing,
confirmed when valid; conflicting saves are detected in the database and a retried save is
recognised by its submission key.

The form's field names and how typed strings become the engine's sheet: ``sheet_fields``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import RuleSet
from scoring.sheet import GameScore, SheetInput, SheetScore, score_sheet
from scoring.tables import TableShape, table_shape

from ...models import (
    Entrant,
    Game,
    PartyResult,
    Round,
    ScoreSheet,
    Seat,
    SheetDraft,
    SheetStatus,
    SubmissionReceipt,
    Table,
    TableEntry,
    Tournament,
)
from ..access import Action, account_id, require
from ..audit import log_action
from ..errors import DeskError, active_language
from ..evening.rounds import mark_started
from ..server import public_cache
from ..server.backup import schedule_backup
from . import sheet_fields as F
from .writes import write_transaction

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


class SheetConflict(DeskError):
    """Someone else saved the sheet since it was opened: nothing is overwritten."""

    def __init__(self, sheet: ScoreSheet) -> None:
        who = sheet.entered_by.get_username() if sheet.entered_by else "?"
        super().__init__(
            _(
                "Dieser Spielzettel wurde inzwischen von %(who)s gespeichert "
                "(Version %(version)s). Ihre Eingaben wurden nicht gespeichert; "
                "bitte vergleichen und erneut speichern."
            )
            % {"who": who, "version": sheet.version}
        )
        self.sheet = sheet


@dataclass(frozen=True)
class SaveOutcome:
    sheet: ScoreSheet
    evaluation: SheetEvaluation
    confirmed: bool
    notice: str = ""
    repeated: bool = False  # the same submission was carried out before: nothing done again


def load_table(table_id: int, tournament: Tournament | None = None) -> Table:
    """A table with its seats; 404 when it does not exist (in that tournament)."""
    tables = Table.objects.select_related("round__tournament", "competition").prefetch_related(
        Prefetch("seats", Seat.objects.select_related("entrant"))
    )
    if tournament is not None:
        tables = tables.filter(round__tournament=tournament)
    return get_object_or_404(tables, pk=table_id)


def save_sheet(
    table: Table,
    data: Mapping[str, object],
    user: User,
    expected_version: int | None,
    confirm: bool = False,
    submission: str = "",
) -> SaveOutcome:
    """Save what was typed (``data``: a form post or entries) as a new version."""
    evaluation = evaluate_table(table, F.clean(data))
    return save_evaluated(evaluation, user, expected_version, confirm, submission)


def save_evaluated(
    evaluation: SheetEvaluation,
    user: User,
    expected_version: int | None,
    confirm: bool = False,
    submission: str = "",
) -> SaveOutcome:
    """Save an evaluated sheet as a new version (a draft keeps errors); confirm when asked and
    valid.

    ``expected_version`` is the version the desk opened (0 for a new sheet); a different stored
    version is a conflict and nothing is written. ``submission`` is the key the page sent with
    this save: the same key again is the same save (the reply was lost), answered with what was
    done then."""
    table = evaluation.layout.table
    require(user, table.round.tournament, Action.ENTER_RESULTS)
    done = receipt_of(submission, table)
    if done is not None:
        return _repeated(done, evaluation)
    try:
        with write_transaction():
            outcome = _save(evaluation, user, expected_version, confirm)
            record_receipt(submission, outcome.sheet, outcome.confirmed, outcome.notice)
    except IntegrityError as exc:
        # Two requests at once: the same submission twice, or two desks creating a new sheet.
        done = receipt_of(submission, table)
        if done is not None:
            return _repeated(done, evaluation)
        other = ScoreSheet.objects.filter(table=table).first()
        if other is None:
            raise
        raise SheetConflict(other) from exc
    return outcome


def _repeated(done: SubmissionReceipt, evaluation: SheetEvaluation) -> SaveOutcome:
    sheet = ScoreSheet.objects.get(table=done.table)
    return SaveOutcome(sheet, evaluation, done.confirmed, done.notice, repeated=True)


def _save(
    evaluation: SheetEvaluation, user: User, expected_version: int | None, confirm: bool
) -> SaveOutcome:
    layout = evaluation.layout
    table = layout.table
    tournament = table.round.tournament
    entries = dict(evaluation.entries)
    author = user if user is not None and user.is_authenticated else None
    sheet = locked_sheet(table)
    if sheet is None:
        if expected_version:
            raise DeskError(_("Der Spielzettel wurde gelöscht."))
        if not evaluation.entered_games and not evaluation.written_totals:
            raise DeskError(_("Auf dem Spielzettel ist nichts eingetragen; nichts gespeichert."))
        sheet = ScoreSheet.objects.create(table=table, version=0, entered_by_id=account_id(author))
        before = None
    else:
        if expected_version is not None and expected_version != sheet.version:
            raise SheetConflict(sheet)
        before = {"status": sheet.status, "entries": sheet.entries}
    changed = sheet.entries != entries or sheet.version == 0
    was_confirmed = sheet.status == SheetStatus.CONFIRMED
    if was_confirmed and changed:  # a correction: organisers only
        require(user, tournament, Action.CORRECT_RESULTS)
    valid = evaluation.valid
    # A correction of a confirmed sheet: with the double check it goes back to a draft that a
    # second person must confirm; without it, it must be valid and stays counted.
    reopen = was_confirmed and changed and tournament.double_check
    if was_confirmed and changed and not valid and not reopen:
        raise DeskError(
            _(
                "Ein bestätigter Spielzettel kann nur mit vollständigen, gültigen Eingaben "
                "korrigiert werden. Es wurde nichts geändert."
            )
        )
    if changed:
        sheet.entries = entries
        sheet.entered_by = author  # type: ignore[assignment]
        sheet.entered_at_table = False  # now it is what this desk person typed
        if sheet.status == SheetStatus.TABLE:
            sheet.status = SheetStatus.DRAFT  # no longer as the table confirmed it
    if reopen:
        sheet.status = SheetStatus.DRAFT
        sheet.confirmed_by = None
        sheet.confirmed_at = None
    notice = ""
    if reopen:
        notice = _(
            "Korrektur gespeichert. Vier-Augen-Prinzip: der Spielzettel zählt erst wieder, "
            "wenn eine zweite Person ihn bestätigt."
        )
    confirming = confirm and sheet.status != SheetStatus.CONFIRMED
    open_games = unresolved_paper(sheet) if confirming and tournament.double_check else []
    if confirming and open_games:
        confirming = False
        notice = _(
            "Gespeichert, aber noch nicht bestätigt: Papier und Handy weichen ab in Spiel "
            "%(games)s. Bitte unten für jedes Spiel entscheiden, was gilt."
        ) % {"games": ", ".join(map(str, open_games))}
    elif confirming and not valid:
        confirming = False
        notice = _(
            "Als Entwurf gespeichert. Bestätigen geht erst, wenn alle %(n)s Spiele "
            "vollständig und ohne Fehler eingetragen sind."
        ) % {"n": layout.games}
    elif confirming and tournament.double_check and not _second_person(sheet, author, table):
        confirming = False
        notice = notice or _(
            "Vier-Augen-Prinzip: gespeichert, aber eine andere Person als die, die den "
            "Spielzettel eingegeben hat, muss ihn bestätigen."
        )
    if confirming:
        sheet.status = SheetStatus.CONFIRMED
        sheet.confirmed_by = author  # type: ignore[assignment]
        sheet.confirmed_at = timezone.now()
    if author is not None:
        # what this person typed is now a saved version: their working draft is done
        SheetDraft.objects.filter(table=table, user_id=account_id(author)).delete()
    if not changed and not confirming:
        return SaveOutcome(sheet, evaluation, sheet.status == SheetStatus.CONFIRMED, notice)
    action = "sheet.correct" if was_confirmed else "sheet.confirm" if confirming else "sheet.save"
    commit_sheet(
        sheet,
        evaluation,
        author,
        action,
        before,
        {"status": sheet.status, "entries": sheet.entries},
        source=SOURCE_DESK,
        previous=before["entries"] if before else {},
    )
    if was_confirmed or sheet.status == SheetStatus.CONFIRMED:
        schedule_backup(tournament)
    return SaveOutcome(sheet, evaluation, sheet.status == SheetStatus.CONFIRMED, notice)


# --- the one writer ----------------------------------------------------------------------------
# Every new version of a score sheet -- the desk's form, a game from a table's phone, a desk
# correction, a confirmation -- is stored here, inside the caller's write transaction and after
# the caller locked the sheet's row (``locked_sheet``) and checked the state it was typed on: the
# version goes up by one, only the games that changed are written, who changed each game is
# kept, the round is locked (audited) and the change is audited.
SOURCE_DESK = "desk"
SOURCE_TABLE = "table"


def receipt_of(key: str, table: Table) -> SubmissionReceipt | None:
    """The save carried out before under this key (a retried request), if any."""
    return SubmissionReceipt.objects.filter(key=key, table=table).first() if key else None


def record_receipt(key: str, sheet: ScoreSheet, confirmed: bool = False, notice: str = "") -> None:
    """Remember a save under the key its page sent (inside the save's transaction)."""
    if key:
        SubmissionReceipt.objects.create(
            key=key,
            table_id=sheet.table_id,
            version=sheet.version,
            confirmed=confirmed,
            notice=notice,
        )


def locked_sheet(table: Table) -> ScoreSheet | None:
    """The table's sheet, its row locked for this write transaction (None: none yet)."""
    return ScoreSheet.objects.select_for_update().filter(table=table).first()


def commit_sheet(
    sheet: ScoreSheet,
    evaluation: SheetEvaluation,
    author: User,
    action: str,
    before: Any,
    after: dict[str, Any],
    *,
    source: str,
    previous: Mapping[str, str],
) -> None:
    """Store ``sheet`` (its entries set from ``evaluation``) as its next version.

    ``previous`` is what the sheet held before this change: every game whose fields differ is
    marked as changed by ``source`` (``SOURCE_DESK`` or ``SOURCE_TABLE``)."""
    old, new = F.game_stamps(previous), F.game_stamps(sheet.entries)
    sources = dict(sheet.game_sources or {})
    for game in set(old) | set(new):
        if old.get(game) != new.get(game):
            sources[str(game)] = source
    sheet.game_sources = sources
    sheet.version += 1
    store_sheet(sheet, evaluation)
    table = evaluation.layout.table
    lock_round(table.round, author)
    log_action(
        table.round.tournament, author, action, sheet, before, {**after, "version": sheet.version}
    )
    was = before.get("status") if isinstance(before, dict) else None
    public_cache.sheet_changed(
        table.round.tournament.slug, table.competition.mode, was, sheet.status, table.pk
    )


def unresolved_paper(sheet: ScoreSheet) -> list[int]:
    """The double check of a table that entered its games on a phone: the games where the
    paper typed at the desk differs from the phone and nobody has decided yet which counts
    (taking the phone's game makes them equal; "Papier gilt" records the paper's stamp)."""
    if sheet.entered_at_table:
        return []  # the desk has not typed the paper yet: nothing to compare
    phone = (
        TableEntry.objects.filter(table_id=sheet.table_id).values_list("entries", flat=True).first()
    )
    if not phone:
        return []
    stamps = F.game_stamps(sheet.entries)
    accepted = sheet.paper_accepted or {}
    return [
        n
        for n in F.differing_games(phone, sheet.entries)
        if accepted.get(str(n)) != stamps.get(n, "")
    ]


def lock_round(round_obj: Round, user: User = None) -> None:
    """A round with results has started: its seating no longer changes (audited)."""
    if not round_obj.locked:
        mark_started(round_obj, user, "round.lock")


def _second_person(sheet: ScoreSheet, author: User, table: Table) -> bool:
    """Whether ``author`` may confirm under the double check: someone other than whoever
    entered it. A table that entered its games on a phone was the first pair of eyes: any desk
    person confirms, the one who typed the paper to compare included."""
    if sheet.entered_by_id is None:
        return sheet.entered_at_table
    if TableEntry.objects.filter(table=table).exclude(entries={}).exists():
        return True
    return sheet.entered_by_id != getattr(author, "pk", None)


GAME_FIELDS = tuple(f.attname for f in Game._meta.concrete_fields if f.name not in ("id", "sheet"))
RESULT_FIELDS = tuple(
    f.attname for f in PartyResult._meta.concrete_fields if f.name not in ("id", "game")
)


def store_sheet(sheet: ScoreSheet, evaluation: SheetEvaluation) -> None:
    """Persist the sheet and one Game with its PartyResults per valid game.

    Only what changed is written: a game whose stored row and party results equal the new
    ones (every field compared) stays as it is; changed and dropped games are deleted, changed
    and new ones inserted. A table entering its fifth game writes that game, not five; a
    desk confirming what it saved as a draft writes no game at all."""
    score = evaluation.score
    sheet.error_count = evaluation.error_count
    sheet.complete = score.complete
    sheet.scorer_mismatch = score.scorer_mismatch
    sheet.save()
    layout = evaluation.layout
    read = evaluation.input
    round_number = layout.table.round.number
    wanted: dict[int, tuple[Game, list[PartyResult]]] = {}
    for game_score in score.games:
        entry = read.games[game_score.number - 1] if game_score.number <= len(read.games) else None
        if game_score.points is None or entry is None or entry.kind is None:
            continue
        game = Game(
            sheet=sheet,
            number=game_score.number,
            dealer=game_score.dealer + 1,
            kind=entry.kind.value,
            declarer=(entry.declarer or 0) + 1,
            bid=entry.bid,
            won=bool(game_score.won),
        )
        results: list[PartyResult] = []
        for column in layout.columns:
            c = column.number - 1
            plays = c != game_score.sits_out
            party = entry.columns[c]
            results.append(
                PartyResult(
                    game=game,
                    entrant=column.entrant,
                    round_number=round_number,
                    meld=party.meld if plays else None,
                    tricks=party.tricks if plays else None,
                    revoked=plays and c in entry.revoked,
                    is_declarer=c == entry.declarer,
                    sits_out=not plays,
                    points=game_score.points[c],
                )
            )
        wanted[game.number] = (game, results)
    stored = _stored_games(sheet)
    unchanged = {
        number
        for number, (game, results) in wanted.items()
        if number in stored and stored[number][1] == _signature(game, results)
    }
    stale = [pk for number, (pk, _sig) in stored.items() if number not in unchanged]
    if stale:
        Game.objects.filter(pk__in=stale).delete()
    new = [wanted[number] for number in sorted(wanted) if number not in unchanged]
    Game.objects.bulk_create([game for game, _results in new])
    PartyResult.objects.bulk_create([r for game, results in new for r in results])


def _signature(game: Game, results: list[PartyResult]) -> tuple[object, ...]:
    """Everything stored about a game: its fields and its party results' (in any order)."""
    parties = sorted((tuple(getattr(r, name) for name in RESULT_FIELDS) for r in results), key=repr)
    return (tuple(getattr(game, name) for name in GAME_FIELDS), tuple(parties))


def _stored_games(sheet: ScoreSheet) -> dict[int, tuple[int, tuple[object, ...]]]:
    """The sheet's stored games by number: (primary key, signature as ``_signature``)."""
    games = {
        row[0]: row[1:] for row in Game.objects.filter(sheet=sheet).values_list("pk", *GAME_FIELDS)
    }
    parties: dict[int, list[tuple[object, ...]]] = {pk: [] for pk in games}
    for row in PartyResult.objects.filter(game__sheet=sheet).values_list("game_id", *RESULT_FIELDS):
        parties[row[0]].append(row[1:])
    out: dict[int, tuple[int, tuple[object, ...]]] = {}
    for pk, fields in games.items():
        number = fields[GAME_FIELDS.index("number")]
        assert isinstance(number, int)
        out[number] = (pk, (fields, tuple(sorted(parties[pk], key=repr))))
    return out


# --- working drafts (autosave) -------------------------------------------------------------
def keep_draft(
    table: Table, user: User, entries: Mapping[str, str], seq: int, base_version: int
) -> SheetDraft | None:
    """Keep what ``user`` has typed so far as their working draft of the sheet, unless a newer
    state (a higher ``seq``) is kept already. A draft equal to the saved sheet is dropped:
    nothing is unsaved then. Returns the draft kept (None: nothing to keep)."""
    if user is None or not user.is_authenticated:
        return None
    require(user, table.round.tournament, Action.ENTER_RESULTS)
    stored = (
        ScoreSheet.objects.filter(table=table).values_list("entries", "entered_at_table").first()
    )
    saved = stored[0] if stored else None
    # the paper of a phone table, typed for the double check: kept even when it equals the
    # phone's games (the form starts empty until the paper is saved)
    paper = stored is not None and stored[1] and table.round.tournament.double_check
    with write_transaction():
        draft = (
            SheetDraft.objects.select_for_update()
            .filter(table=table, user_id=account_id(user))
            .first()
        )
        if draft is not None and draft.seq >= seq:
            return draft  # a later state arrived first; this one is older
        if dict(entries) == (saved or {}) and not paper:
            if draft is not None:
                draft.delete()
            return None
        if draft is None:
            try:
                with transaction.atomic():
                    return SheetDraft.objects.create(
                        table=table,
                        user_id=account_id(user),
                        entries=dict(entries),
                        seq=seq,
                        base_version=base_version,
                    )
            except IntegrityError:  # the same person's other tab created it a moment ago
                draft = SheetDraft.objects.select_for_update().get(
                    table=table, user_id=account_id(user)
                )
                if draft.seq >= seq:
                    return draft
        draft.entries = dict(entries)
        draft.seq = seq
        draft.base_version = base_version
        draft.save()
        return draft


def draft_of(table: Table, user: User) -> SheetDraft | None:
    if user is None or not user.is_authenticated:
        return None
    return SheetDraft.objects.filter(table=table, user_id=account_id(user)).first()


def discard_draft(table: Table, user: User) -> None:
    if user is not None and user.is_authenticated:
        SheetDraft.objects.filter(table=table, user_id=account_id(user)).delete()


def entries_snapshot(entries: Mapping[str, Any]) -> dict[str, str]:
    """Stored entries as the form's strings (old rows may hold other types)."""
    return F.clean(entries)
