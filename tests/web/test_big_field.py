"""A field of 999 Einzel entrants and 150 pairs: every page renders (on SQLite a prefetch of
every entrant once crashed the seating page: "Expression tree is too large"), long pages show
one round and one range of tables at a time, a sheet saves. The field is built once for the
module (rounds seated by the pairing engine, round 1 scored from dealt hands through the
desk's sheet service) and rolled back at the end."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from binokel_tournament.models import ScoreSheet, SheetStatus, Table
from binokel_tournament.services.demo import create_demo, ensure_users
from binokel_tournament.services.evening.hall import TABLES_PER_PAGE
from tests.support import rolled_back

from .pages import every_page
from .sheets import full_three_table

# slow: a big field (make check leaves it out)
pytestmark = pytest.mark.slow

SINGLES, PAIRS = 999, 150


@pytest.fixture(scope="module")
def big(django_db_setup, django_db_blocker):
    with rolled_back(django_db_blocker):
        yield create_demo(SINGLES, PAIRS, scored_rounds=1, slug="gross")[0]


@pytest.fixture
def desk(client, big, db):
    client.force_login(ensure_users())
    return client


def test_the_field_is_seated_and_scored(big):
    assert big.entrants.count() == SINGLES + PAIRS
    tables = Table.objects.filter(round__tournament=big, round__number=1)
    assert tables.count() == SINGLES // 3 + PAIRS // 2
    confirmed = ScoreSheet.objects.filter(table__round__tournament=big, status="confirmed")
    assert confirmed.count() == tables.count()


def test_every_page_renders(desk, client, big):
    for audience, url in every_page(big):
        if audience == "public":
            client.logout()
        else:
            client.force_login(ensure_users())
        response = client.get(url)
        assert response.status_code == 200, url


def test_the_seating_page_shows_one_range_of_tables_with_links_to_the_others(desk, big):
    url = reverse("desk:seating", args=[big.slug])
    page = desk.get(url, {"round": "2"}).content.decode()
    shown = re.findall(r'id="tisch-(\d+)"', page)
    assert shown == [str(n) for n in range(1, TABLES_PER_PAGE + 1)]
    tables = SINGLES // 3 + PAIRS // 2
    last = f"?round=2&amp;page={-(-tables // TABLES_PER_PAGE)}"
    assert last in page and f"–{tables}</a>" in page
    page = desk.get(url, {"round": "2", "page": "3"}).content.decode()
    first = 2 * TABLES_PER_PAGE + 1
    assert re.findall(r'id="tisch-(\d+)"', page)[0] == str(first)


def test_a_search_finds_the_table_of_a_start_number(desk, big):
    entrant = big.entrants.get(start_number=777)
    table = Table.objects.get(round__tournament=big, round__number=3, seats__entrant=entrant)
    page = desk.get(
        reverse("desk:seating", args=[big.slug]), {"round": "3", "q": "777"}
    ).content.decode()
    assert f'id="tisch-{table.number}"' in page and entrant.name in page


def test_the_results_page_opens_on_the_round_in_play_and_saves_a_sheet(desk, big):
    url = reverse("desk:overview", args=[big.slug])
    page = desk.get(url).content.decode()
    assert 'href="?round=2" class="active"' in page  # round 1 is all confirmed
    table = Table.objects.get(round__tournament=big, round__number=2, number=1)
    sheet_url = reverse("desk:sheet", args=[big.slug, table.pk])
    response = desk.post(sheet_url, {**full_three_table(), "version": "0", "confirm": "1"})
    assert response.status_code == 302
    assert ScoreSheet.objects.get(table=table).status == SheetStatus.CONFIRMED
    assert "1 bestätigt" in desk.get(url, {"round": "2"}).content.decode()


def test_the_entrant_list_links_to_each_entrant(desk, big):
    entrant = big.entrants.get(start_number=500)
    page = desk.get(reverse("desk:entrants", args=[big.slug, "singles"])).content.decode()
    edit = reverse("desk:entrant_edit", args=[big.slug, entrant.pk])
    assert f'href="{edit}"' in page
    assert desk.get(edit).status_code == 200
