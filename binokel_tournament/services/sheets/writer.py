"""The one writer of score sheets. The desk's form, a table's phone, the paper check, the
simulation and any import hand it a list of operations (``operations``) for one sheet; nothing
else writes ``ScoreSheet``, ``Game`` or ``PartyResult`` (a restore from a backup aside).

One write: recognise a retried request by its key; in one write transaction lock the table's
phone record and the sheet's row (creating the sheet if it is missing), check every operation
against the state it was made on, apply them (``operations.plan``), store one new version for
every change of state with who changed each game, store the scored games (only those that
changed), start or finish the round, audit in words the desk can read, renew the public pages
and ask for the backup."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError
from django.utils import timezone
from django.utils.translation import gettext as _

from ...models import (
    Game,
    PartyResult,
    ScoreSheet,
    Series,
    SheetDraft,
    SheetStatus,
    SubmissionReceipt,
    Table,
    TableEntry,
)
from ..access import Action, account_id, require
from ..audit import log_action
from ..errors import DeskError, active_language
from ..rounds.state import require_started
from ..rounds.writer import RoundChange, change_round, sheets_settled
from ..server import public_cache
from ..writes import write_transaction
from . import operations as O
from . import sheet_fields as F
from .inputs import desk_ops
from .results import SheetEvaluation, User, evaluate, sheet_layout


@dataclass(frozen=True)
class Written:
    """What a write did: the sheet as stored now, scored; the notice for the person (a
    confirmation that could not be made yet, a correction that waits for a second person)."""

    sheet: ScoreSheet | None
    evaluation: SheetEvaluation
    confirmed: bool
    notice: str = ""
    repeated: bool = False  # the same request was carried out before: nothing done again
    changed: tuple[int, ...] = ()  # the parts whose values changed

    @property
    def version(self) -> int:
        return self.sheet.version if self.sheet is not None else 0


@dataclass
class _Judge:
    """The engine's verdict on the sheet's entries, worked out once per distinct entries."""

    table: Table
    seen: dict[tuple[tuple[str, str], ...], SheetEvaluation] = field(default_factory=dict)

    def evaluation(self, entries: Mapping[str, str]) -> SheetEvaluation:
        key = tuple(sorted(entries.items()))
        if key not in self.seen:
            layout = sheet_layout(self.table)
            self.seen[key] = evaluate(layout, entries, layout.rules)
        return self.seen[key]

    def __call__(self, entries: Mapping[str, str]) -> O.Verdict:
        evaluation = self.evaluation(entries)
        errors: dict[int, dict[str, list[str]]] = {}
        lang = active_language()
        for game in evaluation.score.games:
            for error in game.errors:
                errors.setdefault(game.number, {}).setdefault(error.field, []).append(
                    error.text(lang)
                )
        return O.Verdict(evaluation.valid, errors)


# tools write as themselves, not as the person who started them
TOOLS = frozenset({O.SOURCE_SIMULATION, O.SOURCE_IMPORT})


def author_of(user: User, source: str = O.SOURCE_DESK) -> O.Author:
    person = user is not None and user.is_authenticated and source not in TOOLS
    return O.Author(source, user.get_username() if person else None)  # type: ignore[union-attr]


def write(
    table: Table,
    ops: Sequence[O.Operation],
    *,
    user: User = None,
    source: str = O.SOURCE_DESK,
    key: str = "",
) -> Written:
    """Carry out ``ops`` on the table's sheet as one new version (or none, when nothing
    changed). ``user``: the desk person (None: the table's phone, or a tool named by
    ``source``). ``key``: the request's key, the same key again is the same write."""
    tournament = table.round.tournament
    author = author_of(user, source)
    if author.table:
        require_started(table.round)
    else:
        require(user, tournament, Action.ENTER_RESULTS)
        if any(isinstance(op, O.Reopen) for op in ops):
            require(user, tournament, Action.CORRECT_RESULTS)
    judge = _Judge(table)
    done = receipt_of(key, table)
    if done is not None:
        return _repeated(done, judge)
    for _attempt in range(2):
        try:
            with write_transaction():
                done = receipt_of(key, table)
                if done is not None:
                    return _repeated(done, judge)
                return _write(table, ops, author, user, judge, key)
        except IntegrityError:
            continue  # the sheet or the phone record was created at the same moment: again
    raise DeskError(_("Der Zettel wird gerade anderswo gespeichert; bitte gleich noch einmal."))


def _write(
    table: Table,
    ops: Sequence[O.Operation],
    author: O.Author,
    user: User,
    judge: _Judge,
    key: str,
) -> Written:
    tournament = table.round.tournament
    rules = tournament.rules()
    table_ops = author.table or any(isinstance(op, O.ConfirmAtTable | O.Reopen) for op in ops)
    entry = _phone_record(table, lock=True) if table_ops else _phone_record(table, lock=False)
    sheet = ScoreSheet.objects.select_for_update().filter(table=table).first()
    before = state_of(sheet, entry)
    plan = O.plan(
        before,
        ops,
        author,
        judge,
        O.Rules(
            tournament.double_check, tournament.blind_second_entry, rules.games_for(table.kind)
        ),
        timezone.now().isoformat(),
    )
    if plan.correction:
        require(user, tournament, Action.CORRECT_RESULTS)
    notice = " ".join(plan.notices)
    account = account_id(user) if author.account is not None else None
    if account is not None:
        _drop_drafts(table, account, ops)
    if not plan.new_version and not plan.paper_recorded:
        evaluation = judge.evaluation(before.entries)
        if sheet is not None:
            record_receipt(key, sheet, sheet.status == SheetStatus.CONFIRMED, notice)
        return Written(sheet, evaluation, before.status == O.CONFIRMED, notice)
    if sheet is None:
        sheet = ScoreSheet(table=table, version=0)
    after = plan.state
    evaluation = judge.evaluation(after.entries)
    _store_state(sheet, after, author, plan, account)
    store_sheet(sheet, evaluation)
    if author.table or plan.table_confirmed_now or before.table_confirmed != after.table_confirmed:
        _store_phone_record(table, entry, plan, author, ops)
    person = None if author.source in TOOLS else user  # tools are audited as themselves
    round_obj = table.round
    if plan.changed and not round_obj.locked:  # a game entered: the round has started
        change_round(round_obj, RoundChange.START, person, despite_open=True)
    if (before.status == O.CONFIRMED) != (after.status == O.CONFIRMED):
        sheets_settled(round_obj, person)
    _audit(table, sheet, before, plan, author, person)
    public_cache.sheet_changed(
        tournament.slug,
        table.competition.mode,
        before.status if before.version else None,
        after.status,
        table.pk,
        interim=tournament.show_interim,
        # the cups it counts in, asked only if counted (by the system: a cup's page is public)
        cups=Series.across_vereine.filter(tournaments=tournament).values_list("slug", flat=True),
    )
    record_receipt(key, sheet, after.status == O.CONFIRMED, notice)
    table.sheet = sheet
    return Written(
        sheet, evaluation, after.status == O.CONFIRMED, notice, changed=tuple(sorted(plan.changed))
    )


def _repeated(done: SubmissionReceipt, judge: _Judge) -> Written:
    sheet = ScoreSheet.objects.get(table=done.table)
    return Written(
        sheet, judge.evaluation(sheet.entries), done.confirmed, done.notice, repeated=True
    )


def save_sheet(
    table: Table,
    data: Mapping[str, object],
    user: User,
    expected_version: int | None,
    confirm: bool = False,
    submission: str = "",
) -> Written:
    """The desk's sheet form posted (``data``: the form's fields, or plain entries), opened on
    ``expected_version``: the parts that differ from what it was opened on are written, and
    the sheet confirmed when asked (``confirm``). ``submission``: the page's key for this save;
    the same page posting the same again is the same save."""
    stored = ScoreSheet.objects.filter(table=table).values_list("entries", "version").first()
    entries, version = (F.normalized(F.clean(stored[0])), stored[1]) if stored else ({}, 0)
    rules = table.round.tournament.rules()
    ops = desk_ops(
        data,
        games=rules.games_for(table.kind),
        stored=entries,
        stored_version=version,
        version=expected_version,
        confirm=confirm,
    )
    if not stored and not any(isinstance(op, O.SetGame) for op in ops):
        raise DeskError(_("Auf dem Spielzettel ist nichts eingetragen; nichts gespeichert."))
    return write(table, ops, user=user, key=_submission_key(submission, ops))


def _submission_key(key: str, ops: Sequence[O.Operation]) -> str:
    """The page's key for a save together with what it asks for: the same page posting the
    same again is the same save; other values are a new one."""
    key = re.sub(r"[^0-9a-zA-Z-]", "", key)[:32]
    if not key:
        return ""
    return f"{key}-{hashlib.sha256(repr(ops).encode()).hexdigest()[:24]}"


# --- the sheet's state as stored ----------------------------------------------------------------
def _ints(mapping: Mapping[str, Any] | None) -> dict[int, Any]:
    return {int(k): v for k, v in (mapping or {}).items() if str(k).isdigit()}


def state_of(sheet: ScoreSheet | None, entry: TableEntry | None = None) -> O.SheetState:
    """The stored sheet (and the table's confirmation) as the operations see it."""
    table_confirmed = entry is not None and entry.confirmed_at is not None
    if sheet is None:
        return O.SheetState(table_confirmed=table_confirmed)
    paper = sheet.paper or {}
    return O.SheetState(
        entries=F.normalized(F.clean(sheet.entries)),
        status=sheet.status,
        version=sheet.version,
        sources=_ints(sheet.game_sources),
        authors=_ints(sheet.game_authors),
        confirmed=F.normalized(F.clean(sheet.confirmed_entries or {})),
        paper=(
            O.Paper(F.normalized(F.clean(paper.get("entries", {}))), paper.get("by"), paper["at"])
            if paper.get("at")
            else None
        ),
        decisions={
            n: O.Decision(d["paper"], d["sheet"], d["took"], d.get("by"))
            for n, d in _ints(sheet.decisions).items()
        },
        table_confirmed=table_confirmed,
    )


def _store_state(
    sheet: ScoreSheet, state: O.SheetState, author: O.Author, plan: O.Plan, account: int | None
) -> None:
    was_confirmed = sheet.status == SheetStatus.CONFIRMED
    sheet.entries = dict(state.entries)
    sheet.status = state.status
    sheet.version = state.version
    sheet.game_sources = {str(k): v for k, v in sorted(state.sources.items())}
    sheet.game_authors = {str(k): v for k, v in sorted(state.authors.items())}
    sheet.confirmed_entries = dict(state.confirmed)
    sheet.paper = (
        {"entries": dict(state.paper.entries), "by": state.paper.by, "at": state.paper.at}
        if state.paper is not None
        else {}
    )
    sheet.decisions = {
        str(n): {"paper": d.paper, "sheet": d.sheet, "took": d.took, "by": d.by}
        for n, d in sorted(state.decisions.items())
    }
    if plan.changed and not author.table:
        sheet.entered_by_id = account
    if plan.confirmed_now:
        sheet.confirmed_by_id = account
        sheet.confirmed_at = timezone.now()
    elif was_confirmed and state.status != SheetStatus.CONFIRMED:
        sheet.confirmed_by_id = None
        sheet.confirmed_at = None


def _phone_record(table: Table, lock: bool) -> TableEntry | None:
    query = TableEntry.objects.select_for_update() if lock else TableEntry.objects
    return query.filter(table=table).first()


def _store_phone_record(
    table: Table,
    entry: TableEntry | None,
    plan: O.Plan,
    author: O.Author,
    ops: Sequence[O.Operation],
) -> None:
    """The table's own record: only what its phone sent (never the desk's changes), and its
    confirmation."""
    if entry is None:
        entry = TableEntry(table=table)
    now = timezone.now()
    if author.table:
        entries = dict(entry.entries or {})
        for number, (_old, new) in plan.changed.items():
            entries = F.with_part(entries, number, new)
        entry.entries = entries
        entry.last_activity_at = now
    if plan.table_confirmed_now:
        entry.confirmed_at = now
        entry.last_activity_at = now
        entry.confirmed_numbers = next(
            sorted(op.expected) for op in ops if isinstance(op, O.ConfirmAtTable)
        )
    if not plan.state.table_confirmed:
        entry.confirmed_at = None
        entry.confirmed_numbers = []
    entry.save()
    table.entry = entry


def _drop_drafts(table: Table, account: int, ops: Sequence[O.Operation]) -> None:
    """What this person typed is now a saved version: their working draft of it is done."""
    kinds = set()
    if any(isinstance(op, O.RecordPaper) for op in ops):
        kinds.add("paper")
    if any(isinstance(op, O.SetGame | O.ClearGame | O.ConfirmAtDesk) for op in ops):
        kinds.add("sheet")
    if kinds:
        SheetDraft.objects.filter(table=table, user_id=account, kind__in=kinds).delete()


# --- the audit entry ----------------------------------------------------------------------------
def _action(before: O.SheetState, plan: O.Plan, author: O.Author) -> str:
    if plan.table_confirmed_now:
        return "sheet.table_confirm"
    if author.table:
        cleared = [n for n, (_old, new) in plan.changed.items() if not new]
        return "sheet.table_delete" if cleared else "sheet.table"
    if plan.correction:
        return "sheet.correct"
    if plan.confirmed_now:
        return "sheet.confirm"
    if plan.decided:
        return "sheet.paper_decision"
    if plan.paper_recorded and not plan.changed:
        return "sheet.paper"
    if plan.reopened:
        return "sheet.reopen"
    return "sheet.save"


def _audit(
    table: Table,
    sheet: ScoreSheet,
    before: O.SheetState,
    plan: O.Plan,
    author: O.Author,
    user: User,
) -> None:
    """One audit entry for the write: each changed part before and after (so the log replays
    to the stored sheet), the status, and who (a person, the table, the simulation)."""
    after = plan.state
    record_before = {
        "version": before.version,
        "status": before.status,
        "games": {str(n): old for n, (old, _new) in sorted(plan.changed.items())},
    }
    record_after: dict[str, Any] = {
        "version": after.version,
        "status": after.status,
        "games": {str(n): new for n, (_old, new) in sorted(plan.changed.items())},
        "by": author.source,
    }
    if plan.table_confirmed_now:
        record_after["table_confirmed"] = True
    if plan.reopened and not after.table_confirmed and before.table_confirmed:
        record_after["table_confirmed"] = False
    if plan.paper_recorded and after.paper is not None:
        record_after["paper"] = {"games": sorted(F.game_stamps(after.paper.entries))}
    if plan.decided:
        record_after["decisions"] = {
            str(n): after.decisions[n].took for n in plan.decided if n in after.decisions
        }
    log_action(
        table.round.tournament,
        user,
        _action(before, plan, author),
        sheet,
        record_before,
        record_after,
    )


# --- retried requests -------------------------------------------------------------------------
def receipt_of(key: str, table: Table) -> SubmissionReceipt | None:
    """The write carried out before under this key (a retried request), if any."""
    return SubmissionReceipt.objects.filter(key=key, table=table).first() if key else None


def record_receipt(key: str, sheet: ScoreSheet, confirmed: bool = False, notice: str = "") -> None:
    """Remember a write under the key its page sent (inside the write's transaction)."""
    if key:
        SubmissionReceipt.objects.create(
            key=key,
            table_id=sheet.table_id,
            version=sheet.version,
            confirmed=confirmed,
            notice=notice,
        )


# --- the scored games -------------------------------------------------------------------------
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
