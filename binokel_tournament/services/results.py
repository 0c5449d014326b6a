"""Score sheets at the desk: evaluate what was typed with the scoring engine, save drafts that
lose nothing, confirm valid sheets, detect conflicting saves in the database.

Field names of a sheet (what the form posts and ``ScoreSheet.entries`` keeps, all strings):
``g{n}-kind``, ``g{n}-dealer`` (physical seat 1..P), ``g{n}-declarer`` (party column 1..C),
``g{n}-bid``, ``g{n}-notrick`` (declarer took no trick), ``g{n}-c{c}-meld``,
``g{n}-c{c}-tricks``, ``g{n}-c{c}-revoked``, ``g{n}-c{c}-written`` (scorer's points for the game)
and ``written-total-c{c}`` (scorer's total for the round)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

import scoring
from scoring import GameInput, GameKind, PartyInput, RuleSet

from ..models import (
    Entrant,
    Game,
    PartyResult,
    ScoreSheet,
    Seat,
    SheetStatus,
    Table,
    TableKind,
    Tournament,
)
from .access import Action, require
from .audit import log_action
from .backup import schedule_backup
from .errors import DeskError, active_language

FIELD_RE = re.compile(
    r"^(g\d+-(kind|dealer|declarer|bid|notrick|c\d+-(meld|tricks|revoked|written))|written-total-c\d+)$"
)
ENGINE_FIELD_RE = re.compile(r"^parties\[(\d+)\]\.(\w+)$")


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
    columns: tuple[Column, ...]
    players: tuple[str, ...]  # physical seats in order (dealing order)
    games: int

    @property
    def kind(self) -> str:
        return self.table.kind

    def column_of_player(self, seat: int) -> int:
        """The party column a physical seat (1-based) plays for."""
        if self.kind == TableKind.PAIRS:
            return (seat - 1) % 2 + 1
        return seat

    def dealer_label(self, seat: int) -> str:
        return self.players[seat - 1] if 1 <= seat <= len(self.players) else "?"


def sheet_layout(table: Table, rules: RuleSet | None = None) -> SheetLayout:
    rules = rules or table.round.tournament.rules()
    seats = [s for s in table.seats.all()]
    seats.sort(key=lambda s: s.position)
    columns = tuple(Column(s.position, s.entrant) for s in seats)
    if table.kind == TableKind.PAIRS:
        # partners sit crosswise: pair 1 player A, pair 2 player A, pair 1 player B, pair 2 player B
        players = (
            f"{columns[0].entrant.name} ({columns[0].entrant.start_number})",
            f"{columns[1].entrant.name} ({columns[1].entrant.start_number})",
            f"{columns[0].entrant.partner} ({columns[0].entrant.start_number})",
            f"{columns[1].entrant.partner} ({columns[1].entrant.start_number})",
        )
    else:
        players = tuple(f"{c.entrant.name} ({c.entrant.start_number})" for c in columns)
    return SheetLayout(table, columns, players, rules.games_for(table.kind))


@dataclass
class GameRow:
    number: int
    dealer: int
    entered: bool = False
    kind: str = GameKind.PLAYED
    declarer: int | None = None
    points: dict[int, int] | None = None  # column -> points, when valid
    won: bool = False
    sits_out: int | None = None  # column of a sitting-out dealer
    errors: dict[str, list[str]] = field(default_factory=dict)  # form field name -> messages
    written_mismatch: set[int] = field(default_factory=set)
    parsed: dict[str, object] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # hints that are not errors


@dataclass
class SheetEvaluation:
    layout: SheetLayout
    rows: list[GameRow]
    running: dict[int, list[int]]  # column -> running total after each game
    totals: dict[int, int]
    total_mismatch: set[int]
    errors: dict[str, list[str]]  # every field error
    entries: Mapping[str, str]

    @property
    def error_count(self) -> int:
        return sum(len(v) for v in self.errors.values())

    @property
    def complete(self) -> bool:
        return all(r.entered and r.points is not None for r in self.rows)

    @property
    def entered_games(self) -> int:
        return sum(1 for r in self.rows if r.entered)

    @property
    def written_totals(self) -> bool:
        return any(key.startswith("written-total-") for key in self.entries)

    @property
    def scorer_mismatch(self) -> bool:
        return bool(self.total_mismatch) or any(r.written_mismatch for r in self.rows)


def clean_entries(data: Mapping[str, object]) -> dict[str, str]:
    """Keep only sheet fields, as stripped strings; empty values are dropped."""
    out: dict[str, str] = {}
    for key in data:
        if not FIELD_RE.match(key):
            continue
        value = data[key]
        if isinstance(value, list | tuple):
            value = value[-1] if value else ""
        text = str(value).strip()
        if text:
            out[key] = text
    return out


def _int(entries: Mapping[str, str], key: str, errors: dict[str, list[str]]) -> int | None:
    text = entries.get(key, "")
    if not text:
        return None
    try:
        return int(text.replace("−", "-"))
    except ValueError:
        errors.setdefault(key, []).append(_("Bitte eine ganze Zahl eingeben."))
        return None


def evaluate(layout: SheetLayout, entries: Mapping[str, str], rules: RuleSet) -> SheetEvaluation:
    """Validate and score every game of a sheet as typed; nothing is raised."""
    nplayers = len(layout.players)
    rows: list[GameRow] = []
    all_errors: dict[str, list[str]] = {}
    running: dict[int, list[int]] = {c.number: [] for c in layout.columns}
    totals = {c.number: 0 for c in layout.columns}
    prev_dealer: int | None = None
    prev_durch_player: int | None = None
    pair_durch_before = False
    for n in range(1, layout.games + 1):
        p = f"g{n}-"
        errors: dict[str, list[str]] = {}
        default_dealer = (
            1
            if prev_dealer is None
            else prev_durch_player
            if prev_durch_player is not None
            else prev_dealer % nplayers + 1
        )
        typed_dealer = _int(entries, p + "dealer", errors)
        dealer = default_dealer if typed_dealer is None else typed_dealer
        if not 1 <= dealer <= nplayers:
            errors.setdefault(p + "dealer", []).append(
                _("Geber muss ein Platz von 1 bis %(n)s sein.") % {"n": nplayers}
            )
            dealer = default_dealer
        row = GameRow(number=n, dealer=dealer)
        if pair_durch_before and typed_dealer is None:
            row.notes.append(
                _("Nach dem Durch gibt der Durch-Spieler: bitte seinen Platz als Geber eintragen.")
            )
        row.kind = entries.get(p + "kind", GameKind.PLAYED)
        if row.kind not in {k.value for k in GameKind}:
            errors.setdefault(p + "kind", []).append(_("Unbekannte Spielart."))
            row.kind = GameKind.PLAYED
        typed = [k for k in entries if k.startswith(p) and not k.endswith(("-kind", "-dealer"))]
        row.entered = bool(typed)
        sitting_out = (
            layout.column_of_player(dealer) if layout.kind == TableKind.FOUR_SITOUT else None
        )
        row.sits_out = sitting_out
        active = [c.number for c in layout.columns if c.number != sitting_out]
        if row.entered:
            declarer = _int(entries, p + "declarer", errors)
            row.declarer = declarer
            bid = _int(entries, p + "bid", errors)
            parties = []
            revoked = []
            for i, col in enumerate(active):
                meld = _int(entries, f"{p}c{col}-meld", errors)
                tricks = _int(entries, f"{p}c{col}-tricks", errors)
                if meld is None and row.kind != GameKind.DURCH:
                    meld = 0
                took: bool | None = None
                if declarer == col and entries.get(p + "notrick"):
                    took = False
                parties.append(PartyInput(meld=meld, tricks=tricks, took_trick=took))
                if entries.get(f"{p}c{col}-revoked"):
                    revoked.append(i)
            if sitting_out is not None:
                for suffix in ("meld", "tricks", "revoked"):
                    key = f"{p}c{sitting_out}-{suffix}"
                    if entries.get(key):
                        errors.setdefault(key, []).append(_("Der Geber setzt in diesem Spiel aus."))
            if declarer is None:
                errors.setdefault(p + "declarer", []).append(_("Wer hat das Spiel gemacht?"))
            elif declarer not in active:
                errors.setdefault(p + "declarer", []).append(
                    _("Spielmacher muss eine der spielenden Parteien sein.")
                )
            if not errors and declarer is not None:
                game = GameInput(
                    kind=GameKind(row.kind),
                    declarer=active.index(declarer),
                    bid=bid,
                    parties=tuple(parties),
                    revoked=tuple(revoked),
                )
                problems = scoring.validate_game(game, rules)
                for problem in problems:
                    errors.setdefault(_engine_field(p, problem.field, active), []).append(
                        problem.text(active_language())
                    )
                if not problems:
                    result = scoring.score_game(game, rules)
                    row.points = {c.number: 0 for c in layout.columns}
                    for col, pts in zip(active, result.points, strict=True):
                        row.points[col] = pts
                    row.won = result.won
            row.parsed = {"bid": bid, "parties": parties, "revoked": revoked, "active": active}
        for c in layout.columns:
            if row.points is not None:
                totals[c.number] += row.points[c.number]
            running[c.number].append(totals[c.number])
            written = _int(entries, f"{p}c{c.number}-written", errors)
            if written is not None and row.points is not None and written != row.points[c.number]:
                row.written_mismatch.add(c.number)
        row.errors = errors
        for key, messages in errors.items():
            all_errors.setdefault(key, []).extend(messages)
        rows.append(row)
        prev_dealer = dealer
        prev_durch_player = None
        # at a pair table the sheet does not say which partner played the Durch
        pair_durch_before = layout.kind == TableKind.PAIRS and row.kind == GameKind.DURCH
        if (
            row.kind == GameKind.DURCH
            and row.declarer in active  # a Durch player who really played
            and layout.kind != TableKind.PAIRS
        ):
            prev_durch_player = row.declarer
    total_mismatch: set[int] = set()
    for c in layout.columns:
        written = _int(entries, f"written-total-c{c.number}", all_errors)
        if written is not None and written != totals[c.number]:
            total_mismatch.add(c.number)
    return SheetEvaluation(layout, rows, running, totals, total_mismatch, all_errors, entries)


def _engine_field(prefix: str, engine_field: str, active: list[int]) -> str:
    """Map an engine field (``parties[1].tricks``) to the sheet's form field."""
    match = ENGINE_FIELD_RE.match(engine_field)
    if match:
        col = active[int(match.group(1))]
        attr = match.group(2)
        if attr == "took_trick":
            return prefix + "notrick"
        return f"{prefix}c{col}-{attr}"
    if engine_field == "parties":  # e.g. the tricks do not add up to 250
        return f"{prefix}c{active[-1]}-tricks"
    if engine_field in {"kind", "declarer", "bid"}:
        return prefix + engine_field
    return prefix + "declarer"  # revoked and anything else about the game as a whole


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
    user: object,
    expected_version: int | None,
    confirm: bool = False,
) -> SaveOutcome:
    """Save what was typed (a draft keeps errors); confirm when asked and valid.

    ``expected_version`` is the version the desk opened (0 for a new sheet); a different
    stored version is a conflict and nothing is written."""
    tournament = table.round.tournament
    require(user, tournament, Action.ENTER_RESULTS)  # type: ignore[arg-type]
    rules = tournament.rules()
    layout = sheet_layout(table, rules)
    entries = clean_entries(data)
    evaluation = evaluate(layout, entries, rules)
    try:
        with transaction.atomic():
            sheet = ScoreSheet.objects.select_for_update().filter(table=table).first()
            if sheet is None:
                if expected_version:
                    raise DeskError(_("Der Spielzettel wurde gelöscht."))
                if not evaluation.entered_games and not evaluation.written_totals:
                    raise DeskError(
                        _("Auf dem Spielzettel ist nichts eingetragen; nichts gespeichert.")
                    )
                sheet = ScoreSheet.objects.create(table=table, version=0, entered_by=user)  # type: ignore[misc]
                before = None
            else:
                if expected_version is not None and expected_version != sheet.version:
                    raise SheetConflict(sheet)
                before = {"status": sheet.status, "entries": sheet.entries}
            changed = sheet.entries != entries or sheet.version == 0
            was_confirmed = sheet.status == SheetStatus.CONFIRMED
            valid = evaluation.complete and not evaluation.error_count
            # A correction of a confirmed sheet: with the double check it goes back to a draft
            # that a second person must confirm; without it, it must be valid and stays counted.
            if was_confirmed and changed:  # a correction: organisers only
                require(user, tournament, Action.CORRECT_RESULTS)  # type: ignore[arg-type]
            reopen = was_confirmed and changed and tournament.double_check
            if was_confirmed and changed and not valid and not reopen:
                raise DeskError(
                    _(
                        "Ein bestätigter Spielzettel kann nur mit vollständigen, gültigen "
                        "Eingaben korrigiert werden. Es wurde nichts geändert."
                    )
                )
            if changed:
                sheet.entries = entries
                sheet.entered_by = user  # type: ignore[assignment]
            if reopen:
                sheet.status = SheetStatus.DRAFT
                sheet.confirmed_by = None
                sheet.confirmed_at = None
            notice = ""
            if reopen:
                notice = _(
                    "Korrektur gespeichert. Vier-Augen-Prinzip: der Spielzettel zählt erst "
                    "wieder, wenn eine zweite Person ihn bestätigt."
                )
            confirming = confirm and sheet.status != SheetStatus.CONFIRMED
            if confirming and not valid:
                confirming = False
                notice = _(
                    "Als Entwurf gespeichert. Bestätigen geht erst, wenn alle %(n)s Spiele "
                    "vollständig und ohne Fehler eingetragen sind."
                ) % {"n": layout.games}
            elif (
                confirming
                and tournament.double_check
                and (
                    sheet.entered_by_id is None or sheet.entered_by_id == getattr(user, "pk", None)
                )
            ):
                confirming = False
                notice = notice or _(
                    "Vier-Augen-Prinzip: gespeichert, aber eine andere Person als die, die den "
                    "Spielzettel eingegeben hat, muss ihn bestätigen."
                )
            if confirming:
                sheet.status = SheetStatus.CONFIRMED
                sheet.confirmed_by = user  # type: ignore[assignment]
                sheet.confirmed_at = timezone.now()
            if not changed and not confirming:
                return SaveOutcome(sheet, evaluation, sheet.status == SheetStatus.CONFIRMED, notice)
            sheet.version += 1
            _store(sheet, evaluation)
            round_obj = table.round
            if not round_obj.locked:
                round_obj.locked = True
                round_obj.save(update_fields=["locked"])
            action = (
                "sheet.correct"
                if was_confirmed
                else "sheet.confirm"
                if confirming
                else "sheet.save"
            )
            log_action(
                tournament,
                user,  # type: ignore[arg-type]
                action,
                sheet,
                before,
                {"status": sheet.status, "entries": sheet.entries, "version": sheet.version},
            )
            if was_confirmed or sheet.status == SheetStatus.CONFIRMED:
                schedule_backup(tournament)
    except IntegrityError as exc:  # two desks created the same new sheet at once
        other = ScoreSheet.objects.get(table=table)
        raise SheetConflict(other) from exc
    return SaveOutcome(sheet, evaluation, sheet.status == SheetStatus.CONFIRMED, notice)


def _store(sheet: ScoreSheet, evaluation: SheetEvaluation) -> None:
    """Persist the sheet and one Game with its PartyResults per valid game."""
    sheet.error_count = evaluation.error_count
    sheet.complete = evaluation.complete
    sheet.scorer_mismatch = evaluation.scorer_mismatch
    sheet.save()
    sheet.games.all().delete()
    layout = evaluation.layout
    round_number = layout.table.round.number
    games: list[Game] = []
    valid_rows = [r for r in evaluation.rows if r.points is not None]
    for row in valid_rows:
        games.append(
            Game(
                sheet=sheet,
                number=row.number,
                dealer=row.dealer,
                kind=row.kind,
                declarer=row.declarer or 0,
                bid=row.parsed.get("bid"),  # type: ignore[misc]
                won=row.won,
            )
        )
    Game.objects.bulk_create(games)
    results: list[PartyResult] = []
    for game, row in zip(games, valid_rows, strict=True):
        active: list[int] = row.parsed["active"]  # type: ignore[assignment]
        parties: list[PartyInput] = row.parsed["parties"]  # type: ignore[assignment]
        revoked: list[int] = row.parsed["revoked"]  # type: ignore[assignment]
        assert row.points is not None
        for col in layout.columns:
            index = active.index(col.number) if col.number in active else None
            party = parties[index] if index is not None else None
            results.append(
                PartyResult(
                    game=game,
                    entrant=col.entrant,
                    round_number=round_number,
                    meld=party.meld if party else None,
                    tricks=party.tricks if party else None,
                    revoked=index is not None and index in revoked,
                    is_declarer=col.number == row.declarer,
                    sits_out=index is None,
                    points=row.points[col.number],
                )
            )
    PartyResult.objects.bulk_create(results)
