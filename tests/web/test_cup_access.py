"""Who sees the cups and the player register at the desk (issue 36 item 18): they hold the names
of players who did not want to be named in public, so a cup is for the organisers of its Verein
and of its evenings, the register for the Verein's organisers; desk helpers and other accounts
get a 404, whichever page they try."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from binokel_tournament.models import Mode, Player, Role, Series
from binokel_tournament.services import access

from .support import make_tournament, member, organiser_account

pytestmark = pytest.mark.django_db


@pytest.fixture
def cups(db):
    """One Verein (a laptop): "orga" runs it (may create its tournaments); "abend" organises
    the autumn evening only, "kasse" helps at it; "gast" is a member of the winter evening,
    which is in no cup. The autumn cup counts the autumn evening; the spring cup none of theirs.
    The register holds a player who did not consent to be named."""
    users = get_user_model().objects
    orga = organiser_account("orga")
    abend, kasse, gast = (users.create_user(n, password="pw") for n in ("abend", "kasse", "gast"))
    herbst = make_tournament(singles=3, pairs=0, modes=[Mode.SINGLES])
    winter = make_tournament(singles=3, pairs=0, modes=[Mode.SINGLES])
    member(herbst, orga, Role.ORGANISER)
    member(herbst, abend, Role.ORGANISER)
    member(herbst, kasse, Role.HELPER)
    member(winter, gast, Role.ORGANISER)
    autumn = Series.objects.create(verein=herbst.verein, slug="herbstcup", name="Herbstcup")
    autumn.tournaments.add(herbst)
    spring = Series.objects.create(verein=herbst.verein, slug="fruehjahrscup", name="Frühjahrscup")
    Player.objects.create(verein=herbst.verein, name="Verena Verborgen", consent=False)
    return {
        "orga": orga,
        "abend": abend,
        "kasse": kasse,
        "gast": gast,
        "autumn": autumn,
        "spring": spring,
    }


def get(user, url):
    client = Client()
    client.force_login(user)
    return client.get(url)


def detail(series):
    return reverse("desk:series_detail", args=[series.slug])


LIST, REGISTER = reverse("desk:series_list"), reverse("desk:players")


def test_the_vereins_organiser_sees_every_cup_and_the_register(cups):
    page = get(cups["orga"], LIST).content.decode()
    assert "Herbstcup" in page and "Frühjahrscup" in page
    assert get(cups["orga"], detail(cups["autumn"])).status_code == 200
    assert get(cups["orga"], detail(cups["spring"])).status_code == 200
    assert "Verena Verborgen" in get(cups["orga"], REGISTER).content.decode()


def test_an_evenings_organiser_sees_the_cups_of_that_evening_only(cups):
    abend = cups["abend"]
    response = get(abend, LIST)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Herbstcup" in page and "Frühjahrscup" not in page
    assert get(abend, detail(cups["autumn"])).status_code == 200
    assert get(abend, detail(cups["spring"])).status_code == 404
    assert get(abend, REGISTER).status_code == 404
    home = get(abend, reverse("desk:home") + "?alle=1").content.decode()
    assert LIST in home  # the way to the cup of their evening
    # seeing is not keeping: the cup's settings stay the Verein's organisers'
    client = Client()
    client.force_login(abend)
    refused = client.post(detail(cups["autumn"]), {"action": "split", "player": "1"})
    assert refused.status_code == 403


@pytest.mark.parametrize("who", ["kasse", "gast"])
def test_helpers_and_other_accounts_see_no_cup_and_no_register(cups, who):
    user = cups[who]
    for url in (LIST, detail(cups["autumn"]), detail(cups["spring"]), REGISTER):
        response = get(user, url)
        assert response.status_code == 404, (who, url, response.status_code)
        assert "Verena Verborgen" not in response.content.decode()
    client = Client()
    client.force_login(user)
    assert client.post(LIST, {"name": "Eigener Cup"}).status_code == 404
    assert not Series.objects.filter(name="Eigener Cup").exists()


def test_the_rule_is_the_access_services(cups):
    verein = cups["autumn"].verein
    visible = {
        who: set(access.series_visible_to(cups[who], verein).values_list("slug", flat=True))
        for who in ("orga", "abend", "kasse", "gast")
    }
    assert visible == {
        "orga": {"herbstcup", "fruehjahrscup"},
        "abend": {"herbstcup"},
        "kasse": set(),
        "gast": set(),
    }
    assert access.may_run_register(cups["orga"], verein)
    assert not any(access.may_run_register(cups[w], verein) for w in ("abend", "kasse", "gast"))
    assert access.can_see_series(None, cups["spring"])  # the system sees everything
