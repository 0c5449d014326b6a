"""The hall sees the evening while it is played (issue 35, item 11): with "Zwischenstand zeigen"
(on by default) the public standings, the beamer and the players' pages rank by the games the
tables have entered, marked "vorläufig" with how many games of the round are in; once the round
is finished they show the confirmed ranking. The desk's standings, PDF and workbook keep
counting confirmed sheets only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from binokel_tournament.models import Mode
from binokel_tournament.services.evening import players
from binokel_tournament.services.evening.simulation import simulate_round
from binokel_tournament.services.evening.standings import compute_standings
from binokel_tournament.services.server import public_cache
from binokel_tournament.services.sheets.writer import save_sheet

from .sheets import full_three_table

pytestmark = pytest.mark.django_db


def first_three_table(t, number: int = 1):
    singles = t.competitions.get(mode=Mode.SINGLES)
    return (
        t.round_set.get(number=number)
        .tables.filter(kind="three", competition=singles)
        .order_by("number")[0]
    )


def planned_games(t, number: int) -> int:
    rules = t.rules()
    singles = t.competitions.get(mode=Mode.SINGLES)
    tables = t.round_set.get(number=number).tables.filter(competition=singles)
    return sum(rules.games_for(table.kind) for table in tables)


def personal_page(client, entrant) -> str:
    link = next(x for x in players.links_of(entrant) if not x.partner)
    return client.get(reverse("public:personal", args=[link.token])).content.decode()


def test_during_a_round_the_hall_ranks_by_the_games_entered(client, seated, orga):
    singles = seated.competitions.get(mode=Mode.SINGLES)
    table = first_three_table(seated)
    first = table.seats.order_by("position")[0].entrant
    save_sheet(table, full_three_table(3), orga, expected_version=0)  # a draft: 3 games
    planned = planned_games(seated, 1)

    hall = compute_standings(singles, hall=True)
    assert hall.state is not None and hall.state.interim and hall.state.provisional
    assert (hall.state.games, hall.state.games_planned) == (3, planned)
    top = hall.rows[0]
    assert top.entrant == first and top.total == 3 * 210 and top.place_label == "1."
    # the desk still counts confirmed sheets only
    assert compute_standings(singles).state.after is None

    note = f"3 von {planned} Spielen eingetragen"
    standings = client.get(reverse("public:standings", args=[seated.slug, Mode.SINGLES]))
    text = standings.content.decode()
    assert "Zwischenstand im 1. Durchgang (vorläufig)" in text and note in text
    beamer = client.get(reverse("public:beamer", args=[seated.slug, Mode.SINGLES]))
    assert "vorläufig" in beamer.content.decode() and note in beamer.content.decode()
    mine = personal_page(client, first)
    assert "Platz 1. · 630 Punkte" in mine and f"3 von {planned} Spielen" in mine


def test_without_the_interim_ranking_nothing_counts_before_a_confirmation(client, seated, orga):
    seated.show_interim = False
    seated.save()
    table = first_three_table(seated)
    first = table.seats.order_by("position")[0].entrant
    save_sheet(table, full_three_table(3), orga, expected_version=0)
    hall = compute_standings(seated.competitions.get(mode=Mode.SINGLES), hall=True)
    assert hall.state is not None and hall.state.after is None and not hall.state.interim
    text = client.get(reverse("public:standings", args=[seated.slug, Mode.SINGLES])).content
    assert "Zwischenstand" not in text.decode()
    assert "Noch keine Wertung" in personal_page(client, first)


def test_a_finished_round_shows_the_confirmed_ranking_and_the_next_round_its_interim(
    client, seated, orga
):
    singles = seated.competitions.get(mode=Mode.SINGLES)
    one = seated.round_set.get(number=1)
    simulate_round(one, orga, seed=3)  # every sheet of round 1 confirmed
    confirmed = compute_standings(singles)
    hall = compute_standings(singles, hall=True)
    assert not hall.state.interim and hall.state.complete
    assert [(r.entrant.pk, r.total) for r in hall.rows] == [
        (r.entrant.pk, r.total) for r in confirmed.rows
    ]
    text = client.get(reverse("public:standings", args=[seated.slug, Mode.SINGLES])).content
    assert "Zwischenstand" not in text.decode()

    table = first_three_table(seated, 2)  # its first game starts round 2
    first = table.seats.order_by("position")[0].entrant
    save_sheet(table, full_three_table(2), orga, expected_version=0)
    hall = compute_standings(singles, hall=True)
    assert hall.state.interim and hall.state.after == 2 and hall.state.games == 2
    before = next(r.total for r in confirmed.rows if r.entrant == first)
    row = next(r for r in hall.rows if r.entrant == first)
    assert row.total == before + 2 * 210 and row.round_points[1] == 2 * 210
    text = client.get(reverse("public:beamer", args=[seated.slug, Mode.SINGLES])).content
    assert f"2 von {planned_games(seated, 2)} Spielen eingetragen" in text.decode()


def test_an_entered_game_renews_the_halls_pages_at_once_or_with_the_next_renewal(
    client, seated, orga, monkeypatch
):
    """After a quiet spell an entered game shows at once; in a flood the pages are renewed at
    most every INTERIM_SECONDS (a confirmation shows at once)."""
    clock = [1_000_000.0]
    monkeypatch.setattr(public_cache, "_now", lambda: clock[0])
    url = reverse("public:standings", args=[seated.slug, Mode.SINGLES])
    table = first_three_table(seated)
    planned = planned_games(seated, 1)
    assert client.get(url)["X-Binokel-Page"] == "made"
    clock[0] += public_cache.INTERIM_SECONDS
    save_sheet(table, full_three_table(1), orga, expected_version=0)
    first = client.get(url)
    assert first["X-Binokel-Page"] == "made"
    assert f"1 von {planned} Spielen" in first.content.decode()
    assert client.get(url)["X-Binokel-Page"] == "kept"
    clock[0] += 1
    save_sheet(table, full_three_table(2), orga, expected_version=1)  # one more game, soon
    assert client.get(url)["X-Binokel-Page"] == "kept"
    clock[0] += public_cache.INTERIM_SECONDS - 1
    due = client.get(url)
    assert due["X-Binokel-Page"] == "made"
    assert f"2 von {planned} Spielen" in due.content.decode()
    clock[0] += 1
    save_sheet(table, full_three_table(), orga, expected_version=2, confirm=True)
    confirmed = client.get(url)
    assert confirmed["X-Binokel-Page"] == "made"
    assert f"12 von {planned} Spielen" in confirmed.content.decode()


def test_the_setting_is_on_the_tournaments_form(desk_client, seated):
    page = desk_client.get(reverse("desk:tournament_edit", args=[seated.slug]))
    assert "Zwischenstand zeigen" in page.content.decode()
