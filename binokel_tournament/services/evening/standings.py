"""Standings from stored points, aggregated in SQL (two queries, whatever the entrant count).

Tie-breaks are a metric registry (Tabbycat's standings/metrics.py): each is a small class with a
key, a label and a direction, ordered by the rule set's ``tie_breaks``."""

from __future__ import annotations

from abc import ABC
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any, ClassVar, cast

from django.db.models import Aggregate, Count, Q, Sum
from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from scoring import ranking

from ...models import Competition, Entrant, Game, PartyResult, SheetStatus, Table, Tournament
from ..rounds.state import Rounds, RoundState, round_states


@dataclass
class StandingRow:
    entrant: Entrant
    # None: the entrant has no counted game in that round (a late arrival's earlier rounds, a
    # round whose sheet is not counted yet), shown as "–", never as 0
    round_points: list[int | None]
    total: int
    games: int
    # per metric with an aggregate of its own: its sum over the counted rounds
    sums: dict[str, int] = field(default_factory=dict)
    metrics: dict[str, int] = field(default_factory=dict)
    place: int | None = None
    shared: bool = False

    @property
    def place_label(self) -> str:
        if self.place is None:
            return str(_("a. K.")) if self.entrant.unranked else ""
        return f"{self.place}." if not self.shared else f"{self.place}. ="


class Metric(ABC):
    """A ranking criterion (Tabbycat's ``standings/metrics.py``): its key (the rule set's
    ``tie_breaks`` name it), its label (column headers), its phrase for "Gleichstand
    entscheiden nach …" (the rule-set form), its direction, and its computation — an
    aggregate over an entrant's party results of one round (``aggregate``, summed over the
    rounds into ``row.sums[key]``) or a value derived from the row (``value``). Adding a
    tie-break: one subclass here (plus its key in the engine's ``scoring.TIE_BREAKS``, which
    validates rule sets) and its test."""

    key: ClassVar[str]
    label: ClassVar[Promise]
    order_label: ClassVar[Promise]
    higher_is_better: ClassVar[bool] = True
    aggregate: ClassVar[Aggregate | None] = None

    def value(self, row: StandingRow) -> int:
        """The metric's value for one entrant (default: the sum of its aggregate)."""
        return row.sums.get(self.key, 0)

    def sort_key(self, row: StandingRow) -> int:
        v = self.value(row)
        return -v if self.higher_is_better else v


class TotalPoints(Metric):
    key = "total"
    label = _("Punkte")
    order_label = _("Punkten")

    def value(self, row: StandingRow) -> int:
        return row.total


class DeclarerWins(Metric):
    """Games won as declarer."""

    key = "declarer_wins"
    label = _("gew. Spiele")
    order_label = _("gewonnenen Spielen")
    aggregate = Count("id", filter=Q(is_declarer=True, game__won=True))


class BestRound(Metric):
    """The best single round's points."""

    key = "best_round"
    label = _("bester Durchgang")
    order_label = _("bestem Durchgang")

    def value(self, row: StandingRow) -> int:
        return max((p for p in row.round_points if p is not None), default=0)


TOTAL = TotalPoints()
# the tie-breaks, by key (the rule set orders them)
TIE_BREAKS: dict[str, Metric] = {m.key: m for m in (DeclarerWins(), BestRound())}


def tie_break_metrics(keys: Sequence[str]) -> list[Metric]:
    """The tie-breaks named by ``keys``, in that order. An unknown key is an error (the
    engine validates rule sets, so one here is a broken invariant)."""
    unknown = [k for k in keys if k not in TIE_BREAKS]
    if unknown:
        raise ValueError(f"unknown tie-breaks {unknown}; known: {sorted(TIE_BREAKS)}")
    return [TIE_BREAKS[k] for k in keys]


def tie_break_choices() -> list[tuple[str, str | Promise]]:
    """The rule-set form's choices for "Gleichstand entscheiden nach": every order of every
    selection of the registered tie-breaks (``"declarer_wins,best_round"`` …), the longest
    first, and none (a shared place)."""
    choices: list[tuple[str, str | Promise]] = []
    metrics = list(TIE_BREAKS.values())
    for length in range(len(metrics), 0, -1):
        for order in permutations(metrics, length):
            labels = [m.order_label for m in order]
            label = labels[0]
            for then in labels[1:]:
                label = format_lazy(_("{first}, dann {then}"), first=label, then=then)
            choices.append((",".join(m.key for m in order), label))
    choices.append(("", _("nichts (geteilter Platz)")))
    return choices


@dataclass(frozen=True)
class RankingScope:
    """Which round standings are taken after and whether they are final — the one answer the
    desk's page, the PDF and the workbook share, read from the rounds' read model. ``after``:
    the round asked for, or the last round with a counted sheet (``None``: nothing counted
    yet); ``tables``/``confirmed``: the competition's tables up to it and how many of them the
    desk has confirmed; ``seated``: the rounds that have tables; ``played``: the rounds with
    counted results (a round without any shows no points, not zeros). ``interim``: the
    hall's interim ranking ("Zwischenstand zeigen") of the round in play, which counts every
    stored game, confirmed or not; ``games``/``games_planned``: how many games of that round
    are in, of how many."""

    after: int | None
    rounds: int
    tables: int = 0
    confirmed: int = 0
    seated: frozenset[int] = frozenset()
    played: frozenset[int] = frozenset()
    interim: bool = False
    games: int = 0
    games_planned: int = 0

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
        return self.after is not None and (self.interim or not self.complete)

    @property
    def counts_anything(self) -> bool:
        """Some result counts: places mean something (before, everyone would be "1. =")."""
        return self.after is not None

    @property
    def final(self) -> bool:
        return self.complete and self.after == self.rounds

    @property
    def subtitle(self) -> str:
        """ "Vorläufiger Stand nach dem 2. Durchgang", "Endstand nach 3 Durchgängen" …"""
        if self.after is None:
            return gettext("Noch keine bestätigten Ergebnisse")
        if self.interim:
            return gettext("Zwischenstand im %(n)s. Durchgang (vorläufig)") % {"n": self.after}
        if self.provisional:
            return gettext("Vorläufiger Stand nach dem %(n)s. Durchgang") % {"n": self.after}
        if not self.final:
            return gettext("Stand nach dem %(n)s. Durchgang") % {"n": self.after}
        return ngettext(
            "Endstand nach %(n)s Durchgang", "Endstand nach %(n)s Durchgängen", self.rounds
        ) % {"n": self.rounds}

    @property
    def note(self) -> str:
        """How many games of the round are in (the interim ranking), or how many sheets are
        confirmed, while the standings are provisional."""
        if self.interim:
            return self.games_note
        if not self.provisional:
            return ""
        return gettext("%(confirmed)s von %(tables)s Spielzetteln bestätigt") % {
            "confirmed": self.confirmed,
            "tables": self.tables,
        }

    @property
    def games_note(self) -> str:
        """ "84 von 144 Spielen" (the interim ranking's round)."""
        if not self.interim:
            return ""
        return ngettext(
            "%(games)s von %(planned)s Spiel",
            "%(games)s von %(planned)s Spielen",
            self.games_planned,
        ) % {"games": self.games, "planned": self.games_planned}


@dataclass
class Standings:
    competition: Competition
    rounds: list[int]
    rows: list[StandingRow]
    metrics: list[Metric]
    # games of sheets only the table has confirmed so far are counted (provisional)
    from_tables: bool = False
    state: RankingScope | None = None


def counted_statuses(tournament: Tournament) -> tuple[str, ...]:
    """The sheets the standings count: those confirmed at the desk, and where the tournament
    says so those the table confirmed on its phone (provisional until the desk confirms)."""
    if tournament.provisional_table_sheets:
        return (SheetStatus.CONFIRMED, SheetStatus.TABLE)
    return (SheetStatus.CONFIRMED,)


def ranking_scope(
    competition: Competition, after_round: int | None = None, hall: bool = False
) -> RankingScope:
    """The competition's ``RankingScope`` after ``after_round`` (default: the last round with a
    counted sheet), from its rounds' states (``rounds.state.round_states``). ``hall``: what
    the hall sees (public standings, beamer, the players' pages): with "Zwischenstand zeigen"
    and no round asked for, while a round is in play and games of it are stored, the interim
    ranking of that round (every stored game counts); once the round is finished, the
    confirmed ranking again. This is the one place that decides what counts."""
    tournament = competition.tournament
    provisional = SheetStatus.TABLE in counted_statuses(tournament)
    evening = round_states(tournament, competition)
    if hall and after_round is None and tournament.show_interim:
        interim = _interim_scope(competition, evening)
        if interim is not None:
            return interim
    rounds = [r for r in evening if r.tables]

    def counted(r: RoundState) -> int:
        return r.confirmed + (r.table_confirmed if provisional else 0)

    if after_round is None:
        after = max((r.number for r in rounds if counted(r)), default=None)
    else:
        after = max(1, min(after_round, tournament.rounds))
    if after is None:
        return RankingScope(None, tournament.rounds)
    upto = [r for r in rounds if r.number <= after]
    return RankingScope(
        after=after,
        rounds=tournament.rounds,
        tables=sum(r.tables for r in upto),
        confirmed=sum(r.confirmed for r in upto),
        seated=frozenset(r.number for r in upto),
        played=frozenset(r.number for r in upto if counted(r)),
    )


def _interim_scope(competition: Competition, evening: Rounds) -> RankingScope | None:
    """The interim ranking's scope while a round of the competition is in play and some of its
    games are stored (None otherwise: nothing entered yet, or no round in play)."""
    playing = evening.in_play
    if playing is None or not playing.tables:
        return None
    tables = Table.objects.filter(round=playing.round, competition=competition)
    games = Game.objects.filter(sheet__table__in=tables).count()
    if not games:
        return None
    rules = competition.tournament.rules()
    kinds = Counter(tables.values_list("kind", flat=True))
    planned = sum(rules.games_for(kind) * count for kind, count in kinds.items())
    upto = [r for r in evening if r.tables and r.number <= playing.number]
    return RankingScope(
        after=playing.number,
        rounds=competition.tournament.rounds,
        tables=sum(r.tables for r in upto),
        confirmed=sum(r.confirmed for r in upto),
        seated=frozenset(r.number for r in upto),
        played=frozenset(r.number for r in upto if r.confirmed or r.unconfirmed),
        interim=True,
        games=games,
        games_planned=max(planned, games),
    )


def compute_standings(
    competition: Competition, after_round: int | None = None, hall: bool = False
) -> Standings:
    """The ranking after ``after_round`` (default: the last round with counted results; all
    rounds, with no points, before any), with its ``RankingScope``; ``hall``: as the hall sees
    it (the interim ranking while a round is in play, see ``ranking_scope``)."""
    tournament = competition.tournament
    rules = tournament.rules()
    state = ranking_scope(competition, after_round, hall)
    last = state.after or tournament.rounds
    metrics = tie_break_metrics(rules.tie_breaks)
    aggregates = {f"metric_{m.key}": m.aggregate for m in metrics if m.aggregate is not None}
    counted = PartyResult.objects.filter(entrant__competition=competition, round_number__lte=last)
    if not state.interim:
        counted = counted.filter(game__sheet__status__in=counted_statuses(tournament))
    results = list(
        counted.values("entrant_id", "round_number")
        .annotate(
            points=Sum("points"),
            games=Count("id", filter=Q(sits_out=False)),
            from_tables=Count("id", filter=Q(game__sheet__status=SheetStatus.TABLE)),
            **aggregates,
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
            entrant=e,
            round_points=[None] * len(rounds),
            total=0,
            games=0,
            sums={m.key: 0 for m in metrics if m.aggregate is not None},
        )
        for e in entrants
    }
    for item in results:
        row = rows[item["entrant_id"]]
        index = item["round_number"] - 1
        row.round_points[index] = (row.round_points[index] or 0) + (item["points"] or 0)
        row.total += item["points"] or 0
        row.games += item["games"]
        values = cast(Mapping[str, Any], item)  # the metrics' aggregates, by their names
        for name in aggregates:
            row.sums[name.removeprefix("metric_")] += values[name] or 0
    from_tables = any(item["from_tables"] for item in results)
    ranked = rank(list(rows.values()), metrics)
    return Standings(competition, rounds, ranked, metrics, from_tables, state)


def rank(rows: list[StandingRow], metrics: Sequence[Metric]) -> list[StandingRow]:
    """Order by total, then the tie-break metrics; equal on all of them means a shared place;
    unranked entrants ("außer Konkurrenz") follow without a place (``scoring.ranking``)."""
    ordering = [TOTAL, *metrics]
    for row in rows:
        row.metrics = {m.key: m.value(row) for m in ordering}
    entries = [
        ranking.Entry(
            index,
            row.entrant.start_number,
            tuple(row.metrics[m.key] for m in ordering),
            row.entrant.unranked,
        )
        for index, row in enumerate(rows)
    ]
    out = []
    for entry, place in ranking.places(entries, [m.higher_is_better for m in ordering]):
        row = rows[cast(int, entry.key)]
        row.place, row.shared = place.place, place.shared
        out.append(row)
    return out
