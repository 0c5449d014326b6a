"""Seating through the service: every round planned, hall numbering, locked rounds untouched by
re-planning after withdrawals and late arrivals, "Wo sitze ich?"."""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from binokel_tournament.models import AuditLog, Entrant, Mode, Seat, Table, TableKind
from binokel_tournament.services.errors import DeskError
from binokel_tournament.services.evening.registration import register_entrant
from binokel_tournament.services.evening.seating import (
    generate_seating,
    plan_from_db,
    replan_seating,
    where_do_i_sit,
)
from tests.support import start_round

pytestmark = pytest.mark.django_db


def seats_of_round(tournament, number, competition=None):
    seats = Seat.objects.filter(table__round__tournament=tournament, table__round__number=number)
    if competition is not None:
        seats = seats.filter(table__competition=competition)
    return seats


def test_every_entrant_sits_once_in_every_round(seated):
    for number in (1, 2, 3):
        counts = Counter(seats_of_round(seated, number).values_list("entrant_id", flat=True))
        assert set(counts.values()) == {1}
        assert len(counts) == seated.entrants.count()


def test_tables_are_numbered_in_the_hall_in_the_order_planned(tournament):
    """The competition planned first takes tables 1..k, the next one follows; planning one
    never renumbers the other's tables (their plans may be printed already)."""
    pairs = tournament.competitions.get(mode=Mode.PAIRS)
    singles = tournament.competitions.get(mode=Mode.SINGLES)
    generate_seating(pairs)
    pair_numbers = sorted(Table.objects.filter(competition=pairs).values_list("round", "number"))
    generate_seating(singles)
    assert sorted(Table.objects.filter(competition=pairs).values_list("round", "number")) == (
        pair_numbers
    )
    for round_obj in tournament.round_set.all():
        tables = list(round_obj.tables.order_by("number"))
        assert [t.number for t in tables] == list(range(1, len(tables) + 1))
        modes = [t.competition.mode for t in tables]
        assert modes == sorted(modes, key=lambda m: m != Mode.PAIRS)  # planned first
        assert {t.kind for t in tables if t.competition.mode == Mode.PAIRS} == {TableKind.PAIRS}


def test_nobody_meets_an_opponent_twice_with_nine_entrants(seated):
    comp = seated.competitions.get(mode=Mode.SINGLES)
    met = Counter()
    for table in Table.objects.filter(competition=comp).prefetch_related("seats"):
        ids = sorted(s.entrant_id for s in table.seats.all())
        met.update((a, b) for i, a in enumerate(ids) for b in ids[i + 1 :])
    assert max(met.values()) == 1


def test_replanning_keeps_started_rounds_and_seats_a_late_arrival(seated):
    comp = seated.competitions.get(mode=Mode.SINGLES)
    start_round(seated.round_set.get(number=1))
    before_round1 = sorted(
        seats_of_round(seated, 1, comp).values_list("table__number", "position", "entrant_id")
    )
    gone = Entrant.objects.get(name="Spieler 2")
    gone.withdrawn = True
    gone.save()
    late = register_entrant(comp, "Späte Spielerin", late=True)
    summary = replan_seating(comp)
    assert (
        sorted(
            seats_of_round(seated, 1, comp).values_list("table__number", "position", "entrant_id")
        )
        == before_round1
    )
    for number in (2, 3):
        ids = set(seats_of_round(seated, number, comp).values_list("entrant_id", flat=True))
        assert late.pk in ids and gone.pk not in ids
    assert summary.quality.changes is not None
    assert AuditLog.objects.filter(action="seating.replan").exists()


def test_a_fresh_plan_is_refused_once_a_round_has_started(seated):
    comp = seated.competitions.get(mode=Mode.SINGLES)
    start_round(seated.round_set.get(number=1))
    with pytest.raises(DeskError, match="Neu planen"):
        generate_seating(comp, seed=5)


def test_the_plan_read_back_from_the_database_is_the_engines_plan(tournament):
    comp = tournament.competitions.get(mode=Mode.SINGLES)
    summary = generate_seating(comp, seed=7)
    assert plan_from_db(comp) == summary.plan
    assert summary.quality.repeats.value == 0


def test_where_do_i_sit_by_name_and_number(seated):
    entrant = Entrant.objects.get(name="Paar 2 A")
    for query in ("paar 2 b", str(entrant.start_number)):
        found = where_do_i_sit(seated, query)
        assert [e for e, _seats in found] == [entrant]
        assert [s.round_number for s in found[0][1]] == [1, 2, 3]
    assert where_do_i_sit(seated, "niemand") == []


def all_places(tournament, competition):
    """(round, start number) -> (table, seat), read straight from the seats."""
    return {
        (r, n): (table, seat)
        for r, n, table, seat in Seat.objects.filter(
            table__round__tournament=tournament, table__competition=competition
        ).values_list("table__round__number", "entrant__start_number", "table__number", "position")
    }


def test_a_replan_of_the_singles_renumbers_no_pair_table_and_lists_who_moves(desk_client, db):
    """Issue 23's evening in small: singles and pairs planned, round 1 started, one single
    withdraws and three arrive; the singles are re-planned. Every pair keeps its table and
    seat; the change list names exactly the singles whose table or seat changed; tables of
    the singles keep their numbers where the same people sit there."""
    from binokel_tournament.models import Membership, Role

    from .support import make_tournament

    t = make_tournament(singles=15, pairs=8, rounds=3)
    Membership.objects.create(
        tournament=t, user=get_user_model().objects.get(username="orga"), role=Role.ORGANISER
    )
    singles, pairs = t.competitions.get(mode=Mode.SINGLES), t.competitions.get(mode=Mode.PAIRS)
    generate_seating(singles)
    generate_seating(pairs)
    start_round(t.round_set.get(number=1))
    pairs_before = all_places(t, pairs)
    singles_before = all_places(t, singles)
    pair_tables = sorted({table for (_r, _n), (table, _s) in pairs_before.items()})
    Entrant.objects.filter(competition=singles, name="Spieler 4").update(withdrawn=True)
    for name in ("Nachzügler A", "Nachzügler B", "Nachzügler C"):
        register_entrant(singles, name, late=True)
    # round 2's table cards were printed before the re-plan
    cards = desk_client.get(reverse("desk:export", args=[t.slug, "tablecards"]) + "?round=2")
    assert cards.status_code == 200
    assert AuditLog.objects.filter(action="print", after__round=2).exists()
    response = desk_client.post(
        reverse("desk:seating", args=[t.slug]),
        {"competition": singles.pk, "action": "replan", "seed": "0"},
    )
    assert response.status_code == 302
    assert all_places(t, pairs) == pairs_before  # not one pair table renumbered
    singles_after = all_places(t, singles)
    moved = {
        key
        for key in set(singles_before) | set(singles_after)
        if key[0] > 1 and singles_before.get(key) != singles_after.get(key)
    }
    page = desk_client.get(reverse("desk:seating", args=[t.slug])).content.decode()
    section = page.split('id="replan-changes"')[1].split("</section>")[0]
    listed = {
        (int(row.split('data-round="')[1].split('"')[0]), int(row.split('"')[0]))
        for row in section.split('data-start="')[1:]
    }
    assert listed == moved and moved
    for r in (2, 3):  # the singles never take a number of a pair table
        numbers = {table for (rr, _n), (table, _s) in singles_after.items() if rr == r}
        assert not numbers & set(pair_tables)
    assert "zuletzt gedruckt um" in section  # the printout this re-plan outdated
    # the reprint holds exactly the tables of round 2 (the printed one) that someone left or
    # joined, one card each; round 3 was never printed: nothing to print again there
    from tests.exports.reading import pdf_pages

    listing = page.split('id="reprints"')[1].split("</section>")[0]
    assert "neu drucken" in listing
    link = listing.split('class="reprint" data-kind="tablecards" href="')[1].split('"')[0]
    link = link.replace("&amp;", "&")
    round_number = int(link.split("round=")[1].split("&")[0])
    assert round_number == 2 and listing.count('class="reprint-row"') == 1
    tables = sorted(int(n) for n in link.split("tische=")[1].split(","))
    table_moves = {
        key
        for key in moved
        if key[0] == 2
        and (singles_before.get(key) or (0,))[0] != (singles_after.get(key) or (0,))[0]
    }
    expected = sorted(
        {p[0] for key, p in singles_before.items() if key in table_moves}
        | {p[0] for key, p in singles_after.items() if key in table_moves}
    )
    assert tables == expected
    pages = pdf_pages(desk_client.get(link).content)
    assert len(pages) == len(tables)
    for page, number in zip(pages, tables, strict=True):
        assert f"Tisch {number}" in page
    # shown once: the next look at the page no longer lists it
    again = desk_client.get(reverse("desk:seating", args=[t.slug])).content.decode()
    assert 'id="replan-changes"' not in again
