"""Standings from stored points, aggregated in SQL (two queries, whatever the entrant count).

Tie-breaks are a metric registry (Tabbycat's standings/metrics.py): each is a small class with a
key, a label and a direction, ordered by the rule set's ``tie_breaks``."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db.models import Count, Q, Sum
from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from ..models import Competition, Entrant, PartyResult, SheetStatus, Table, Tournament


@dataclass
class StandingRow:
    entrant: Entrant
    round_points: list[int]
    total: int
    declarer_wins: int
    games: int
    metrics: dict[str, int] = field(default_factory=dict)
    place: int | None = None
    shared: bool = False

    @property
    def place_label(self) -> str:
        if self.place is None:
            return str(_("a. K.")) if self.entrant.unranked else ""
        return f"{self.place}." if not self.shared else f"{self.place}. ="

    @property
    def best_round(self) -> int:
        return max(self.round_points, default=0)


class Metric(ABC):
    key: str
    label: Promise
    higher_is_better: bool = True

    @abstractmethod
    def value(self, row: StandingRow) -> int:
        """The metric's value for one entrant."""

    def sort_key(self, row: StandingRow) -> int:
        v = self.value(row)
        return -v if self.higher_is_better else v


class TotalPoints(Metric):
    key = "total"
    label = _("Punkte")

    def value(self, row: StandingRow) -> int:
        return row.total


class DeclarerWins(Metric):
    key = "declarer_wins"
    label = _("gew. Spiele")

    def value(self, row: StandingRow) -> int:
        return row.declarer_wins


class BestRound(Metric):
    key = "best_round"
    label = _("bester Durchgang")

    def value(self, row: StandingRow) -> int:
        return row.best_round


METRICS: dict[str, Metric] = {m.key: m for m in (TotalPoints(), DeclarerWins(), BestRound())}


def tie_break_metrics(keys: Sequence[str]) -> list[Metric]:
    return [METRICS[k] for k in keys if k in METRICS and k != "total"]


@dataclass(frozen=True)
class RoundState:
    """Which round standings are taken after and whether they are final — the one answer the
    desk's page, the PDF and the workbook share. ``after``: the round asked for, or the last
    round with a counted sheet (``None``: nothing counted yet); ``tables``/``confirmed``: the
    competition's tables up to it and how many of them the desk has confirmed; ``seated``: the
    rounds that have tables; ``played``: the rounds with counted results (a round without any
    shows no points, not zeros)."""

    after: int | None
    rounds: int
    tables: int = 0
    confirmed: int = 0
    seated: frozenset[int] = frozenset()
    played: frozenset[int] = frozenset()

    @property
    def complete(self) -> bool:
        """Every round up to ``after`` is seated and every sheet of it confirmed."""
        return (
            self.after is not None
            and self.tables > 0
            and self.confirmed == self.tables
            and self.seated == frozenset(range(1, self.after + 1))
        )

    @property
    def provisional(self) -> bool:
        return self.after is not None and not self.complete

    @property
    def final(self) -> bool:
        return self.complete and self.after == self.rounds

    @property
    def subtitle(self) -> str:
        """ "Vorläufiger Stand nach dem 2. Durchgang", "Endstand nach 3 Durchgängen" …"""
        if self.after is None:
            return gettext("Noch keine bestätigten Ergebnisse")
        if self.provisional:
            return gettext("Vorläufiger Stand nach dem %(n)s. Durchgang") % {"n": self.after}
        if not self.final:
            return gettext("Stand nach dem %(n)s. Durchgang") % {"n": self.after}
        return ngettext(
            "Endstand nach %(n)s Durchgang", "Endstand nach %(n)s Durchgängen", self.rounds
        ) % {"n": self.rounds}

    @property
    def note(self) -> str:
        """How many sheets are confirmed, while the standings are provisional."""
        if not self.provisional:
            return ""
        return gettext("%(confirmed)s von %(tables)s Spielzetteln bestätigt") % {
            "confirmed": self.confirmed,
            "tables": self.tables,
        }


@dataclass
class Standings:
    competition: Competition
    rounds: list[int]
    rows: list[StandingRow]
    metrics: list[Metric]
    # games of sheets only the table has confirmed so far are counted (provisional)
    from_tables: bool = False
    state: RoundState | None = None


def counted_statuses(tournament: Tournament) -> tuple[str, ...]:
    """The sheets the standings count: those confirmed at the desk, and where the tournament
    says so those the table confirmed on its phone (provisional until the desk confirms)."""
    if tournament.provisional_table_sheets:
        return (SheetStatus.CONFIRMED, SheetStatus.TABLE)
    return (SheetStatus.CONFIRMED,)


def round_state(competition: Competition, after_round: int | None = None) -> RoundState:
    """The competition's ``RoundState`` after ``after_round`` (default: the last round with a
    counted sheet) — one query over its tables."""
    tournament = competition.tournament
    statuses = counted_statuses(tournament)
    states = list(
        Table.objects.filter(competition=competition)
        .values_list("round__number", "sheet__status")
        .order_by()
    )
    if after_round is None:
        after = max((n for n, status in states if status in statuses), default=None)
    else:
        after = max(1, min(after_round, tournament.rounds))
    if after is None:
        return RoundState(None, tournament.rounds)
    upto = [(n, status) for n, status in states if n <= after]
    return RoundState(
        after=after,
        rounds=tournament.rounds,
        tables=len(upto),
        confirmed=sum(1 for _n, status in upto if status == SheetStatus.CONFIRMED),
        seated=frozenset(n for n, _status in upto),
        played=frozenset(n for n, status in upto if status in statuses),
    )


def compute_standings(competition: Competition, after_round: int | None = None) -> Standings:
    """The ranking after ``after_round`` (default: the last round with counted results; all
    rounds, with no points, before any), with its ``RoundState``."""
    tournament = competition.tournament
    rules = tournament.rules()
    state = round_state(competition, after_round)
    last = state.after or tournament.rounds
    results = list(
        PartyResult.objects.filter(
            entrant__competition=competition,
            game__sheet__status__in=counted_statuses(tournament),
            round_number__lte=last,
        )
        .values("entrant_id", "round_number")
        .annotate(
            points=Sum("points"),
            wins=Count("id", filter=Q(is_declarer=True, game__won=True)),
            games=Count("id", filter=Q(sits_out=False)),
            from_tables=Count("id", filter=Q(game__sheet__status=SheetStatus.TABLE)),
        )
        .order_by()
    )
    played = {item["entrant_id"] for item in results}
    rounds = list(range(1, last + 1))
    # a withdrawn entrant who never played is not listed; one who played keeps the points
    entrants = [
        e
        for e in competition.entrants.defer("created_at").order_by("start_number")
        if not e.withdrawn or e.pk in played
    ]
    rows = {
        e.pk: StandingRow(
            entrant=e, round_points=[0] * len(rounds), total=0, declarer_wins=0, games=0
        )
        for e in entrants
    }
    for item in results:
        row = rows[item["entrant_id"]]
        row.round_points[item["round_number"] - 1] += item["points"] or 0
        row.total += item["points"] or 0
        row.declarer_wins += item["wins"]
        row.games += item["games"]
    metrics = tie_break_metrics(rules.tie_breaks)
    from_tables = any(item["from_tables"] for item in results)
    ranked = rank(list(rows.values()), metrics)
    return Standings(competition, rounds, ranked, metrics, from_tables, state)


def rank(rows: list[StandingRow], metrics: Sequence[Metric]) -> list[StandingRow]:
    """Order by total, then the tie-break metrics; equal on all of them means a shared place.
    Unranked entrants ("außer Konkurrenz") follow without a place."""
    ordering = [METRICS["total"], *metrics]
    for row in rows:
        row.metrics = {m.key: m.value(row) for m in ordering}
    ranked = [r for r in rows if not r.entrant.unranked]
    ranked.sort(key=lambda r: ([m.sort_key(r) for m in ordering], r.entrant.start_number))
    previous: tuple[int, ...] | None = None
    for index, row in enumerate(ranked, start=1):
        key = tuple(m.sort_key(row) for m in ordering)
        if previous is not None and key == previous:
            row.place = ranked[index - 2].place
            row.shared = True
            ranked[index - 2].shared = True
        else:
            row.place = index
        previous = key
    unranked = sorted(
        (r for r in rows if r.entrant.unranked), key=lambda r: (-r.total, r.entrant.start_number)
    )
    return ranked + unranked
