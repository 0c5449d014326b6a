"""The one writer of a round's state: start (the desk, the seating page, or the first sheet the
desk saves from paper), unlock (a round without results), finish and reopen (recorded by the
sheet writer when a round's last sheet is confirmed, or one of them reopened). Every change
takes the round's row lock and is audited (which also tells the public pages)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from django.utils import timezone
from django.utils.translation import gettext as _

from ...models import Round, ScoreSheet, SheetStatus
from ..access import Action, Actor, require
from ..audit import log_action
from ..errors import DeskError
from ..writes import write_transaction
from .state import open_tables


class RoundChange(StrEnum):
    START = "start"  # its seating is fixed and its table links take games
    UNLOCK = "unlock"  # back to planned (only while nothing is entered)
    FINISH = "finish"  # every sheet confirmed at the desk
    REOPEN = "reopen"  # a sheet of a finished round is no longer confirmed


# who may ask for which change (FINISH and REOPEN are recorded by the sheet writer)
_PERMISSION = {
    RoundChange.START: Action.START_ROUND,
    RoundChange.UNLOCK: Action.SEATING,
}


class EarlierRoundsOpen(DeskError):
    """Starting a round while an earlier one still has sheets to confirm: asked first."""

    def __init__(self, open_by_round: dict[int, list[int]]) -> None:
        parts = [
            _("Durchgang %(n)s: Tisch %(tables)s") % {"n": n, "tables": ", ".join(map(str, tables))}
            for n, tables in sorted(open_by_round.items())
        ]
        super().__init__(
            _(
                "Noch nicht bestätigt: %(open)s. Trotzdem starten? Die Zettel können danach "
                "weiter eingegeben und bestätigt werden."
            )
            % {"open": "; ".join(parts)}
        )
        self.open_by_round = open_by_round


def change_round(
    round_obj: Round,
    change: RoundChange,
    user: Actor,
    *,
    despite_open: bool = False,
    at: datetime | None = None,
) -> bool:
    """Change the round's state; False when it was in that state already (nothing written).

    Inside a running write transaction (the sheet writer's) it joins it; otherwise it opens
    its own. ``despite_open``: start although an earlier round has sheets to confirm (without
    it, EarlierRoundsOpen names them and nothing changes). ``at``: when it happened, for an
    evening taken in from a result file (default: now); a finish recorded again at another
    time takes that time."""
    tournament = round_obj.tournament
    action = _PERMISSION.get(change)
    if action is not None:
        require(user, tournament, action)
    if change == RoundChange.START and not round_obj.tables.exists():
        raise DeskError(_("Für diesen Durchgang gibt es noch keinen Spielplan."))
    with write_transaction():
        fresh = Round.objects.select_for_update().get(pk=round_obj.pk)
        before = _state(fresh)
        if change == RoundChange.START:
            if fresh.locked:
                _copy(fresh, round_obj)
                return False
            if not despite_open and action is not None:
                earlier = {
                    r.number: tables
                    for r in tournament.round_set.filter(number__lt=fresh.number).order_by("number")
                    if (tables := open_tables(r))
                }
                if earlier:
                    raise EarlierRoundsOpen(earlier)
            fresh.locked = True
            fresh.started_at = fresh.started_at or at or timezone.now()
        elif change == RoundChange.UNLOCK:
            if not fresh.locked:
                _copy(fresh, round_obj)
                return False
            if _has_results(fresh):
                raise DeskError(
                    _("Für diesen Durchgang sind schon Ergebnisse erfasst; er bleibt gesperrt.")
                )
            fresh.locked = False
            fresh.started_at = None
            fresh.finished_at = None
        elif change == RoundChange.FINISH:
            if fresh.finished_at is not None and (at is None or fresh.finished_at == at):
                return False
            fresh.finished_at = at or timezone.now()
        elif change == RoundChange.REOPEN:
            if fresh.finished_at is None:
                return False
            fresh.finished_at = None
        fresh.save(update_fields=["locked", "started_at", "finished_at"])
        log_action(tournament, user, f"round.{change.value}", fresh, before, _state(fresh))
    _copy(fresh, round_obj)
    return True


def sheets_settled(round_obj: Round, user: Actor) -> None:
    """After a sheet's confirmation changed (inside the sheet writer's transaction): record
    that the round is finished, or running again."""
    tables = round_obj.tables.count()
    confirmed = round_obj.tables.filter(sheet__status=SheetStatus.CONFIRMED).count()
    done = tables > 0 and confirmed == tables
    if done != (round_obj.finished_at is not None):
        change_round(round_obj, RoundChange.FINISH if done else RoundChange.REOPEN, user)


def _state(r: Round) -> dict[str, object]:
    return {
        "locked": r.locked,
        "started_at": r.started_at.isoformat() if r.started_at else None,
        "finished_at": r.finished_at.isoformat() if r.finished_at else None,
    }


def _copy(source: Round, target: Round) -> None:
    target.locked = source.locked
    target.started_at = source.started_at
    target.finished_at = source.finished_at


def _has_results(round_obj: Round) -> bool:
    """Whether any sheet of the round holds a game or anything typed."""
    return ScoreSheet.objects.filter(table__round=round_obj).exclude(entries={}).exists()
