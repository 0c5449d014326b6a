"""The hall one round at a time, for the seating and results pages: each round's progress, the
round in play, and the tables of one round page by page (or those a search finds) — a fixed
number of small queries whatever the size of the field, so the pages stay quick and usable at
hundreds of tables a round."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q, QuerySet

from ...models import Round, ScoreSheet, Seat, SheetStatus, Table, Tournament

TABLES_PER_PAGE = 60
SEARCH_MAX_LENGTH = 60


@dataclass(frozen=True)
class RoundProgress:
    """How far the score sheets of one round are."""

    number: int
    tables: int
    confirmed: int
    drafts: int  # sheets not yet confirmed, those waiting for confirmation included
    ready: int  # complete and valid, waiting to be confirmed
    mismatch: int  # the scorer's sums differ from the computed ones

    @property
    def missing(self) -> int:
        return self.tables - self.confirmed - self.drafts


def round_progress(tournament: Tournament) -> dict[int, RoundProgress]:
    """Every round that has tables, by number: one aggregate query."""
    confirmed = Q(sheet__status=SheetStatus.CONFIRMED)
    # a draft or a sheet the table confirmed on its phone: not yet confirmed at the desk
    draft = Q(sheet__status__in=(SheetStatus.DRAFT, SheetStatus.TABLE))
    rows = (
        Table.objects.filter(round__tournament=tournament)
        .values("round__number")
        .annotate(
            tables=Count("id"),
            confirmed=Count("id", filter=confirmed),
            unconfirmed=Count("id", filter=draft),  # not "drafts": a relation of Table
            ready=Count("id", filter=draft & Q(sheet__complete=True, sheet__error_count=0)),
            mismatch=Count("id", filter=Q(sheet__scorer_mismatch=True)),
        )
        .order_by("round__number")
    )
    return {
        row["round__number"]: RoundProgress(
            row["round__number"],
            row["tables"],
            row["confirmed"],
            row["unconfirmed"],
            row["ready"],
            row["mismatch"],
        )
        for row in rows
    }


def round_in_play(progress: dict[int, RoundProgress]) -> int | None:
    """The first round with a sheet still to confirm; when every sheet is confirmed, the last
    round; None before any seating."""
    open_rounds = [p.number for p in progress.values() if p.confirmed < p.tables]
    if open_rounds:
        return min(open_rounds)
    return max(progress, default=None)


@dataclass(frozen=True)
class TableRange:
    """One page of a round's tables: table numbers ``first``..``last``."""

    page: int
    first: int
    last: int


@dataclass
class HallView:
    rounds: list[Round]
    progress: dict[int, RoundProgress]
    round: Round | None  # the round shown; None before any round exists
    ranges: list[TableRange]  # the pages of the round's tables
    range: TableRange | None  # the page shown; None while a search shows what it found
    query: str
    tables: list[Table]

    @property
    def current(self) -> RoundProgress | None:
        return self.progress.get(self.round.number) if self.round is not None else None

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
    rounds = list(tournament.round_set.order_by("number"))
    progress = round_progress(tournament)
    numbers = [r.number for r in rounds]
    wanted = _number(round_text, max(numbers, default=0))
    if wanted is None or wanted not in numbers:
        wanted = round_in_play(progress) or (numbers[0] if numbers else None)
    current = next((r for r in rounds if r.number == wanted), None)
    query = " ".join(query.split())[:SEARCH_MAX_LENGTH]
    if current is None:
        return HallView(rounds, progress, None, [], None, query, [])
    count = progress[current.number].tables if current.number in progress else 0
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
    return HallView(rounds, progress, current, ranges, shown, query, found)


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
