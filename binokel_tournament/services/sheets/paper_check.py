"""The four-eyes check of a score sheet (the tournament's "Vier-Augen-Prinzip").

The confirming person sees every game that differs from the last confirmed sheet, before and
after, and confirms each one explicitly. A table that entered its games on a phone -- and every
sheet when the second entry is blind ("Zweite Eingabe blind") -- is checked by the paper: a
desk person types the paper sheet into an empty form, independently (its own record, never the
sheet); every game where paper and sheet differ is shown with both versions and decided one by
one (the paper counts, or the sheet does). All of it goes through the one writer."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _

from ...models import ScoreSheet, Table
from . import operations as O
from . import sheet_fields as F
from .results import User
from .words import game_line, part_changes
from .writer import Written, state_of, write


def paper_required(table: Table, sheet: ScoreSheet | None) -> bool:
    """Whether this sheet's four-eyes check is the paper typed blind."""
    tournament = table.round.tournament
    if not tournament.double_check:
        return False
    return O.paper_required(state_of(sheet), tournament.blind_second_entry)


def paper_pending(table: Table, sheet: ScoreSheet | None) -> bool:
    """Whether the paper is still to be typed blind for the check (the sheet holds games and
    waits for its confirmation)."""
    return (
        sheet is not None
        and sheet.status != O.CONFIRMED
        and bool(F.game_stamps(sheet.entries))
        and paper_required(table, sheet)
        and not (sheet.paper or {}).get("at")
    )


@dataclass(frozen=True)
class Difference:
    number: int
    sheet: str  # the sheet's game in a line
    paper: str  # the paper's game in a line
    sheet_stamp: str
    paper_stamp: str
    decided: str  # "paper", "sheet" or "" (not yet)
    source: str  # who entered the sheet's game (table, desk …)


def differences(table: Table, sheet: ScoreSheet | None) -> list[Difference]:
    """The games where the paper typed blind differs from the sheet (none while no paper is
    typed), each with what was decided."""
    if sheet is None or not (sheet.paper or {}).get("at"):
        return []
    state = state_of(sheet)
    assert state.paper is not None
    columns = table.seats.count()
    out = []
    for n, decided in O.paper_differences(state).items():
        paper = F.part_fields(state.paper.entries, n)
        now = F.part_fields(state.entries, n)
        out.append(
            Difference(
                n,
                game_line(now, n, columns),
                game_line(paper, n, columns),
                F.stamp(now),
                F.stamp(paper),
                decided,
                state.sources.get(n, ""),
            )
        )
    return out


def open_differences(sheet: ScoreSheet) -> list[int]:
    """The games where paper and sheet differ and nothing is decided yet (for the board)."""
    if not (sheet.paper or {}).get("at"):
        return []
    return [n for n, took in O.paper_differences(state_of(sheet)).items() if not took]


@dataclass(frozen=True)
class CheckRow:
    """A game to check before confirming: what changed, by whom, and whether it is covered."""

    number: int
    stamp: str
    changes: list[str]  # "Reizwert 230 → 500" …; a new game: its line
    source: str
    author: str | None  # the desk person's username (None: the table, a tool)
    checked: bool  # by the paper or a decision
    own: bool  # the confirming person entered it
    differs: bool  # the paper typed blind says otherwise (to be decided first)


def check_rows(table: Table, sheet: ScoreSheet | None, user: User) -> list[CheckRow]:
    """Every game that differs from the last confirmed sheet, in words: the four-eyes list for
    ``user`` before a confirmation, what was corrected since on a confirmed sheet."""
    if sheet is None:
        return []
    mine = user.get_username() if user is not None and user.is_authenticated else None
    columns = table.seats.count()
    return [
        CheckRow(
            item.number,
            item.stamp,
            part_changes(item.before, item.after, item.number, columns),
            item.source,
            item.author,
            item.checked,
            item.author is not None and item.author == mine,
            item.differs_from_paper and not item.decided,
        )
        for item in O.to_check(state_of(sheet))
    ]


def record_paper(
    table: Table, user: User, data: Mapping[str, object], submission: str = ""
) -> Written:
    """The paper sheet typed blind: kept as its own record, compared game by game."""
    entries = F.clean(data)
    key = f"p-{submission[:32]}-{F.stamp(entries)}" if submission else ""
    return write(table, [O.RecordPaper(entries)], user=user, key=key)


def take(
    table: Table, user: User, number: int, which: str, paper_stamp: str, sheet_stamp: str
) -> Written:
    """For one game where paper and sheet differ: the paper counts (``which="paper"``, written
    as the sheet's game) or the sheet does; both as shown (the stamps)."""
    if which not in ("paper", "sheet"):
        raise O.BadGame(_("Bitte Papier oder Zettel wählen."))
    op = O.TakeVersion(number, "paper" if which == "paper" else "sheet", paper_stamp, sheet_stamp)
    return write(table, [op], user=user)
