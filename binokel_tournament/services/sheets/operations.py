"""What can happen to a score sheet, as a small set of operations, and what each does to it --
plain Python on plain values (no ORM), so that the one writer (``writer.write``) and the tests'
model of a sheet share one definition.

Every operation names the state it was made on: setting or clearing a game (or the scorer's
written totals, part ``TOTALS``) names the stamp the part had when it was typed; a confirmation
names what the confirming person saw. An operation on a state that has moved on is refused and
nothing of the whole write is applied (``SheetConflict``); the page shows both versions.

Operations: ``SetGame``, ``ClearGame`` (desk, phone, simulation, import), ``ConfirmAtTable``
(the opponents on the phone), ``ConfirmAtDesk`` (with the four-eyes check when the tournament
has it), ``RecordPaper`` (the paper sheet typed blind for the check), ``TakeVersion`` (paper or
sheet counts for one game that differs), ``Reopen`` (a confirmed sheet back to a draft)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, npgettext

from ..errors import DeskError
from . import sheet_fields as F

DRAFT, TABLE, CONFIRMED = "draft", "table", "confirmed"  # models.SheetStatus' values
# who changed a part last (``ScoreSheet.game_sources``)
SOURCE_DESK = "desk"
SOURCE_TABLE = "table"
SOURCE_PAPER = "paper"  # the paper's version, taken at the desk
SOURCE_SIMULATION = "simulation"
SOURCE_IMPORT = "import"


@dataclass(frozen=True)
class Author:
    """Who writes: a desk person (``account``: their username, which a backup carries to
    another laptop), the table's phone, or a tool."""

    source: str
    account: str | None = None

    @property
    def table(self) -> bool:
        return self.source == SOURCE_TABLE


@dataclass(frozen=True)
class Paper:
    """The paper sheet typed blind at the desk for the four-eyes check (its own record)."""

    entries: Mapping[str, str]
    by: str | None
    at: str


@dataclass(frozen=True)
class Decision:
    """For one game where paper and sheet differ: which one counts, decided by ``by``."""

    paper: str  # the paper's stamp then
    sheet: str  # the sheet's stamp afterwards
    took: str  # "paper" or "sheet"
    by: str | None


@dataclass(frozen=True)
class SheetState:
    """Everything a write can change. ``entries`` as stored (``sheet_fields.normalized``);
    ``sources``/``authors``: who changed each part last; ``confirmed``: the entries when the
    desk last confirmed it."""

    entries: Mapping[str, str] = field(default_factory=dict)
    status: str = DRAFT
    version: int = 0
    sources: Mapping[int, str] = field(default_factory=dict)
    authors: Mapping[int, str | None] = field(default_factory=dict)
    confirmed: Mapping[str, str] = field(default_factory=dict)
    paper: Paper | None = None
    decisions: Mapping[int, Decision] = field(default_factory=dict)
    table_confirmed: bool = False

    def stamp(self, part: int) -> str:
        return F.stamp(F.part_fields(self.entries, part))

    def counted(self) -> tuple[object, ...]:
        """What a new version is made for: games, status, decisions, the table's word."""
        return (
            dict(self.entries),
            self.status,
            dict(self.decisions),
            self.table_confirmed,
        )


# --- the operations -------------------------------------------------------------------------
@dataclass(frozen=True)
class SetGame:
    number: int  # a game, or F.TOTALS
    fields: Mapping[str, str]
    base: str | None  # the part's stamp it was typed on ("": empty; None: unknown)


@dataclass(frozen=True)
class ClearGame:
    number: int
    base: str | None


@dataclass(frozen=True)
class ConfirmAtTable:
    numbers: tuple[int, ...]  # the start numbers the opponents typed
    expected: tuple[int, ...]  # the opponents' start numbers
    version: int | None  # the sheet's version the phone showed them


@dataclass(frozen=True)
class ConfirmAtDesk:
    seen: Mapping[int, str] | None  # every part's stamp as the page showed it (None: not known)
    ticked: Mapping[int, str] = field(default_factory=dict)  # games checked one by one


@dataclass(frozen=True)
class RecordPaper:
    entries: Mapping[str, str]


@dataclass(frozen=True)
class TakeVersion:
    number: int
    take: Literal["paper", "sheet"]
    paper: str  # the paper's stamp of the game as shown
    sheet: str  # the sheet's stamp of the game as shown


@dataclass(frozen=True)
class Reopen:
    version: int


Operation = (
    SetGame | ClearGame | ConfirmAtTable | ConfirmAtDesk | RecordPaper | TakeVersion | Reopen
)


# --- refusals: nothing of the write is applied ------------------------------------------------
@dataclass(frozen=True)
class PartConflict:
    number: int
    mine: Mapping[str, str]  # what the refused write wanted (empty: clear it)
    theirs: Mapping[str, str]  # what is stored now (empty: nothing)
    stamp: str  # the stored stamp now
    source: str  # who changed it last
    author: str | None  # the desk person who did (None: the table, a tool)


class SheetConflict(DeskError):
    """Parts changed since they were typed on: nothing was written; both versions shown."""

    def __init__(self, conflicts: Sequence[PartConflict], version: int) -> None:
        numbers = ", ".join(str(c.number) if c.number else _("Summe") for c in conflicts)
        super().__init__(
            ngettext(
                "Spiel %(games)s wurde inzwischen anderswo geändert. Nichts wurde "
                "gespeichert; bitte beide Fassungen vergleichen und wählen.",
                "Die Spiele %(games)s wurden inzwischen anderswo geändert. Nichts wurde "
                "gespeichert; bitte beide Fassungen vergleichen und wählen.",
                len(conflicts),
            )
            % {"games": numbers}
        )
        self.conflicts = list(conflicts)
        self.version = version


class TableLocked(DeskError):
    """The table confirmed its sheet (or the desk did): only the desk can change it now."""


class StaleConfirmation(DeskError):
    """The sheet changed after the phone showed it: the opponents confirm what they saw."""


class BadGame(DeskError):
    """A request that is no game (malformed, empty, of the wrong types): nothing changed."""


class GameRefused(DeskError):
    """A game the engine found errors in: nothing was kept; the messages say why."""

    def __init__(self, messages: dict[str, list[str]]) -> None:
        super().__init__(" ".join(m for ms in messages.values() for m in ms))
        self.messages = messages


# --- what the engine says of a sheet -------------------------------------------------------------
@dataclass(frozen=True)
class Verdict:
    valid: bool  # complete and without errors
    game_errors: Mapping[int, Mapping[str, Sequence[str]]]  # game -> engine field -> messages


Judge = Callable[[Mapping[str, str]], Verdict]


# --- the four-eyes check ----------------------------------------------------------------------
@dataclass(frozen=True)
class CheckItem:
    """A game the confirming person must check: it differs from the last confirmed sheet."""

    number: int
    before: Mapping[str, str]  # as last confirmed (empty: not there)
    after: Mapping[str, str]
    stamp: str
    author: str | None
    source: str
    paper_stamp: str | None  # the paper typed blind (None: no paper typed)
    paper_by: str | None
    decided: bool  # the desk decided between paper and sheet

    @property
    def by_paper(self) -> bool:
        """The paper, typed by someone else than whoever entered the game, says the same."""
        return (
            self.paper_stamp == self.stamp
            and self.paper_by is not None
            and (self.author is None or self.paper_by != self.author)
        )

    @property
    def differs_from_paper(self) -> bool:
        return self.paper_stamp is not None and self.paper_stamp != self.stamp

    @property
    def checked(self) -> bool:
        return self.decided or self.by_paper


def to_check(state: SheetState) -> list[CheckItem]:
    """The games that differ from the last confirmed sheet, each with whether the paper check
    or a decision covers it."""
    now, then = F.parts(state.entries), F.parts(state.confirmed)
    paper = F.parts(state.paper.entries) if state.paper is not None else None
    items = []
    for n in sorted((set(now) | set(then)) - {F.TOTALS}):
        after, before = now.get(n, {}), then.get(n, {})
        stamp = F.stamp(after)
        if stamp == F.stamp(before):
            continue
        paper_stamp = F.stamp(paper.get(n, {})) if paper is not None else None
        items.append(
            CheckItem(
                number=n,
                before=before,
                after=after,
                stamp=stamp,
                author=state.authors.get(n),
                source=state.sources.get(n, SOURCE_DESK),
                paper_stamp=paper_stamp,
                paper_by=state.paper.by if state.paper is not None else None,
                decided=bool(decided(state, n)),
            )
        )
    return items


def decided(state: SheetState, number: int) -> str:
    """What the desk decided for a game where paper and sheet differ, if the decision still
    holds for both as they are now: "paper", "sheet" or ""."""
    decision = state.decisions.get(number)
    if decision is None or state.paper is None:
        return ""
    paper = F.stamp(F.part_fields(state.paper.entries, number))
    if decision.paper != paper or decision.sheet != state.stamp(number):
        return ""
    return decision.took


def paper_differences(state: SheetState) -> dict[int, str]:
    """The games where the paper typed blind differs from the sheet, each with what was
    decided ("" while nothing is)."""
    if state.paper is None:
        return {}
    return {n: decided(state, n) for n in F.differing_games(state.paper.entries, state.entries)}


def from_table(state: SheetState) -> bool:
    """Whether the table entered games of this sheet on its phone."""
    return any(source == SOURCE_TABLE for source in state.sources.values())


def paper_required(state: SheetState, blind: bool) -> bool:
    """Under the four-eyes check: a table that entered its games on a phone, or every sheet
    when the second entry is blind, is checked by typing the paper sheet blind."""
    return blind or from_table(state)


@dataclass(frozen=True)
class Rules:
    """The tournament's settings a write depends on."""

    double_check: bool = False
    blind: bool = False  # "Zweite Eingabe blind"
    games: int = 12


@dataclass
class Plan:
    """What a write does: the state afterwards, what changed, what to tell the person."""

    state: SheetState
    changed: dict[int, tuple[dict[str, str], dict[str, str]]] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)
    correction: bool = False  # a confirmed sheet's games changed (organisers only)
    confirmed_now: bool = False
    table_confirmed_now: bool = False
    paper_recorded: bool = False
    decided: list[int] = field(default_factory=list)
    reopened: bool = False

    @property
    def new_version(self) -> bool:
        return (
            bool(self.changed)
            or self.confirmed_now
            or self.table_confirmed_now
            or (bool(self.decided) or self.reopened)
        )


def plan(
    before: SheetState,
    ops: Sequence[Operation],
    author: Author,
    judge: Judge,
    rules: Rules,
    now: str,
) -> Plan:
    """Apply ``ops`` in order to ``before``; raises (nothing applied) on a stale base, a locked
    sheet, a refused game or a stale confirmation. Soft failures of a desk confirmation (not
    valid yet, four-eyes not satisfied) are notices: the rest of the write is kept."""
    result = Plan(before)
    games = any(isinstance(op, SetGame | ClearGame) for op in ops)
    if author.table and games and (before.table_confirmed or before.status != DRAFT):
        raise TableLocked(
            _("Der Zettel ist bestätigt: ändern kann ihn jetzt nur die Turnierleitung.")
        )
    conflicts = [
        c for op in ops if isinstance(op, SetGame | ClearGame) if (c := _conflict(before, op))
    ]
    if conflicts:
        raise SheetConflict(conflicts, before.version)
    for op in ops:
        if isinstance(op, SetGame | ClearGame):
            _set(result, op, author, judge, rules)
        elif isinstance(op, ConfirmAtTable):
            _confirm_at_table(result, op, judge, rules)
        elif isinstance(op, ConfirmAtDesk):
            _confirm_at_desk(result, op, author, judge, rules)
        elif isinstance(op, RecordPaper):
            _record_paper(result, op, author, now)
        elif isinstance(op, TakeVersion):
            _take(result, op, author, judge, rules)
        elif isinstance(op, Reopen):
            _reopen(result, op)
    corrected = result.correction and result.state.status == CONFIRMED
    if corrected and not judge(result.state.entries).valid:
        raise DeskError(
            _(
                "Ein bestätigter Spielzettel kann nur mit vollständigen, gültigen Eingaben "
                "korrigiert werden. Es wurde nichts geändert."
            )
        )
    if result.new_version:
        result.state = replace(result.state, version=before.version + 1)
    return result


def _conflict(state: SheetState, op: SetGame | ClearGame) -> PartConflict | None:
    stored = state.stamp(op.number)
    if op.base is not None and op.base == stored:
        return None
    wanted = F.stamp(F.part_fields(op.fields, op.number)) if isinstance(op, SetGame) else ""
    if wanted == stored:
        return None  # what is stored already: nothing to decide, nothing changes
    return PartConflict(
        number=op.number,
        mine=dict(op.fields) if isinstance(op, SetGame) else {},
        theirs=F.part_fields(state.entries, op.number),
        stamp=stored,
        source=state.sources.get(op.number, ""),
        author=state.authors.get(op.number),
    )


def _write_part(
    result: Plan, number: int, fields: Mapping[str, str], source: str, account: str | None
) -> None:
    state = result.state
    old = F.part_fields(state.entries, number)
    entries = F.with_part(state.entries, number, fields)
    new = F.part_fields(entries, number)
    if new == old:
        return
    first_old = result.changed.get(number, (old, new))[0]
    result.changed[number] = (first_old, new)
    result.state = replace(
        state,
        entries=entries,
        sources={**state.sources, number: source},
        authors={**state.authors, number: account},
    )


def _set(result: Plan, op: SetGame | ClearGame, author: Author, judge: Judge, rules: Rules) -> None:
    state = result.state
    if author.table and isinstance(op, ClearGame) and not state.stamp(op.number):
        raise BadGame(_("Dieses Spiel ist nicht eingetragen."))
    fields = F.part_fields(op.fields, op.number) if isinstance(op, SetGame) else {}
    if isinstance(op, SetGame) and not fields and author.table:
        raise BadGame(_("Das Spiel ist leer; nichts wurde geändert."))
    _write_part(result, op.number, fields, author.source, author.account)
    if op.number not in result.changed:
        return
    if author.table and fields:
        errors = judge(result.state.entries).game_errors.get(op.number)
        if errors:
            raise GameRefused({k: list(v) for k, v in errors.items()})
    _after_change(result, judge, rules)


def _after_change(result: Plan, judge: Judge, rules: Rules) -> None:
    """A game of the sheet changed: a sheet the table confirmed is a draft again; a confirmed
    one is corrected (with the four-eyes check it waits for a second person again; without, it
    must stay complete and valid: ``plan`` checks that once all operations are applied)."""
    state = result.state
    if state.status == TABLE:
        result.state = replace(state, status=DRAFT)
    elif state.status == CONFIRMED:
        result.correction = True
        if rules.double_check:
            result.state = replace(state, status=DRAFT)
            result.reopened = True
            _notice(
                result,
                _(
                    "Korrektur gespeichert. Vier-Augen-Prinzip: der Spielzettel zählt erst "
                    "wieder, wenn eine zweite Person ihn bestätigt."
                ),
            )


def _notice(result: Plan, text: str) -> None:
    if text not in result.notices:
        result.notices.append(text)


def _confirm_at_table(result: Plan, op: ConfirmAtTable, judge: Judge, rules: Rules) -> None:
    state = result.state
    if state.table_confirmed:
        return  # already confirmed (a retried request)
    if (
        op.version is not None
        and op.version != state.version
        or (op.version is None and state.version)
    ):
        raise StaleConfirmation(
            _(
                "Der Zettel wurde inzwischen geändert. Bitte die Spiele noch einmal ansehen "
                "und dann bestätigen."
            )
        )
    if not state.entries or not judge(state.entries).valid:
        raise DeskError(
            _("Erst wenn alle %(n)s Spiele eingetragen sind, kann der Zettel bestätigt werden.")
            % {"n": rules.games}
        )
    if sorted(op.numbers) != sorted(op.expected):
        raise DeskError(
            _(
                "Die Startnummern stimmen nicht: bestätigen müssen die Gegenspieler des "
                "Listenführers, jede Partei mit ihrer eigenen Startnummer."
            )
        )
    result.state = replace(
        state, table_confirmed=True, status=TABLE if state.status == DRAFT else state.status
    )
    result.table_confirmed_now = True


def _confirm_at_desk(
    result: Plan, op: ConfirmAtDesk, author: Author, judge: Judge, rules: Rules
) -> None:
    state = result.state
    if state.status == CONFIRMED:
        return
    now = F.part_stamps(state.entries)
    if op.seen is not None:
        moved = sorted(n for n in set(now) | set(op.seen) if now.get(n, "") != op.seen.get(n, ""))
        if moved:
            _notice(
                result,
                _(
                    "Gespeichert, aber nicht bestätigt: %(games)s wurde inzwischen anderswo "
                    "geändert. Bitte ansehen und dann bestätigen."
                )
                % {"games": _games(moved)},
            )
            return
    if not state.entries or not judge(state.entries).valid:
        _notice(
            result,
            _(
                "Als Entwurf gespeichert. Bestätigen geht erst, wenn alle %(n)s Spiele "
                "vollständig und ohne Fehler eingetragen sind."
            )
            % {"n": rules.games},
        )
        return
    if rules.double_check and not _four_eyes(result, op, author, rules):
        return
    result.state = replace(state, status=CONFIRMED, confirmed=dict(state.entries))
    result.confirmed_now = True


def _games(numbers: Sequence[int]) -> str:
    names = [_("Summe laut Listenführer") if n == F.TOTALS else str(n) for n in numbers]
    return npgettext("games named", "Spiel %(n)s", "Spiele %(n)s", len(numbers)) % {
        "n": ", ".join(names)
    }


def _four_eyes(result: Plan, op: ConfirmAtDesk, author: Author, rules: Rules) -> bool:
    """Whether every game that differs from the last confirmed sheet has been checked: by the
    paper typed blind by someone else, by a decision between paper and sheet, or (where the
    paper check is not required) ticked one by one by someone who did not enter it."""
    state = result.state
    items = to_check(state)
    required = paper_required(state, rules.blind)
    if required and state.paper is None:
        _notice(
            result,
            _(
                "Gespeichert, aber noch nicht bestätigt: Vier-Augen-Prinzip mit Papier-"
                "Kontrolle. Bitte zuerst den Papierzettel blind eintippen."
            ),
        )
        return False
    differing = [i.number for i in items if i.differs_from_paper and not i.decided]
    if differing:
        _notice(
            result,
            _(
                "Gespeichert, aber noch nicht bestätigt: Papier und Zettel weichen ab in "
                "%(games)s. Bitte für jedes Spiel entscheiden, was gilt."
            )
            % {"games": _games(differing)},
        )
        return False
    own = [
        i.number
        for i in items
        if not i.checked and i.author is not None and i.author == author.account
    ]
    if own:
        _notice(
            result,
            _(
                "Vier-Augen-Prinzip: %(games)s haben Sie selbst eingetragen; bestätigen muss "
                "eine zweite Person."
            )
            % {"games": _games(own)},
        )
        return False
    unticked = [i.number for i in items if not i.checked and op.ticked.get(i.number) != i.stamp]
    if unticked:
        _notice(
            result,
            _(
                "Gespeichert, aber noch nicht bestätigt: Vier-Augen-Prinzip. Bitte %(games)s "
                "einzeln mit dem Papier vergleichen und als geprüft ankreuzen."
            )
            % {"games": _games(unticked)},
        )
        return False
    return True


def _record_paper(result: Plan, op: RecordPaper, author: Author, now: str) -> None:
    if not F.game_stamps(result.state.entries):
        raise DeskError(
            _(
                "Auf dem Zettel ist noch kein Spiel eingetragen: bitte den Papierzettel als "
                "Zettel eintippen."
            )
        )
    entries = F.normalized(op.entries)
    if not F.game_stamps(entries):
        raise DeskError(_("Auf dem Papier ist nichts eingetragen; nichts gespeichert."))
    result.state = replace(result.state, paper=Paper(entries, author.account, now))
    result.paper_recorded = True


def _take(result: Plan, op: TakeVersion, author: Author, judge: Judge, rules: Rules) -> None:
    state = result.state
    paper = F.part_fields(state.paper.entries, op.number) if state.paper is not None else {}
    if state.paper is None or F.stamp(paper) != op.paper or state.stamp(op.number) != op.sheet:
        raise DeskError(
            _("Spiel %(n)s wurde inzwischen geändert; bitte noch einmal vergleichen.")
            % {"n": op.number}
        )
    if F.stamp(paper) == state.stamp(op.number):
        raise DeskError(
            _("Spiel %(n)s: Papier und Zettel sind gleich; nichts zu entscheiden.")
            % {"n": op.number}
        )
    if op.take == "paper":
        assert state.paper is not None
        _write_part(result, op.number, paper, SOURCE_PAPER, state.paper.by)
        if op.number in result.changed:
            _after_change(result, judge, rules)
    decision = Decision(op.paper, result.state.stamp(op.number), op.take, author.account)
    before = result.state.decisions.get(op.number)
    if before is not None and (before.paper, before.sheet) == (decision.paper, decision.sheet):
        return  # decided so already
    result.state = replace(result.state, decisions={**result.state.decisions, op.number: decision})
    result.decided.append(op.number)


def _reopen(result: Plan, op: Reopen) -> None:
    state = result.state
    if op.version != state.version:
        raise StaleConfirmation(
            _("Der Zettel wurde inzwischen geändert; bitte die Seite neu laden.")
        )
    if state.status == DRAFT and not state.table_confirmed:
        return
    result.state = replace(state, status=DRAFT, table_confirmed=False)
    result.reopened = True
    result.correction = result.correction or state.status == CONFIRMED
