"""The player register at registration: returning players offered while the desk types a
name (folded: "Mueller" finds "Müller"), the choice links the new entrant; the register page
links every clear name at once and leaves the unclear ones to the desk."""

from __future__ import annotations

import pytest
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.urls import reverse

from binokel_tournament.models import Entrant, Membership, Mode, Player, Role
from binokel_tournament.services.evening.registration import create_tournament, register_entrant
from binokel_tournament.services.money import series as service
from binokel_tournament.services.names import fold

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening():
    t = create_tournament("Frühjahrsbinokel", modes=[Mode.SINGLES, Mode.PAIRS])
    user = get_user_model().objects.create_user("helfer", password="x")
    Membership.objects.create(tournament=t, user=user, role=Role.HELPER)
    return t, user


@pytest.fixture
def register():
    return {
        "mueller": Player.objects.create(name="Anna Müller", club="SV Ulm"),
        "strasser": Player.objects.create(name="Karl Straßer", club=""),
        "maier1": Player.objects.create(name="Hans Maier", club="TSV A"),
        "maier2": Player.objects.create(name="Hans Maier", club="TSV B"),
    }


def test_typing_a_name_offers_the_register_players_of_it(client, evening, register):
    t, user = evening
    client.force_login(user)
    url = reverse("desk:player_suggestions", args=[t.slug])
    page = client.get(url, {"name": "anna mueller"}).content.decode()
    assert f'data-player="{register["mueller"].pk}"' in page and "SV Ulm" in page
    page = client.get(url, {"name": "Maier"}).content.decode()
    assert page.count('class="suggestion"') == 2  # both of that name, the desk chooses
    page = client.get(url, {"for": "partner", "partner": "strasser"}).content.decode()
    assert f'data-player="{register["strasser"].pk}"' in page
    assert 'data-field="partner_player"' in page
    assert "suggestion" not in client.get(url, {"name": "an"}).content.decode()  # too short
    assert "suggestion" not in client.get(url, {"name": "Zeller"}).content.decode()


def test_suggestions_put_the_exact_name_first_and_keep_players_of_one_name_together(register):
    maier = Player.objects.create(name="Maier")
    others = {
        Player.objects.create(name="Anna Maier-Huber"),
        Player.objects.create(name="Hans Maierhofer"),
        register["maier1"],
        register["maier2"],
        Player.objects.create(name="Hans  MAIER", club="TSV C"),  # the same name, folded
    }
    Player.objects.create(name="Hans Meier", club="TSV D")  # another name: not offered
    offered = service.suggestions("maier", limit=10)
    # "Maier" is the name typed: first, though it sorts last; the rest in the register's
    # order (the database's collation), the three Hans Maier next to each other
    assert offered[0] == maier and set(offered[1:]) == others and len(offered) == 6
    places = [i for i, p in enumerate(offered) if fold(p.name) == "hans maier"]
    assert places == list(range(places[0], places[0] + 3))
    assert service.suggestions("maier", limit=2) == offered[:2]
    assert service.suggestions("Anna Müller") == [register["mueller"]]
    assert service.suggestions("Mü") == []  # fewer letters than a search starts from


def test_the_chosen_player_is_linked_to_the_new_entrant(client, evening, register):
    t, user = evening
    client.force_login(user)
    url = reverse("desk:entrants", args=[t.slug, "pairs"])
    reply = client.post(
        url,
        {
            "name": "Anna Müller",
            "partner": "Karl Straßer",
            "player": register["mueller"].pk,
            "partner_player": register["strasser"].pk,
        },
    )
    assert reply.status_code == 302
    entrant = Entrant.objects.get(tournament=t, name="Anna Müller")
    assert (entrant.player, entrant.partner_player) == (register["mueller"], register["strasser"])


def test_a_returning_name_not_chosen_is_pointed_out_and_a_gone_choice_said(
    client, evening, register
):
    t, user = evening
    client.force_login(user)
    url = reverse("desk:entrants", args=[t.slug, "singles"])
    reply = client.post(url, {"name": "Hans Maier"}, follow=True)
    texts = [str(m) for m in messages.get_messages(reply.wsgi_request)]
    assert any("steht schon im Spielerregister" in m for m in texts)
    assert Entrant.objects.get(tournament=t, name="Hans Maier").player is None
    reply = client.post(url, {"name": "Eva Neu", "player": "999999"}, follow=True)
    texts = [str(m) for m in messages.get_messages(reply.wsgi_request)]
    assert any("gelöscht" in m for m in texts)
    assert Entrant.objects.get(tournament=t, name="Eva Neu").player is None


def test_linking_all_takes_only_clear_names(client, evening, register):
    t, user = evening
    singles = t.competitions.get(mode=Mode.SINGLES)
    pairs = t.competitions.get(mode=Mode.PAIRS)
    anna = register_entrant(singles, "anna mueller")  # one player of the name: clear
    maier = register_entrant(singles, "Hans Maier")  # two players of the name: the desk decides
    new = register_entrant(singles, "Eva Neu")  # not in the register
    pair = register_entrant(pairs, "Karl Strasser", "Eva Neu")  # Eva twice among the open ones
    client.force_login(user)
    url = reverse("desk:player_links", args=[t.slug])
    reply = client.post(url, {"action": "link_all"}, follow=True)
    texts = " ".join(str(m) for m in messages.get_messages(reply.wsgi_request))
    assert "2 verknüpft, 0 neu" in texts and "Hans Maier" in texts
    for e in (anna, maier, new, pair):
        e.refresh_from_db()
    assert anna.player == register["mueller"] and pair.player == register["strasser"]
    assert maier.player is None and new.player is None and pair.partner_player is None
    count = Player.objects.count()
    client.post(url, {"action": "create_rest"})
    new.refresh_from_db()
    assert new.player is None  # "Eva Neu" twice in this tournament: never guessed
    assert Player.objects.count() == count
    pair.partner = "Eva Neumann"
    pair.save()
    client.post(url, {"action": "create_rest"})
    new.refresh_from_db()
    pair.refresh_from_db()
    assert new.player.name == "Eva Neu" and pair.partner_player.name == "Eva Neumann"
    assert Player.objects.count() == count + 2


def test_a_player_linked_in_the_tournament_is_not_linked_again(evening, register):
    t, _user = evening
    singles = t.competitions.get(mode=Mode.SINGLES)
    first = register_entrant(singles, "Anna Müller")
    service.link_player(first, register["mueller"], None)
    second = register_entrant(singles, "Anna Mueller")  # a second Anna: another person
    summary = service.link_all(t, None, create_new=True)
    second.refresh_from_db()
    assert second.player is None and summary.ambiguous == ["Anna Mueller"]
