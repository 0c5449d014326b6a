"""What each public page shows: one builder per page, read by the live page (``views/public``,
``views/series``, the desk's statistics) and by the static site (``exports/site``), so the two
cannot drift apart. Each returns the template's context; the caller adds only what belongs to
its medium (a sortable table and a round picker live, relative links and titles on the site)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from charity.money import EveningTotal

from .charts import bar_chart
from .models import (
    Competition,
    Entrant,
    PartyResult,
    PersonalLink,
    Seat,
    Series,
    SheetStatus,
    Tournament,
)
from .numbers import percent
from .services.evening import pace, players
from .services.evening.seating import SeatInfo, latest_moves, seat_info
from .services.evening.standings import compute_standings
from .services.money import charity
from .services.money.prizes import prize_table
from .services.money.series import MySeason, my_seasons, season_lines, series_standings
from .services.money.statistics import evening_statistics
from .services.money.subrankings import sub_rankings
from .services.rounds.state import round_states
from .services.server import public_cache

Context = dict[str, Any]  # a template context


def money_total(t: Tournament) -> EveningTotal | None:
    """The evening's takings, or None when the tournament handles no money."""
    return charity.evening(t) if charity.has_money(t) else None


def tournament_page(t: Tournament) -> Context:
    """A tournament's start page: its competitions and, with money, what the evening made."""
    return {"tournament": t, "competitions": t.competitions.all(), "total": money_total(t)}


def standings_page(competition: Competition, after: int | None = None) -> Context:
    """A competition's standings (after round ``after``, or as the hall sees them: the
    interim ranking while a round is in play, see ``standings.ranking_scope``)."""
    return {
        "tournament": competition.tournament,
        "competition": competition,
        "standings": compute_standings(competition, after, hall=True),
    }


def beamer_page(competition: Competition, after: int | None = None) -> Context:
    """The standings for the projector, with the evening's takings and its forecast."""
    context = standings_page(competition, after)
    t = competition.tournament
    standings = context["standings"]
    return {
        **context,
        "rows": standings.rows,
        # the columns of the standings everywhere: place, number, name, club, rounds, total,
        # the tie-breaks (tests/web/test_pages.py compares them with the site and the PDF)
        "column_count": 5 + len(standings.rounds) + len(standings.metrics),
        "total": money_total(t),
        "pace": pace.pace_line(pace.evening_forecast(t)),
    }


def prizes_page(competition: Competition) -> Context:
    """The prize table: who chooses next, what is still there, who took what."""
    return {
        "tournament": competition.tournament,
        "competition": competition,
        "table": prize_table(competition),
    }


def subrankings_page(competition: Competition, after: int | None = None) -> Context:
    """The categories and clubs of a competition."""
    return {
        "tournament": competition.tournament,
        "competition": competition,
        "sub": sub_rankings(competition, after),
    }


def statistics_page(t: Tournament) -> Context:
    """The evening in figures (the statistics page, the beamer between rounds, the site)."""
    ev = evening_statistics(t)
    s = ev.stats
    return {
        "tournament": t,
        "ev": ev,
        "s": s,
        "win_percent": percent(s.win_rate),
        "best_rounds": ev.best_rounds()[:10],
        "meld_chart": bar_chart(s.meld_classes, _("Meldungen nach Höhe")),
        "round_chart": bar_chart(
            [(_("%(n)s. Durchgang") % {"n": n}, p) for n, p in s.points_by_round.items()],
            _("Punkte je Durchgang"),
        ),
    }


def series_page(series: Series) -> Context:
    """A cup's standings for everyone: players without consent are not named."""
    return {
        "series": series,
        "standings": series_standings(series),
        "figures": season_lines(series, public=True),
        "public": True,
    }


# --- a player's own page ---------------------------------------------------------------------
@dataclass(frozen=True)
class MyRound:
    number: int
    seat: SeatInfo | None  # None: not seated in this round (a late arrival)
    games: list[int] = field(default_factory=list)  # my points, game by game, as entered
    counted: bool = False  # the sheet is confirmed (its points are final)
    # the latest re-plan moved me in this round: True, and the table I had before (None: I
    # had none); the page says "Neu: Tisch 14"
    moved: bool = False
    table_before: int | None = None

    @property
    def points(self) -> int | None:
        return sum(self.games) if self.games else None


@dataclass(frozen=True)
class MyStanding:
    """Where a player stands in their competition: the part of their page that changes with
    results anywhere in the hall (served fresh into the kept page, views/cached.py)."""

    total: int
    place: str  # "" while unplaced
    provisional: bool  # the standings count sheets not yet confirmed by the desk
    donation_cents: int | None  # None: the evening collects no donation
    counted: bool = True  # some result counts (before, the page shows no place)
    note: str = ""  # the interim ranking: "84 von 144 Spielen"
    over: bool = False  # the evening is over: the certificate is there


@dataclass(frozen=True)
class PersonalPage:
    link: PersonalLink
    entrant: Entrant
    rounds: list[MyRound]  # the current round first
    standing: MyStanding
    seasons: list[MySeason] = field(default_factory=list)  # the cups this evening counts in

    @property
    def name(self) -> str:
        return self.link.person_name


def personal_page(link: PersonalLink) -> PersonalPage:
    """A player's own page: where they sit in every round and with whom, their games as
    their table entered them, their running total and place, their donation."""
    entrant = link.entrant
    tournament = entrant.tournament
    seats = (
        Seat.objects.filter(entrant=entrant)
        .select_related("table__round", "entrant")
        .prefetch_related("table__seats__entrant")
    )
    where = {}
    for seat in seats:
        companions = tuple(str(s.entrant) for s in seat.table.seats.all() if s.pk != seat.pk)
        where[seat.table.round.number] = seat_info(seat, companions)
    games: dict[int, list[int]] = defaultdict(list)
    statuses: dict[int, str] = {}
    results = (
        PartyResult.objects.filter(entrant=entrant)
        .order_by("round_number", "game__number")
        .values_list("round_number", "points", "game__sheet__status")
    )
    for number, points, status in results:
        games[number].append(points)
        statuses[number] = status
    numbers = sorted(set(where) | set(games) | set(range(1, tournament.rounds + 1)))
    field_ = competition_figures(entrant.competition)
    # the round shown first: the one in play, else the next one, else the last
    current = field_.current if field_.current is not None else min(numbers, default=1)
    moves = latest_moves(entrant.competition)
    rounds = []
    for n in numbers:
        info = where.get(n)
        key = (n, entrant.start_number)
        moved = key in moves and info is not None and info.table_number != moves[key]
        rounds.append(
            MyRound(
                n,
                info,
                games.get(n, []),
                statuses.get(n) == SheetStatus.CONFIRMED,
                moved=moved,
                table_before=moves.get(key),
            )
        )
    rounds.sort(key=lambda r: (r.number != current, r.number))
    return PersonalPage(
        link=link,
        entrant=entrant,
        rounds=rounds,
        standing=field_.standing(entrant.pk),
        seasons=my_seasons(entrant),
    )


@dataclass(frozen=True)
class CompetitionFigures:
    """Every entrant's total, place, whether placed, and donation so far in one competition:
    worked out once per change of its results and shared by all its players' pages (a hall of
    phones asks for hundreds of them after every sheet)."""

    of: dict[int, tuple[int, str, bool, int]]
    provisional: bool
    money: bool
    counted: bool = True  # some result counts (the hall's ranking, see standings.ranking_scope)
    note: str = ""  # the interim ranking's "84 von 144 Spielen"
    over: bool = False  # the evening is over (every round played, every sheet confirmed)
    current: int | None = None  # the round a page shows first (rounds.state.Rounds.current)

    def standing(self, entrant_id: int) -> MyStanding:
        total, place, placed, donation = self.of.get(entrant_id, (0, "", False, 0))
        return MyStanding(
            total=total,
            place=place if self.counted else "",
            provisional=self.provisional,
            donation_cents=donation if self.money else None,
            counted=self.counted,
            note=self.note,
            over=placed and self.over,
        )


FIGURES_SECONDS = 600


def competition_figures(competition: Competition) -> CompetitionFigures:
    tournament = competition.tournament
    slug = tournament.slug
    # the results' generation (and with it every audited change: payments, withdrawals)
    scopes = (
        public_cache.tournament_scope(slug),
        public_cache.competition_scope(slug, competition.mode),
    )
    key = f"binokel:figures:{competition.pk}:{public_cache.generation(*scopes)}"
    return public_cache.kept_or_previous(
        key, lambda: _figures(competition), FIGURES_SECONDS, f"figures:{competition.pk}"
    )


def _figures(competition: Competition) -> CompetitionFigures:
    tournament = competition.tournament
    standings = compute_standings(competition, hall=True)
    state = standings.state
    money = charity.has_money(tournament)
    donations = charity.donations_by_entrant(tournament, competition.mode) if money else {}
    shown = round_states(tournament).current
    return CompetitionFigures(
        {
            row.entrant.pk: (
                row.total,
                row.place_label,
                row.place is not None,
                donations.get(row.entrant.pk, 0),
            )
            for row in standings.rows
        },
        standings.from_tables or (state is not None and state.provisional),
        money,
        counted=state is not None and state.counts_anything,
        note=state.games_note if state is not None else "",
        over=players.evening_over(tournament),
        current=shown.number if shown is not None else None,
    )
