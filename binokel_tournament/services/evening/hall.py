"""The hall one round at a time, for the seating and results pages: each round's progress and
the round shown first (from the rounds' read model), and the tables of one round page by page
(or those a search finds) — a fixed number of small queries whatever the size of the field, so
the pages stay quick and usable at hundreds of tables a round."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db.models import Prefetch, Q, QuerySet

from ...models import Round, ScoreSheet, Seat, SheetStatus, Table, Tournament
from ..rounds.state import Rounds, RoundState, round_states

TABLES_PER_PAGE = 60
SEARCH_MAX_LENGTH = 60


@dataclass(frozen=True)
class TableRange:
    """One page of a round's tables: table numbers ``first``..``last``."""

    page: int
    first: int
    last: int


@dataclass
class HallView:
    states: Rounds  # every round's phase and sheets (the one read model)
    round: Round | None  # the round shown; None before any round exists
    ranges: list[TableRange]  # the pages of the round's tables
    range: TableRange | None  # the page shown; None while a search shows what it found
    query: str
    tables: list[Table]

    @property
    def rounds(self) -> list[Round]:
        return [s.round for s in self.states]

    @property
    def progress(self) -> dict[int, RoundState]:
        """The rounds that have tables, by number."""
        return {s.number: s for s in self.states if s.tables}

    @property
    def current(self) -> RoundState | None:
        return self.states.get(self.round.number) if self.round is not None else None

    @property
    def searched(self) -> bool:
        return bool(self.query)

    @property
    def more_found(self) -> bool:
        """A search found more tables than a page shows."""
        return self.searched and len(self.tables) >= TABLES_PER_PAGE


def _number(text: str, top: int) -> int | None:
    return int(text) if re.fullmatch(r"[0-9]{1,4}", text) and 1 <= int(text) <= top else None


def table_ranges(count: int) -> list[TableRange]:
    return [
        TableRange(page, first, min(first + TABLES_PER_PAGE - 1, count))
        for page, first in enumerate(range(1, count + 1, TABLES_PER_PAGE), start=1)
    ]


def search_filter(query: str) -> Q:
    """Tables a desk search means: digits are a table number or the start number of someone
    seated there; text is part of a name at the table."""
    if re.fullmatch(r"[0-9]{1,9}", query):
        number = int(query)
        return Q(number=number) | Q(seats__entrant__start_number=number)
    return Q(seats__entrant__name__icontains=query) | Q(seats__entrant__partner__icontains=query)


def hall_view(
    tournament: Tournament,
    round_text: str = "",
    page_text: str = "",
    query: str = "",
    *,
    seats: bool = False,
    sheets: bool = False,
) -> HallView:
    """One round of the hall as a page asks for it (``?round=…&page=…`` or ``?q=…``; anything
    odd falls back to the round in play and its first page): the round's tables with their
    competition, and with their seats and entrants (``seats``) or their score sheet
    (``sheets``)."""
    states = round_states(tournament)
    numbers = [s.number for s in states]
    wanted = _number(round_text, max(numbers, default=0))
    if wanted is None or wanted not in numbers:
        shown_first = states.current
        wanted = shown_first.number if shown_first is not None else min(numbers, default=None)
    state = states.get(wanted)
    current = state.round if state is not None else None
    query = " ".join(query.split())[:SEARCH_MAX_LENGTH]
    if current is None or state is None:
        return HallView(states, None, [], None, query, [])
    count = state.tables
    ranges = table_ranges(count)
    tables: QuerySet[Table] = Table.objects.filter(round=current).select_related("competition")
    if seats:
        ordered = Seat.objects.select_related("entrant").order_by("position")
        tables = tables.prefetch_related(Prefetch("seats", ordered))
    if sheets:
        tables = tables.select_related("sheet")
    shown: TableRange | None = None
    if query:
        hits = Table.objects.filter(search_filter(query), round=current).values("pk")
        tables = tables.filter(pk__in=hits)
    elif ranges:
        index = _number(page_text, len(ranges)) or 1
        shown = ranges[index - 1]
        tables = tables.filter(number__range=(shown.first, shown.last))
    found = list(tables.order_by("number")[:TABLES_PER_PAGE])
    for table in found:
        table.round = current  # one Round object for all of them, no query per table
    return HallView(states, current, ranges, shown, query, found)


def first_open_table(hall: HallView) -> Table | None:
    """The first table of the round shown whose sheet is not confirmed yet (none when the
    round's sheets are all confirmed, without a query)."""
    progress = hall.current
    if hall.round is None or progress is None or progress.confirmed == progress.tables:
        return None
    return (
        Table.objects.filter(round=hall.round)
        .exclude(sheet__status=SheetStatus.CONFIRMED)
        .order_by("number")
        .first()
    )


def sheet_of(table: Table) -> ScoreSheet | None:
    """The table's score sheet, when one was saved (loaded with the table by ``hall_view``)."""
    return getattr(table, "sheet", None)


def sheet_state(sheet: ScoreSheet | None) -> str:
    """missing, draft, ready (complete and valid, waiting to be confirmed), table (confirmed by
    the table on its phone, waiting for the desk) or confirmed."""
    if sheet is None:
        return "missing"
    if sheet.status == SheetStatus.CONFIRMED:
        return "confirmed"
    if sheet.status == SheetStatus.TABLE:
        return "table"
    if sheet.complete and not sheet.error_count:
        return "ready"
    return "draft"
