"""The pace of the evening from the database (issue 25): the games the phones send and the
sheets the desk types become the engine's clocks; the forecast and its basis appear on the
desk's board, the beamer and the players' own pages; the plan is a setting."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from binokel_tournament.models import Round, Tournament
from binokel_tournament.services.evening import pace, players
from binokel_tournament.services.sheets.writer import save_sheet
from tests.support import start_round

from .phones import GAME, post, three_table
from .sheets import full_three_table

pytestmark = pytest.mark.django_db


def game_body(number: int) -> dict:
    return {"op": f"op-{number}", "number": number, "base": "", "game": GAME}


def test_before_the_first_round_there_is_no_forecast(seated):
    assert pace.evening_forecast(seated) is None
    assert pace.pace_line(None) is None


def test_phone_games_and_typed_sheets_are_the_clocks(client, seated, orga):
    first = seated.round_set.get(number=1)
    start_round(first, orga)
    # the round began 40 minutes ago: games arriving now were played (the engine leaves out
    # tables faster than a minute a game: those were typed in, not timed by their play)
    Round.objects.filter(pk=first.pk).update(started_at=timezone.now() - timedelta(minutes=40))
    phone_table = three_table(seated)
    for number in (1, 2, 3):
        response = post(client, phone_table, "game", game_body(number))
        assert response.status_code == 200, response.content
    paper = first.tables.filter(kind="three").exclude(pk=phone_table.pk).first()
    save_sheet(paper, full_three_table(), orga, expected_version=0, confirm=True)
    clocks = pace.round_clocks(Tournament.objects.get(pk=seated.pk))
    round_one = clocks[0]
    assert round_one.started_at is not None
    by_number = {t.number: t for t in round_one.tables}
    assert len(by_number[phone_table.number].arrived) == 3
    assert by_number[phone_table.number].finished_at is None
    assert by_number[paper.number].finished_at is not None  # the typed sheet is complete
    assert all(c.started_at is None for c in clocks[1:])
    result = pace.evening_forecast(seated)
    assert result is not None and result.round == 1
    assert result.games_seen == 3 + 12
    line = pace.pace_line(result)
    assert line is not None
    assert line.text.startswith("Durchgang 1 endet voraussichtlich ca. ")
    assert "Siegerehrung ca. " in line.text
    assert line.basis.startswith("aus 15 Spielen, ") and line.basis.endswith(" min je Spiel")


def test_the_forecast_is_on_the_board_the_beamer_and_my_page(client, seated, orga):
    seated.pace_minutes = Decimal("3.5")
    seated.public_pages = True
    seated.save()
    start_round(seated.round_set.get(number=1), orga)
    link = players.ensure_links(seated)[0]
    pages = [
        reverse("public:beamer", args=[seated.slug, "singles"]),
        reverse("public:personal", args=[link.token]),
    ]
    for url in pages:
        text = client.get(url).content.decode()
        assert "Durchgang 1 endet voraussichtlich ca." in text, url
        assert "nach Plan, 3,5 min je Spiel" in text, url
    client.force_login(orga)
    board = client.get(reverse("desk:board", args=[seated.slug])).content.decode()
    assert "Durchgang 1 endet voraussichtlich ca." in board
    # the plan is a setting of the tournament, checked like the others
    assert (
        'name="pace_minutes"'
        in client.get(reverse("desk:tournament_edit", args=[seated.slug])).content.decode()
    )


def test_the_board_flags_no_table_before_any_game(client, orga):
    """Behind means behind its own pace: with no game anywhere a round's tables of more games
    (a four-table with a sitting-out dealer, 16 games) are not "hinten" on the board."""
    from binokel_tournament.models import Role
    from binokel_tournament.services.evening.seating import generate_seating

    from .support import make_tournament, member

    seated = make_tournament(singles=10, pairs=0)
    member(seated, orga, Role.ORGANISER)
    generate_seating(seated.competitions.get(mode="singles"))
    start_round(seated.round_set.get(number=1), orga)
    clocks = pace.round_clocks(Tournament.objects.get(pk=seated.pk))
    games = {t.games for t in clocks[0].tables}
    assert len(games) > 1, games  # tables of different lengths (12 and 16 games)
    forecast = pace.evening_forecast(seated)
    assert forecast is not None and forecast.behind == ()
    client.force_login(orga)
    board = client.get(reverse("desk:board", args=[seated.slug])).content.decode()
    assert "Durchgang 1 endet voraussichtlich ca." in board
    assert 'class="behind"' not in board


def _forecast_in(html: str) -> str:
    """The forecast's paragraph of a page (its text and basis)."""
    start = html.index('<p class="pace" id="pace">')
    return html[start : html.index("</p>", start)]


def test_beamer_board_and_my_page_show_the_same_forecast_after_games_entered(
    client, seated, orga, monkeypatch
):
    """Issue 35, item 8: the beamer, kept in the public cache until a sheet is confirmed,
    showed "aus 4 Spielen" while board and personal page showed "aus 12 Spielen". The forecast
    follows the games the tables enter (drafts, not confirmed) and the time: once the kept
    forecast is renewed (at most 20 s), every page shows the new one, kept pages too."""
    seated.public_pages = True
    seated.show_interim = False  # the pages keep the confirmed ranking: only the forecast moves
    seated.save()
    first = seated.round_set.get(number=1)
    start_round(first, orga)
    Round.objects.filter(pk=first.pk).update(started_at=timezone.now() - timedelta(minutes=40))
    link = players.ensure_links(seated)[0]
    beamer = reverse("public:beamer", args=[seated.slug, "singles"])
    mine = reverse("public:personal", args=[link.token])
    for url in (beamer, mine):  # both kept in the public cache with the plan's forecast
        assert "nach Plan" in _forecast_in(client.get(url).content.decode())
        assert client.get(url)["X-Binokel-Page"] == "kept"
    phone_table = three_table(seated)
    for number in (1, 2, 3):  # entered on the table's phone, not confirmed
        assert post(client, phone_table, "game", game_body(number)).status_code == 200
    later = timezone.now() + timedelta(seconds=pace.KEEP_SECONDS + 1)
    monkeypatch.setattr(pace, "_now", lambda: later)
    shown = {}
    for url in (beamer, mine):
        response = client.get(url)
        shown[url] = _forecast_in(response.content.decode())
        if url == beamer:  # still the page kept before the games: only its forecast is new
            assert response["X-Binokel-Page"] == "kept"
    client.force_login(orga)
    shown["board"] = _forecast_in(
        client.get(reverse("desk:board", args=[seated.slug])).content.decode()
    )
    assert len(set(shown.values())) == 1, shown
    assert "aus 3 Spielen" in shown["board"]
    # ... and the same forecast stays while it is younger than 20 s: made once, shown to all
    assert _forecast_in(client.get(beamer).content.decode()) == shown["board"]


def test_a_phone_asking_with_its_etag_gets_the_new_forecast_not_a_304(
    client, seated, orga, monkeypatch
):
    """A kept page answers 304 to a phone that has it, but only while what it shows is the
    same: the forecast, put in when the page is served, is part of its ETag."""
    seated.public_pages = True
    seated.show_interim = False  # the pages keep the confirmed ranking: only the forecast moves
    seated.save()
    first = seated.round_set.get(number=1)
    start_round(first, orga)
    Round.objects.filter(pk=first.pk).update(started_at=timezone.now() - timedelta(minutes=40))
    beamer = reverse("public:beamer", args=[seated.slug, "singles"])
    had = client.get(beamer)
    etag = had["ETag"]
    assert client.get(beamer, HTTP_IF_NONE_MATCH=etag).status_code == 304  # nothing new
    phone_table = three_table(seated)
    for number in (1, 2, 3):  # entered on the table's phone, not confirmed
        assert post(client, phone_table, "game", game_body(number)).status_code == 200
    later = timezone.now() + timedelta(seconds=pace.KEEP_SECONDS + 1)
    monkeypatch.setattr(pace, "_now", lambda: later)
    again = client.get(beamer, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200 and again["ETag"] != etag
    assert "aus 3 Spielen" in _forecast_in(again.content.decode())
    assert client.get(beamer, HTTP_IF_NONE_MATCH=again["ETag"]).status_code == 304
