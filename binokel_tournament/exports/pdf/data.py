"""The PDFs' data, loaded in a few queries and handed to the renderers as plain dataclasses.

Who sits in which chair, who deals first and who keeps score come from the engine's seat roles
(``scoring.tables``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Prefetch

from scoring.tables import FIRST_DEALER, SCORER_SEAT, table_shape

from ...models import Round, Seat, Table
from ...services.sheets.results import person


@dataclass(frozen=True)
class Player:
    seat: int  # chair in dealing order, 1-based
    start_number: int
    name: str  # this person (one partner of a pair)
    entrant_name: str  # the entrant: a player, or "A / B" for a pair
    club: str

    @property
    def deals_first(self) -> bool:
        return self.seat - 1 == FIRST_DEALER

    @property
    def keeps_score(self) -> bool:
        return self.seat - 1 == SCORER_SEAT


@dataclass(frozen=True)
class TablePlan:
    round_number: int
    number: int
    kind: str
    kind_label: str
    mode: str
    players: tuple[Player, ...]


def load_tables(rounds: Iterable[Round], numbers: Iterable[int] = ()) -> list[Table]:
    """The rounds' tables in hall order, with seats, entrants and competition (only the
    tables ``numbers`` when given)."""
    tables = Table.objects.filter(round__in=list(rounds))
    wanted = list(numbers)
    if wanted:
        tables = tables.filter(number__in=wanted)
    return list(
        tables.select_related("round__tournament", "competition")
        .prefetch_related(
            Prefetch("seats", Seat.objects.select_related("entrant").order_by("position"))
        )
        .order_by("round__number", "number")
    )


def players_of(table: Table) -> tuple[Player, ...]:
    shape = table_shape(table.kind)
    entrants = [s.entrant for s in sorted(table.seats.all(), key=lambda s: s.position)]
    players = []
    for seat in range(shape.seats):
        column, which = shape.player_of_seat(seat)
        e = entrants[column]
        players.append(Player(seat + 1, e.start_number, person(e, which), e.display_name, e.club))
    return tuple(players)


def table_plan(table: Table) -> TablePlan:
    return TablePlan(
        round_number=table.round.number,
        number=table.number,
        kind=table.kind,
        kind_label=str(table.get_kind_display()),
        mode=table.competition.mode,
        players=players_of(table),
    )
