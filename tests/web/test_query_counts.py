"""Query counts do not grow with the field: every page takes as many SQL queries for a bigger
tournament as for a small one (lists are loaded in bulk, never row by row), and so do a sheet
save, planning and re-planning."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from binokel_tournament.models import Mode, ScoreSheet, Table, TableKind
from binokel_tournament.services.demo import create_demo, ensure_users
from binokel_tournament.services.evening.registration import (
    create_tournament,
    register_entrant,
    register_entrants,
)
from binokel_tournament.services.evening.seating import (
    generate_seating,
    replan_seating,
)
from binokel_tournament.services.sheets.results import load_table
from binokel_tournament.services.sheets.writer import save_sheet
from tests.support import start_round

from .pages import every_page
from .sheets import full_three_table

pytestmark = pytest.mark.django_db

SMALL = (13, 4)  # one 4-table, two pair tables a round
BIGGER = (52, 20)  # 4-tables again, and more than a page of tables a round


@pytest.fixture
def two_fields():
    small, _ = create_demo(*SMALL, scored_rounds=1, slug="klein")
    bigger, _ = create_demo(*BIGGER, scored_rounds=1, slug="groesser")
    return small, bigger


def queries(client, url: str) -> int:
    """The queries of making the page (not of serving a kept public page)."""
    cache.clear()
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(ctx.captured_queries)


def test_every_page_takes_as_many_queries_for_a_bigger_field(client, two_fields):
    counts = []
    for tournament in two_fields:
        client.force_login(ensure_users())
        per_page = {}
        for audience, url in every_page(tournament):
            if audience == "public":
                client.logout()
            per_page[url.replace(tournament.slug, "<slug>")] = queries(client, url)
            client.force_login(ensure_users())
        counts.append(per_page)
    small, bigger = counts
    assert list(small.values()) == list(bigger.values()), list(
        zip(small.items(), bigger.items(), strict=True)
    )


def test_a_sheet_save_takes_as_many_queries_for_a_bigger_field(two_fields):
    counts = []
    for tournament in two_fields:
        tables = Table.objects.filter(round__tournament=tournament, round__number=2)
        table = tables.filter(kind=TableKind.THREE).order_by("number")[0]
        table = load_table(table.pk)
        with CaptureQueriesContext(connection) as ctx:
            save_sheet(table, full_three_table(), ensure_users(), 0, confirm=True)
        counts.append(len(ctx.captured_queries))
        assert ScoreSheet.objects.get(table=table).status == "confirmed"
    assert counts[0] == counts[1]


def test_planning_and_re_planning_take_as_many_queries_for_a_bigger_field(db):
    counts = []
    for n in (12, 45):
        t = create_tournament(f"Feld {n}", modes=[Mode.SINGLES])
        comp = t.competitions.get()
        register_entrants(comp, [(f"Spieler {i}", "", f"Verein {i % 4}") for i in range(n)])
        with CaptureQueriesContext(connection) as plan:
            generate_seating(comp)
        start_round(t.round_set.get(number=1))
        comp.entrants.filter(start_number=2).update(withdrawn=True)
        register_entrant(comp, "Späte Spielerin", late=True)
        with CaptureQueriesContext(connection) as replan:
            replan_seating(comp)
        counts.append((len(plan.captured_queries), len(replan.captured_queries)))
    assert counts[0] == counts[1]
