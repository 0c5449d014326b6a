"""What the desk says where a new user would get stuck (issue 36, item 7): a new organiser's
first page says how to start (not to ask the Turnierleitung, which they are); the box for the
Startgeld at registration says where it is set when none is. (A refused restore on the web
page names what to do on the page, not a command: tests/web/test_second_laptop.py.)"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from binokel_tournament.models import Tournament

from .support import organiser_account

pytestmark = pytest.mark.django_db


def test_a_new_organisers_first_page_says_how_to_start(client):
    client.force_login(organiser_account("neu"))
    page = client.get("/desk/").content.decode()
    assert 'id="no-tournament"' in page
    assert "Neues Turnier" in page and "Sicherung ein" in page
    assert "Die Turnierleitung kann Sie" not in page


def test_an_account_that_may_not_create_tournaments_is_told_to_ask_the_turnierleitung(client):
    client.force_login(get_user_model().objects.create_user("helfer", password="pw"))
    page = client.get("/desk/").content.decode()
    assert "Die Turnierleitung kann Sie" in page and "/desk/neu/" not in page


def test_the_paid_box_says_where_the_startgeld_is_set_when_none_is(client, tournament, kasse):
    Tournament.objects.filter(pk=tournament.pk).update(entry_fee_cents=0)
    client.force_login(kasse)
    page = client.get(f"/desk/{tournament.slug}/teilnehmer/singles/").content.decode()
    assert 'id="id_fee_paid"' not in page and 'id="fee-none"' in page
    assert f"/desk/{tournament.slug}/geld/#money-settings" in page
    entrant = tournament.entrants.order_by("start_number").first()
    client.force_login(get_user_model().objects.get(username="orga"))
    edit_url = f"/desk/{tournament.slug}/teilnehmer-bearbeiten/{entrant.pk}/"
    edit = client.get(edit_url).content.decode()
    assert "Kein Startgeld festgelegt" in edit
    Tournament.objects.filter(pk=tournament.pk).update(entry_fee_cents=800)
    page = client.get(f"/desk/{tournament.slug}/teilnehmer/singles/").content.decode()
    assert 'id="id_fee_paid"' in page and 'id="fee-none"' not in page
    edit = client.get(edit_url).content.decode()
    assert "Kein Startgeld festgelegt" not in edit


def test_a_new_organisers_first_links_answer(client):
    client.force_login(organiser_account("neu"))
    page = client.get("/desk/").content.decode()
    for url in ("/desk/neu/", "/desk/cup-serien/", "/desk/spielerregister/"):
        assert url in page
        assert client.get(url).status_code == 200, url
