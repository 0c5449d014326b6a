"""Rounds have a life: planned (a seating plan exists) -> started (by the desk; its seating no
longer changes) -> finished (every sheet confirmed). Table links, locks and the dashboard ask
the round's state here; nothing of a later round changes before it starts.

A started round is a locked one (``Round.locked``, with ``started_at``): the desk starts it with
one click on the board, or it starts by itself when the desk saves its first sheet from paper.
A link of a round that has not started takes no game and locks nothing."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ...models import Round, SheetStatus, Tournament
from ..access import Action, Actor, require
from ..audit import log_action
from ..errors import DeskError
from ..sheets.writes import write_transaction


class RoundState(StrEnum):
    PLANNED = "planned"
    RUNNING = "running"
    FINISHED = "finished"


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


@dataclass(frozen=True)
class RoundStatus:
    round: Round
    state: RoundState
    tables: int
    confirmed: int

    @property
    def number(self) -> int:
        return self.round.number

    @property
    def label(self) -> str:
        if self.state == RoundState.PLANNED:
            return _("geplant")
        if self.state == RoundState.FINISHED:
            return _("beendet")
        return _("läuft: %(n)s von %(m)s Zetteln bestätigt") % {
            "n": self.confirmed,
            "m": self.tables,
        }


def round_statuses(tournament: Tournament) -> list[RoundStatus]:
    """Every round of the tournament with its state, in one query."""
    rounds = tournament.round_set.annotate(
        table_count=Count("tables", distinct=True),
        confirmed_count=Count(
            "tables__sheet", filter=Q(tables__sheet__status=SheetStatus.CONFIRMED), distinct=True
        ),
    ).order_by("number")
    out = []
    for r in rounds:
        tables, confirmed = r.table_count, r.confirmed_count
        if not r.locked:
            state = RoundState.PLANNED
        elif tables and confirmed == tables:
            state = RoundState.FINISHED
        else:
            state = RoundState.RUNNING
        out.append(RoundStatus(r, state, tables, confirmed))
    return out


@dataclass(frozen=True)
class NextStep:
    """The evening's next sensible step, for the dashboard's main button."""

    kind: str  # register, plan, replan, start, results, finish
    round: int | None = None
    open_sheets: int = 0


def next_step(
    statuses: list[RoundStatus], entrants: int, seated: bool, out_of_date: bool
) -> NextStep:
    """From the rounds' states and the registrations: register, plan, re-plan, start the next
    round, enter the running round's results, or -- every round finished -- the prizes."""
    if not entrants:
        return NextStep("register")
    if not seated:
        return NextStep("plan")
    if out_of_date:
        return NextStep("replan")
    running = [s for s in statuses if s.state == RoundState.RUNNING]
    if running:
        first = running[0]
        return NextStep("results", first.number, first.tables - first.confirmed)
    planned = [s for s in statuses if s.state == RoundState.PLANNED]
    if planned:
        return NextStep("start", planned[0].number)
    return NextStep("finish")


def require_started(round_obj: Round) -> None:
    """Table links write only in a started round (RoundNotStarted otherwise)."""
    if not round_obj.locked:
        raise RoundNotStarted(round_obj)


def start_round(round_obj: Round, user: Actor) -> bool:
    """The desk starts a round: its seating is fixed from now on and its table links take
    games. Returns False when it had started already (nothing changes)."""
    require(user, round_obj.tournament, Action.START_ROUND)
    if not round_obj.tables.exists():
        raise DeskError(_("Für diesen Durchgang gibt es noch keinen Spielplan."))
    with write_transaction():
        fresh = Round.objects.select_for_update().get(pk=round_obj.pk)
        if fresh.locked:
            round_obj.locked, round_obj.started_at = True, fresh.started_at
            return False
        mark_started(fresh, user, "round.start")
    round_obj.locked, round_obj.started_at = True, fresh.started_at
    return True


def mark_started(round_obj: Round, user: Actor, action: str) -> None:
    """Start (lock) a round inside the caller's transaction, audited under ``action``."""
    round_obj.locked = True
    round_obj.started_at = round_obj.started_at or timezone.now()
    round_obj.save(update_fields=["locked", "started_at"])
    log_action(
        round_obj.tournament,
        user,
        action,
        round_obj,
        {"locked": False},
        {"locked": True, "started_at": round_obj.started_at.isoformat()},
    )
