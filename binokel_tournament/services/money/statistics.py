"""The evening's statistics (the "Pressebericht"), the bridge between the stored results and
``charity.statistics``: one query for every counted party result, names for the entrants."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from django.db import connections

from charity.statistics import PartyRecord, Statistics, Top, compute

from ...models import PartyResult, Tournament, display_name, hidden_name, names_hidden
from ..evening.standings import counted_statuses


def records(
    tournament: Tournament, mode: str | None = None, up_to: int | None = None
) -> list[PartyRecord]:
    return list(party_records(tournament, mode, up_to))


def party_records(
    tournament: Tournament, mode: str | None = None, up_to: int | None = None
) -> Iterator[PartyRecord]:
    """Every counted party result (of ``mode``'s competition, of the rounds up to ``up_to``),
    games in the order they were stored, read as the engine consumes them."""
    results = PartyResult.objects.filter(
        entrant__tournament=tournament,
        game__sheet__status__in=counted_statuses(tournament),
    )
    if mode:
        results = results.filter(entrant__competition__mode=mode)
    if up_to is not None:
        results = results.filter(round_number__lte=up_to)
    query = results.order_by("game_id", "id").values_list(
        "game_id",
        "round_number",
        "entrant_id",
        "game__kind",
        "is_declarer",
        "game__won",
        "sits_out",
        "points",
        "meld",
        "entrant__start_number",
    )
    # Straight from the cursor, row by row: at 999 entrants (some 30,000 rows) Django's row
    # iteration took longer than the statistics themselves, and rows kept in a list until the
    # end made the garbage collector walk the whole heap. The flags arrive as 0/1 from SQLite,
    # as booleans from PostgreSQL.
    sql, params = query.query.sql_with_params()
    with connections[query.db].cursor() as cursor:
        cursor.execute(sql, params)
        for g, n, e, kind, declarer, won, out, points, meld, number in cursor:
            yield PartyRecord(
                g, n, e, kind, bool(declarer), bool(won), bool(out), points, meld, number
            )


@dataclass
class EveningStatistics:
    stats: Statistics
    names: dict[int, str]  # entrant id → "12 Anna Müller"

    def who(self, top: Top | None) -> str:
        return self.names.get(top.entrant_id, "") if top is not None else ""

    @property
    def highest_game_who(self) -> str:
        return self.who(self.stats.highest_game)

    @property
    def highest_round_who(self) -> str:
        return self.who(self.stats.highest_round)

    def best_rounds(self) -> list[tuple[str, Top]]:
        """Each entrant's best round, best first."""
        items = [(self.names.get(k, ""), top) for k, top in self.stats.best_rounds.items()]
        return sorted(items, key=lambda item: (-item[1].points, item[0]))


def evening_statistics(
    tournament: Tournament, mode: str | None = None, up_to: int | None = None
) -> EveningStatistics:
    """The figures of every counted game (of the rounds up to ``up_to``, when given)."""
    stats = compute(party_records(tournament, mode, up_to))
    hide = names_hidden()
    names = {
        pk: hidden_name(number) if hide and not shown else f"{number} {display_name(name, partner)}"
        for pk, number, name, partner, shown in tournament.entrants.values_list(
            "pk", "start_number", "name", "partner", "public_name"
        ).order_by()
    }
    return EveningStatistics(stats, names)
