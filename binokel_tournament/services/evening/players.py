"""The players' own side of the evening: a personal link per person (each partner of a pair
has one of their own) and what their page shows — where they sit in every round and with whom,
their games as their table entered them, their running total and place, their donation.

A link is unguessable (128 random bits) and revocable; its short code is for typing at the
door. The page needs no login and shows only what the public pages show, plus this person's own
games."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from ...models import (
    Competition,
    Entrant,
    PartyResult,
    PersonalLink,
    Seat,
    SheetStatus,
    Tournament,
)
from ..access import Action, Actor, require
from ..audit import log_action
from ..money import charity
from ..rounds.state import round_states
from ..server import public_cache
from .seating import SeatInfo, latest_moves, seat_info
from .standings import compute_standings


def people(entrant: Entrant) -> list[bool]:
    """The people of an entrant, as the ``partner`` flag of their links."""
    return [False, True] if entrant.partner else [False]


def ensure_links(tournament: Tournament) -> list[PersonalLink]:
    """Every person of the tournament with an open link (made where missing), by start number,
    the pair's first name first."""
    return _ensure(
        list(tournament.entrants.order_by("start_number")),
        PersonalLink.objects.filter(entrant__tournament=tournament, revoked_at=None),
    )


def links_of(entrant: Entrant) -> list[PersonalLink]:
    """The open links of one entrant's people (made where missing), the first name first."""
    return links_for([entrant])


def links_for(entrants: list[Entrant]) -> list[PersonalLink]:
    """The open links of these entrants' people (made where missing), in their order."""
    return _ensure(
        entrants, PersonalLink.objects.filter(entrant__in=[e.pk for e in entrants], revoked_at=None)
    )


def _ensure(entrants: list[Entrant], existing: QuerySet[PersonalLink]) -> list[PersonalLink]:
    open_links: dict[tuple[int, bool], PersonalLink] = {}
    for _attempt in range(5):
        # a link made meanwhile by another request, or a code or token taken: read, again
        open_links = {(link.entrant_id, link.partner): link for link in existing.all()}
        missing = [
            PersonalLink(entrant=e, partner=partner)
            for e in entrants
            for partner in people(e)
            if (e.pk, partner) not in open_links
        ]
        if not missing:
            break
        try:
            with transaction.atomic():
                for link in PersonalLink.objects.bulk_create(missing):
                    open_links[(link.entrant_id, link.partner)] = link
            break
        except IntegrityError:
            continue
    by_pk = {e.pk: e for e in entrants}
    out = []
    for e in entrants:
        for partner in people(e):
            found = open_links.get((e.pk, partner))
            if found is not None:
                found.entrant = by_pk[e.pk]
                out.append(found)
    return out


def revoke(link: PersonalLink, user: Actor) -> PersonalLink:
    """The old link shows nothing any more; the person gets a new one (audited)."""
    tournament = link.entrant.tournament
    require(user, tournament, Action.EDIT_ENTRANTS)
    with transaction.atomic():
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
        new = PersonalLink.objects.create(entrant=link.entrant, partner=link.partner)
        log_action(
            tournament, user, "personal_link.revoke", link.entrant, None, {"partner": link.partner}
        )
    return new


def open_link(token: str) -> PersonalLink | None:
    """The link of this token, unless it was revoked (or never existed)."""
    return (
        PersonalLink.objects.filter(token=token, revoked_at=None)
        .select_related("entrant__tournament", "entrant__competition")
        .first()
    )


def evening_over(tournament: Tournament) -> bool:
    """Every round has been played and every sheet confirmed: the places are final."""
    evening = round_states(tournament)
    return len(evening) >= tournament.rounds and evening.over


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
class PersonalPage:
    link: PersonalLink
    entrant: Entrant
    rounds: list[MyRound]  # the current round first
    total: int
    place: str  # "" while unplaced
    provisional: bool  # the standings count sheets not yet confirmed by the desk
    donation_cents: int | None  # None: the evening collects no donation
    over: bool = False  # the evening is over: the certificate is there

    @property
    def name(self) -> str:
        return self.link.person_name


def personal_page(link: PersonalLink) -> PersonalPage:
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
    # the round shown first: the one in play, else the next one, else the last
    shown = round_states(tournament).current
    current = shown.number if shown is not None else min(numbers, default=1)
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
    field_ = competition_figures(entrant.competition)
    total, place, placed, donation = field_.of.get(entrant.pk, (0, "", False, 0))
    return PersonalPage(
        link=link,
        entrant=entrant,
        rounds=rounds,
        total=total,
        place=place,
        provisional=field_.provisional,
        donation_cents=donation if field_.money else None,
        over=placed and evening_over(tournament),
    )


@dataclass(frozen=True)
class CompetitionFigures:
    """Every entrant's total, place, whether placed, and donation so far in one competition:
    worked out once per change of its results and shared by all its players' pages (a hall of
    phones asks for hundreds of them after every sheet)."""

    of: dict[int, tuple[int, str, bool, int]]
    provisional: bool
    money: bool


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
    return public_cache.kept_or_made(key, lambda: _figures(competition), FIGURES_SECONDS)


def _figures(competition: Competition) -> CompetitionFigures:
    tournament = competition.tournament
    standings = compute_standings(competition)
    money = charity.has_money(tournament)
    donations = charity.donations_by_entrant(tournament, competition.mode) if money else {}
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
        standings.from_tables or (standings.state is not None and standings.state.provisional),
        money,
    )
