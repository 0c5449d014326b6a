"""The PDFs' data, loaded in a few queries and handed to the renderers as plain dataclasses.

Seat order follows the plan (RULES.md): the first-named deals game 1, dealing moves on seat by
seat, the third-named keeps the score sheet. At a pair table the partners sit crosswise, so the
four chairs are: pair 1, pair 2, pair 1's partner, pair 2's partner."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Prefetch

from ...models import Round, Seat, Table, TableKind

FIRST_DEALER_SEAT = 1
SCORER_SEAT = 3


@dataclass(frozen=True)
class Player:
    seat: int  # chair in dealing order, 1-based
    start_number: int
    name: str  # this person (one partner of a pair)
    entrant_name: str  # the entrant: a player, or "A / B" for a pair
    club: str

    @property
    def deals_first(self) -> bool:
        return self.seat == FIRST_DEALER_SEAT

    @property
    def keeps_score(self) -> bool:
        return self.seat == SCORER_SEAT


@dataclass(frozen=True)
class TablePlan:
    round_number: int
    number: int
    kind: str
    kind_label: str
    mode: str
    players: tuple[Player, ...]


def load_tables(rounds: Iterable[Round]) -> list[Table]:
    """The rounds' tables in hall order, with seats, entrants and competition."""
    return list(
        Table.objects.filter(round__in=list(rounds))
        .select_related("round__tournament", "competition")
        .prefetch_related(
            Prefetch("seats", Seat.objects.select_related("entrant").order_by("position"))
        )
        .order_by("round__number", "number")
    )


def players_of(table: Table) -> tuple[Player, ...]:
    seats = sorted(table.seats.all(), key=lambda s: s.position)
    entrants = [s.entrant for s in seats]
    if table.kind == TableKind.PAIRS:
        people = [(e, e.name) for e in entrants] + [(e, e.partner) for e in entrants]
    else:
        people = [(e, e.name) for e in entrants]
    return tuple(
        Player(seat, e.start_number, name, e.display_name, e.club)
        for seat, (e, name) in enumerate(people, start=1)
    )


def table_plan(table: Table) -> TablePlan:
    return TablePlan(
        round_number=table.round.number,
        number=table.number,
        kind=table.kind,
        kind_label=str(table.get_kind_display()),
        mode=table.competition.mode,
        players=players_of(table),
    )
