"""The door as a real evening's players trip over it (issue 35): only a personal link checks
in at once, a number or a name shows the person with a one-key "Angekommen"; a pair's two
people arrive each on their own; a lost slip's link is replaced at the door, on the entrant's
page or by command; after "Nicht erschienen" the free places go to the waiting list."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.urls import reverse

from binokel_tournament.models import Entrant, Mode, PersonalLink
from binokel_tournament.services.evening import checkin, players, signup
from binokel_tournament.services.evening.registration import register_entrant

pytestmark = pytest.mark.django_db

BASE = "http://192.168.1.20:8000"


def door(client, tournament, **data):
    return client.post(reverse("desk:checkin", args=[tournament.slug]), data, HTTP_HX_REQUEST="1")


def arrived(entrant: Entrant) -> tuple[bool, bool]:
    entrant.refresh_from_db()
    return entrant.checked_in_at is not None, entrant.partner_checked_in_at is not None


# --- 2. a lookup is no check-in ------------------------------------------------------------


def test_a_start_number_a_name_or_a_wrong_code_only_shows_the_person(client, tournament, kasse):
    singles = tournament.competitions.get(mode=Mode.SINGLES)
    wagner = register_entrant(singles, "Hans Wagner")
    mueller = register_entrant(singles, "Erna Mueller")
    players.ensure_links(tournament)
    client.force_login(kasse)
    thirteen = tournament.entrants.get(start_number=13)
    for query, entrant in (("13", thirteen), ("Mueller", mueller), ("wagner", wagner)):
        # "wagner" is six letters of the short codes' alphabet: no code, so a name
        text = door(client, tournament, q=query).content.decode()
        assert f'data-start="{entrant.start_number}"' in text, query
        assert arrived(entrant) == (False, False), query
        assert 'data-key="Enter"' in text and 'name="arrive"' in text  # the one key
    assert not tournament.audit_log.filter(action="entrant.check_in").exists()
    # the one key: Enter on the empty field presses "Angekommen"
    text = door(client, tournament, entrant=str(wagner.pk), arrive="all").content.decode()
    assert "Angekommen." in text and arrived(wagner)[0]
    assert 'data-key="Enter"' not in text  # a second Enter does nothing
    # a personal link's code checks in at once
    code = PersonalLink.objects.get(entrant=mueller, revoked_at=None).code
    assert "Angekommen." in door(client, tournament, q=code).content.decode()
    assert arrived(mueller)[0]


def test_choosing_among_candidates_shows_the_person_without_checking_in(client, tournament, kasse):
    client.force_login(kasse)
    text = door(client, tournament, q="Spieler").content.decode()
    assert 'id="door-candidates"' in text
    first = tournament.entrants.get(start_number=1)
    shown = door(client, tournament, entrant=str(first.pk)).content.decode()
    assert 'data-start="1"' in shown and arrived(first) == (False, False)


# --- 3. a pair's two people ----------------------------------------------------------------


def test_a_pair_arrives_one_by_one_and_is_complete_when_both_are_here(client, tournament, kasse):
    pair = tournament.entrants.get(start_number=13)  # "Paar 4 A" and "Paar 4 B"
    first, second = players.links_of(pair)
    client.force_login(kasse)
    before = checkin.door_count(tournament)
    text = door(client, tournament, q=f"{BASE}/p/{second.token}/").content.decode()
    assert arrived(pair) == (False, True)  # only the one scanned
    assert "Paar 4 B ist angekommen. Paar 4 A fehlt noch." in text
    assert "Paar 4 A angekommen" in text  # the second partner follows with one key
    count = checkin.door_count(tournament)
    assert (count.present, count.half) == (before.present, 1)
    text = door(client, tournament, q=first.code).content.decode()
    assert arrived(pair) == (True, True)
    assert "Paar 4 A ist angekommen. Das Paar ist vollständig." in text
    count = checkin.door_count(tournament)
    assert (count.present, count.half) == (before.present + 1, 0)
    again = door(client, tournament, q=second.code).content.decode()
    assert "Paar 4 B war schon als angekommen markiert." in again


def test_a_pair_found_by_number_arrives_together_or_one_of_them(client, tournament, kasse):
    pair = tournament.entrants.get(start_number=12)
    client.force_login(kasse)
    text = door(client, tournament, q="12").content.decode()
    assert "Beide angekommen" in text and "nur Paar 3 B" in text
    door(client, tournament, entrant=str(pair.pk), arrive="1")
    assert arrived(pair) == (False, True)
    # by name: the person typed is the one the key marks
    other = tournament.entrants.get(start_number=11)
    text = door(client, tournament, q="Paar 2 B").content.decode()
    assert "Paar 2 B angekommen" in text and arrived(other) == (False, False)


def test_nicht_erschienen_leaves_a_half_arrived_pair_to_the_desk(client, tournament, orga):
    half = tournament.entrants.get(start_number=13)
    checkin.check_in(half, orga, partner=True)
    here = tournament.entrants.get(start_number=1)
    checkin.check_in(here, orga)
    client.force_login(orga)
    url = reverse("desk:no_show", args=[tournament.slug])
    page = client.post(url).content.decode()
    half_list = page[page.index('id="half-pairs"') :]
    assert half_list[: half_list.index("</ul>")].count("<li>") == 1
    assert f"<li>13 {half.display_name}</li>" in half_list
    missing_list = page[page.index('id="no-shows"') :]
    assert f"13 {half.display_name}" not in missing_list[: missing_list.index("</ul>")]
    withdrawn = checkin.withdraw_no_shows(tournament, orga)
    assert half not in withdrawn and here not in withdrawn
    assert len(withdrawn) == tournament.entrants.count() - 2


@pytest.mark.django_db(transaction=True)
def test_a_pair_marked_before_the_migration_stays_complete():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor
    from django.utils import timezone

    before = ("binokel_tournament", "0020_the_one_verein_by_default")
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes("binokel_tournament")
    executor.migrate([before])
    old = executor.loader.project_state([before]).apps
    Verein = old.get_model("binokel_tournament", "Verein")
    OldTournament = old.get_model("binokel_tournament", "Tournament")
    OldCompetition = old.get_model("binokel_tournament", "Competition")
    OldEntrant = old.get_model("binokel_tournament", "Entrant")
    t = OldTournament.objects.create(
        name="Alt", slug="alt", verein=Verein.objects.create(name="V", slug="v")
    )
    c = OldCompetition.objects.create(tournament=t, mode="pairs")
    at = timezone.now()
    OldEntrant.objects.create(
        tournament=t, competition=c, start_number=1, name="A", partner="B", checked_in_at=at
    )
    OldEntrant.objects.create(tournament=t, competition=c, start_number=2, name="C", partner="D")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(latest)
    marked, unmarked = Entrant.objects.filter(tournament__slug="alt").order_by("start_number")
    assert checkin.complete(marked) and marked.partner_checked_in_at == at
    assert checkin.people_here(unmarked) == [False, False]


# --- 1. a lost slip ------------------------------------------------------------------------


def test_a_lost_slip_is_replaced_at_the_door_and_the_old_one_shows_nothing(
    client, tournament, orga, kasse
):
    pair = tournament.entrants.get(start_number=13)
    old_first, old_second = players.links_of(pair)
    client.force_login(kasse)
    shown = door(client, tournament, q="13").content.decode()
    assert "Zettel verloren?" not in shown  # a helper does not replace links
    client.force_login(orga)
    shown = door(client, tournament, q="13").content.decode()
    assert "Neuer Link für Paar 4 B" in shown
    text = door(client, tournament, entrant=str(pair.pk), action="revoke", person="1")
    text = text.content.decode()
    new = PersonalLink.objects.get(entrant=pair, partner=True, revoked_at=None)
    assert new.code != old_second.code and new.code in text
    assert f"nr={pair.start_number}" in text  # the slip, to print again (F9)
    assert client.get(f"/p/{old_second.token}/").status_code == 404
    assert client.get(f"/p/{new.token}/").status_code == 200
    assert PersonalLink.objects.get(pk=old_first.pk).revoked_at is None  # the other stays
    # the old slip at the door: said so, nobody checked in
    text = door(client, tournament, q=f"{BASE}/p/{old_second.token}/").content.decode()
    assert "Dieser Zettel gilt nicht mehr" in text and arrived(pair) == (False, False)
    assert tournament.audit_log.filter(action="personal_link.revoke").count() == 1


def test_a_lost_slip_is_replaced_on_the_entrants_page(client, tournament, orga, kasse):
    entrant = tournament.entrants.get(start_number=2)
    (old,) = players.links_of(entrant)
    url = reverse("desk:entrant_edit", args=[tournament.slug, entrant.pk])
    client.force_login(orga)
    page = client.get(url).content.decode()
    assert old.code in page and "Zettel drucken" in page and f"nr={entrant.start_number}" in page
    done = client.post(url, {"revoke": "0"}, follow=True).content.decode()
    new = PersonalLink.objects.get(entrant=entrant, revoked_at=None)
    assert new.code in done and f"/p/{new.token}/" in done and "Neuer Link für" in done
    assert PersonalLink.objects.get(pk=old.pk).revoked_at is not None
    client.force_login(kasse)
    assert client.post(url, {"revoke": "0"}).status_code == 403


def test_player_links_revoke_prints_the_new_link_and_code(tournament):
    pair = tournament.entrants.get(start_number=13)
    old = players.links_of(pair)[1]
    out = StringIO()
    call_command(
        "player_links",
        "--tournament",
        tournament.slug,
        "--revoke",
        "13",
        "--partner",
        "--base-url",
        BASE,
        stdout=out,
    )
    revoked = json.loads(out.getvalue())["revoked"]
    new = PersonalLink.objects.get(entrant=pair, partner=True, revoked_at=None)
    assert revoked == {
        "start_number": 13,
        "name": "Paar 4 B",
        "url": f"{BASE}/p/{new.token}/",
        "code": new.code,
    }
    assert PersonalLink.objects.get(pk=old.pk).revoked_at is not None
    with pytest.raises(CommandError, match="no start number 99"):
        call_command("player_links", "--tournament", tournament.slug, "--revoke", "99")
    with pytest.raises(CommandError, match="kein Paar"):
        call_command("player_links", "--tournament", tournament.slug, "--revoke", "1", "--partner")


# --- 4. free places after "Nicht erschienen" -----------------------------------------------


def test_after_nicht_erschienen_the_door_moves_the_waiting_up_with_one_key(
    client, tournament, orga, settings
):
    settings.EMAIL_ENABLED = True
    settings.PUBLIC_BASE_URL = "https://anmeldung.example.org"
    singles = tournament.competitions.get(mode=Mode.SINGLES)
    signup.update_settings(
        singles, None, registration_open=True, capacity=signup.taken_places(singles)
    )
    waiting = [
        signup.sign_up(singles, signup.SignUp(name=n, email=f"{n.split()[0].lower()}@example.org"))
        for n in ("Warte Eins", "Warte Zwei", "Warte Drei")
    ]
    assert all(w.entrant is None for w in waiting)
    for entrant in tournament.entrants.filter(competition=singles, start_number__gt=2):
        checkin.check_in(entrant, orga)
    for entrant in tournament.entrants.exclude(competition=singles):
        checkin.check_in(entrant, orga)
    client.force_login(orga)
    page = client.post(
        reverse("desk:no_show", args=[tournament.slug]), {"confirmed": "1"}, follow=True
    ).content.decode()
    # two singles did not come: two places, three waiting
    assert 'id="door-free"' in page and "Einzel: 2 Plätze frei." in page
    assert all(n in page for n in ("Warte Eins", "Warte Zwei", "Warte Drei"))
    page = client.post(
        reverse("desk:checkin", args=[tournament.slug]), {"action": "move_up"}, follow=True
    ).content.decode()
    moved = Entrant.objects.filter(name__in=["Warte Eins", "Warte Zwei"], withdrawn=False)
    assert moved.count() == 2 and not Entrant.objects.filter(name="Warte Drei").exists()
    assert "Nachgerückt:" in page and 'id="door-free"' not in page  # no place left
    assert sorted(m.to[0] for m in mail.outbox) == ["warte@example.org"] * 2
    assert all("https://anmeldung.example.org/p/" in m.body for m in mail.outbox)
    assert signup.taken_places(singles) == singles.capacity
