"""Tables and their seats, in one place: who deals, who sits out, who keeps score, who partners.

docs/rules.md, "Tables": the seat order is the order in which the seating plan names the players.
Seat 0 deals game 1 and dealing moves on seat by seat (0 → 1 → 2 → …); the player in seat 2
(the third-named) keeps the score sheet. A score sheet has one column per party:

* 3-table: three players, each a party; column = seat.
* 4-table with a sitting-out dealer: four players, each a party; column = seat; in every game
  the dealer's column sits out and scores 0, the other three play.
* pair table: two pairs, partners sit crosswise, so seats 0 and 2 are the first pair (column 0)
  and seats 1 and 3 the second (column 1). The scorer (seat 2) belongs to the first pair.

Seats and columns here are 0-based; the desk and the printouts show them 1-based.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Final


class TableKind(StrEnum):
    THREE = "three"
    PAIRS = "pairs"
    FOUR_SITOUT = "four_sitout"


FIRST_DEALER: Final = 0  # seat 0 deals game 1
SCORER_SEAT: Final = 2  # the third-named player keeps the score sheet (rule 3)


@dataclass(frozen=True)
class TableShape:
    """The seats and sheet columns of one kind of table."""

    kind: TableKind
    seats: int  # chairs at the table
    columns: int  # parties on the score sheet
    partners: bool  # a column is a pair of partners sitting crosswise

    @property
    def dealer_sits_out(self) -> bool:
        return self.kind is TableKind.FOUR_SITOUT

    @property
    def scorer_seat(self) -> int:
        return SCORER_SEAT

    @property
    def scorer_column(self) -> int:
        """The party whose player keeps the score sheet (at a pair table: the first pair)."""
        return self.column_of_seat(SCORER_SEAT)

    def column_of_seat(self, seat: int) -> int:
        """The sheet column the player in ``seat`` plays for."""
        self._check_seat(seat)
        return seat % self.columns if self.partners else seat

    def seats_of_column(self, column: int) -> tuple[int, ...]:
        """The seats of a column's players (two crosswise seats at a pair table)."""
        if not 0 <= column < self.columns:
            raise ValueError(f"a {self.kind} table has no column {column}")
        return (column, column + self.columns) if self.partners else (column,)

    def player_of_seat(self, seat: int) -> tuple[int, int]:
        """(column, which of the column's players) of the player in ``seat``: at a pair table
        seat 0 is the first pair's first player, seat 2 its second (the partner)."""
        column = self.column_of_seat(seat)
        return column, self.seats_of_column(column).index(seat)

    def deals_first(self, column: int) -> bool:
        """Whether a player of ``column`` deals game 1."""
        return FIRST_DEALER in self.seats_of_column(column)

    def next_dealer(self, seat: int) -> int:
        """The seat dealing after ``seat`` in the printed rotation."""
        self._check_seat(seat)
        return (seat + 1) % self.seats

    def rotation_dealer(self, game: int) -> int:
        """The dealer of game ``game`` (1-based) in the printed rotation, without any Durch."""
        if game < 1:
            raise ValueError(f"games are numbered from 1, not {game}")
        return (FIRST_DEALER + game - 1) % self.seats

    def sitting_out(self, dealer: int) -> int | None:
        """The column that sits out a game dealt by ``dealer`` (None: every column plays)."""
        return self.column_of_seat(dealer) if self.dealer_sits_out else None

    def playing_columns(self, dealer: int) -> tuple[int, ...]:
        """The columns that play a game dealt by ``dealer``, in sheet order."""
        out = self.sitting_out(dealer)
        return tuple(c for c in range(self.columns) if c != out)

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self.seats:
            raise ValueError(f"a {self.kind} table has no seat {seat}")


SHAPES: Final = MappingProxyType(
    {
        TableKind.THREE: TableShape(TableKind.THREE, seats=3, columns=3, partners=False),
        TableKind.PAIRS: TableShape(TableKind.PAIRS, seats=4, columns=2, partners=True),
        TableKind.FOUR_SITOUT: TableShape(
            TableKind.FOUR_SITOUT, seats=4, columns=4, partners=False
        ),
    }
)


def table_shape(kind: TableKind | str) -> TableShape:
    """The shape of a table kind ("three", "pairs", "four_sitout"); ValueError for another."""
    return SHAPES[TableKind(kind)]
