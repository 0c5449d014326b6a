"""Seating through the service: every round planned, hall numbering, locked rounds untouched by
re-planning after withdrawals and late arrivals, "Wo sitze ich?"."""

from __future__ import annotations

from collections import Counter

import pytest

from binokel_tournament.models import AuditLog, Entrant, Mode, Seat, Table, TableKind
from binokel_tournament.services.errors import DeskError
from binokel_tournament.services.registration import register_entrant
from binokel_tournament.services.seating import (
    generate_seating,
    plan_from_db,
    replan_seating,
    set_round_locked,
    where_do_i_sit,
)

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


def test_tables_are_numbered_in_the_hall_einzel_first(seated):
    for round_obj in seated.round_set.all():
        tables = list(round_obj.tables.order_by("number"))
        assert [t.number for t in tables] == list(range(1, len(tables) + 1))
        modes = [t.competition.mode for t in tables]
        assert modes == sorted(modes, key=lambda m: m != Mode.SINGLES)
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
    set_round_locked(seated.round_set.get(number=1), True)
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
    set_round_locked(seated.round_set.get(number=1), True)
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
