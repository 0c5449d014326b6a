"""The one read model of the rounds: every round's phase and how far its sheets are, from one
aggregate query. The dashboard, the board, the seating and results pages, the standings, the
pace and the personal pages ask it; nothing else works out "the round in play"."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from django.db.models import Count, Q
from django.utils.translation import gettext as _

from ...models import Competition, Round, SheetStatus, Tournament


class RoundPhase(StrEnum):
    PLANNED = "planned"  # not started: its seating may still change
    RUNNING = "running"  # started, a sheet still to confirm
    FINISHED = "finished"  # every sheet confirmed at the desk


class RoundNotStarted(Exception):
    """A table link of a round the desk has not started yet (not a DeskError: the table's
    pages answer it with a page of its own, whatever else they catch)."""

    def __init__(self, round_obj: Round) -> None:
        self.message = str(
            _(
                "Durchgang %(n)s beginnt noch nicht. Sobald die Turnierleitung ihn startet, "
                "geht es hier los."
            )
            % {"n": round_obj.number}
        )
        super().__init__(self.message)
        self.round = round_obj


def require_started(round_obj: Round) -> None:
    """Table links write only in a started round (RoundNotStarted otherwise)."""
    if not round_obj.locked:
        raise RoundNotStarted(round_obj)


@dataclass(frozen=True)
class RoundState:
    """One round: its phase and its tables' sheets (of one competition, or of all)."""

    round: Round
    phase: RoundPhase
    tables: int
    confirmed: int  # confirmed at the desk
    unconfirmed: int  # a sheet exists, not yet confirmed at the desk (drafts, table-confirmed)
    ready: int  # complete and valid, waiting for the desk's confirmation
    mismatch: int  # the scorer's sums differ from the computed ones
    table_confirmed: int  # confirmed by the table on its phone, not yet at the desk

    @property
    def number(self) -> int:
        return self.round.number

    @property
    def started(self) -> bool:
        return self.phase != RoundPhase.PLANNED

    @property
    def missing(self) -> int:
        """Tables without any sheet yet."""
        return self.tables - self.confirmed - self.unconfirmed

    @property
    def open(self) -> int:
        """Tables whose sheet is not confirmed at the desk."""
        return self.tables - self.confirmed

    @property
    def label(self) -> str:
        if self.phase == RoundPhase.PLANNED:
            return _("geplant")
        if self.phase == RoundPhase.FINISHED:
            return _("beendet")
        return _("läuft: %(n)s von %(m)s Zetteln bestätigt") % {
            "n": self.confirmed,
            "m": self.tables,
        }


def phase_of(round_obj: Round, tables: int, confirmed: int) -> RoundPhase:
    """Planned until started; finished while every one of its sheets is confirmed (a sheet
    reopened for a correction makes it run again); running in between. The writer records
    each change as it happens (``Round.finished_at``); the phase itself is read from the
    sheets, so it can never disagree with them."""
    if not round_obj.locked:
        return RoundPhase.PLANNED
    if tables and confirmed == tables:
        return RoundPhase.FINISHED
    return RoundPhase.RUNNING


@dataclass(frozen=True)
class Rounds:
    """The evening's rounds in order (those with a seating plan when ``seated_only``)."""

    states: tuple[RoundState, ...]

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.states)

    def __len__(self) -> int:
        return len(self.states)

    def get(self, number: int | None) -> RoundState | None:
        return next((s for s in self.states if s.number == number), None)

    @property
    def in_play(self) -> RoundState | None:
        """The round being played: the first started round with a sheet still to confirm."""
        return next((s for s in self.states if s.phase == RoundPhase.RUNNING), None)

    @property
    def current(self) -> RoundState | None:
        """The round a page shows first: the one in play, else the next planned one, else the
        last; None before any seating."""
        seated = [s for s in self.states if s.tables]
        return next((s for s in seated if s.phase != RoundPhase.FINISHED), None) or (
            seated[-1] if seated else None
        )

    @property
    def started(self) -> int:
        """How many rounds have started: k when rounds 1..k have (their seating is fixed)."""
        return _started(s.round for s in self.states)

    @property
    def over(self) -> bool:
        """Every round has been played and every sheet confirmed: the places are final."""
        return bool(self.states) and all(s.phase == RoundPhase.FINISHED for s in self.states)

    @property
    def next_planned(self) -> RoundState | None:
        return next((s for s in self.states if s.phase == RoundPhase.PLANNED and s.tables), None)


def _started(rounds: Iterable[Round]) -> int:
    played = 0
    for expected, r in enumerate(sorted(rounds, key=lambda r: r.number), start=1):
        if r.number != expected or not r.locked:
            break
        played = r.number
    return played


def started_rounds(tournament: Tournament) -> int:
    """How many rounds have started (rounds 1..k), from the rounds alone (one small query)."""
    return _started(tournament.round_set.only("number", "locked"))


def round_states(tournament: Tournament, competition: Competition | None = None) -> Rounds:
    """Every round of the tournament with its phase and its sheets (of ``competition`` only,
    when given) — one query."""
    of = Q(tables__competition=competition) if competition is not None else Q()
    status = "tables__sheet__status"
    unconfirmed = of & Q(**{f"{status}__in": (SheetStatus.DRAFT, SheetStatus.TABLE)})
    rounds = tournament.round_set.annotate(
        n_tables=Count("tables", filter=of),
        n_confirmed=Count("tables", filter=of & Q(**{status: SheetStatus.CONFIRMED})),
        n_unconfirmed=Count("tables", filter=unconfirmed),
        n_ready=Count(
            "tables",
            filter=unconfirmed & Q(tables__sheet__complete=True, tables__sheet__error_count=0),
        ),
        n_mismatch=Count("tables", filter=of & Q(tables__sheet__scorer_mismatch=True)),
        n_table=Count("tables", filter=of & Q(**{status: SheetStatus.TABLE})),
    ).order_by("number")
    out = [
        RoundState(
            round=r,
            phase=phase_of(r, r.n_tables, r.n_confirmed),
            tables=r.n_tables,
            confirmed=r.n_confirmed,
            unconfirmed=r.n_unconfirmed,
            ready=r.n_ready,
            mismatch=r.n_mismatch,
            table_confirmed=r.n_table,
        )
        for r in rounds
    ]
    return Rounds(tuple(out))


def open_tables(round_obj: Round) -> list[int]:
    """The numbers of the round's tables whose sheet is not confirmed at the desk."""
    return list(
        round_obj.tables.exclude(sheet__status=SheetStatus.CONFIRMED)
        .order_by("number")
        .values_list("number", flat=True)
    )


@dataclass(frozen=True)
class NextStep:
    """The evening's next sensible step, for the dashboard's main button."""

    kind: str  # register, plan, replan, start, results, finish
    round: int | None = None
    open_sheets: int = 0


def next_step(rounds: Rounds, entrants: int, seated: bool, out_of_date: bool) -> NextStep:
    """From the rounds' phases and the registrations: register, plan, re-plan, start the next
    round, enter the running round's results, or -- every round finished -- the prizes."""
    if not entrants:
        return NextStep("register")
    if not seated:
        return NextStep("plan")
    if out_of_date:
        return NextStep("replan")
    running = rounds.in_play
    if running is not None:
        return NextStep("results", running.number, running.open)
    planned = rounds.next_planned
    if planned is not None:
        return NextStep("start", planned.number)
    return NextStep("finish")
