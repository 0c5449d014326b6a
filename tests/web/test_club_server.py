"""Hall laptop and club server (issue 34, services/club_sync.py): the registrations come from
the club server, the evening is played on the laptop, the result goes back -- each one step,
through a real HTTP server (the live server is the club server; the laptop's side is called as
its desk calls it). Keys are made and revoked by a Verein's organiser, kept hashed, and open
only that Verein; a result replaces what the server holds only as a newer export of the same
evening; the same file again changes nothing."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from binokel_tournament.exports.result_file import document, to_bytes
from binokel_tournament.models import AuditLog, Mode, Role, Series, Tournament, UploadKey
from binokel_tournament.services import club_sync, tenancy
from binokel_tournament.services.access import NotAllowed
from binokel_tournament.services.evening.registration import create_tournament, register_entrant
from binokel_tournament.services.evening.seating import generate_seating
from binokel_tournament.services.evening.simulation import simulate_round
from tests.support import start_round

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def clubs(db):  # type: ignore[no-untyped-def]
    """The club server's Verein (with its organiser and an evening with six registrations in
    a cup) and the laptop's Verein with its organiser (one database holds both here)."""
    server_verein = tenancy.create_verein("Binokelclub Wendlingen", "wendlingen")
    laptop_verein = tenancy.create_verein("Hallen-Laptop", "laptop")
    users = get_user_model().objects
    boss = users.create_user("vorstand", password="pw")
    helper = users.create_user("helferin", password="pw")
    desk = users.create_user("laptop-orga", password="pw")
    tenancy.set_member(server_verein, boss, Role.ORGANISER, None)
    tenancy.set_member(server_verein, helper, Role.HELPER, None)
    tenancy.set_member(laptop_verein, desk, Role.ORGANISER, None)
    evening = create_tournament(
        "Benefizbinokel 2027", modes=[Mode.SINGLES], rounds=2, verein=server_verein
    )
    for i in range(6):
        register_entrant(evening.competitions.get(), f"Spieler {i + 1}", club="Wendlingen")
    cup = Series.objects.create(verein=server_verein, slug="neckarcup", name="Neckarcup")
    cup.tournaments.add(evening)
    return {
        "server": server_verein,
        "laptop": laptop_verein,
        "boss": boss,
        "helper": helper,
        "desk": desk,
        "evening": evening,
        "cup": cup,
    }


def play(t: Tournament, rounds: int) -> None:
    generate_seating(t.competitions.get())
    for number in range(1, rounds + 1):
        round_obj = t.round_set.get(number=number)
        if number > 1:
            start_round(round_obj)
        simulate_round(round_obj, None, seed=number)


def test_keys_are_made_by_the_vereins_organiser_kept_hashed_and_revoked(clubs):
    key, secret = club_sync.make_key(clubs["server"], clubs["boss"], "Laptop Kasse")
    assert secret.startswith("bk_") and len(secret) > 40
    stored = UploadKey.objects.get(pk=key.pk)
    assert secret not in (stored.digest, stored.hint, stored.label) and stored.hint == secret[:7]
    assert club_sync.verein_of_key(secret)[0] == clubs["server"]
    with pytest.raises(NotAllowed):
        club_sync.make_key(clubs["server"], clubs["helper"], "x")
    with pytest.raises(NotAllowed):
        club_sync.make_key(clubs["server"], clubs["desk"], "x")  # another Verein's organiser
    club_sync.revoke_key(stored, clubs["boss"])
    with pytest.raises(club_sync.KeyRefused):
        club_sync.verein_of_key(secret)
    actions = set(AuditLog.objects.values_list("action", flat=True))
    assert {"verein.key", "verein.key_revoke"} <= actions


def test_the_api_opens_only_the_keys_verein(clubs):
    _key, secret = club_sync.make_key(clubs["server"], clubs["boss"], "Laptop")
    other = create_tournament("Fremder Abend", modes=[Mode.SINGLES], verein=clubs["laptop"])
    api = Client()
    auth = {"HTTP_AUTHORIZATION": f"Bearer {secret}"}
    assert api.get("/api/v1/abende/").status_code == 401
    assert api.get("/api/v1/abende/", HTTP_AUTHORIZATION="Bearer bk_falsch").status_code == 401
    listed = api.get("/api/v1/abende/", **auth).json()
    assert [e["slug"] for e in listed["evenings"]] == [clubs["evening"].slug]
    entries = api.get(f"/api/v1/abende/{clubs['evening'].slug}/anmeldungen/", **auth)
    assert entries.status_code == 200 and json.loads(entries.content)["kind"] == "entries"
    assert api.get(f"/api/v1/abende/{other.slug}/anmeldungen/", **auth).status_code == 404
    refused = api.post("/api/v1/ergebnis/", b"{}", content_type="application/json", **auth)
    assert refused.status_code == 400 and refused.json()["message"]


def test_registrations_come_from_the_club_server_and_the_result_goes_back(clubs, live_server):
    server, laptop, desk = live_server.url, clubs["laptop"], clubs["desk"]
    _key, secret = club_sync.make_key(clubs["server"], clubs["boss"], "Laptop")

    # on the laptop: the club server's evenings, then one evening's registrations
    remote = club_sync.remote_evenings(server, secret)
    assert [(e["name"], e["entrants"]) for e in remote] == [("Benefizbinokel 2027", 6)]
    fetched = club_sync.fetch_entries(server, secret, remote[0]["slug"], desk, laptop)
    here = fetched.tournament
    assert here.verein == laptop and fetched.entrants == 6
    assert here.event_id == clubs["evening"].event_id
    laptop.refresh_from_db()
    assert laptop.club_server == server
    # two more register on the club server; fetching again adds just them
    for name in ("Spät Angemeldete", "Noch Einer"):
        register_entrant(clubs["evening"].competitions.get(), name)
    again = club_sync.fetch_entries(server, secret, remote[0]["slug"], desk, laptop)
    assert again.tournament == here and again.entrants == 2
    assert here.entrants.count() == 8

    # the evening on the laptop: after round 1 an export, then round 2
    generate_seating(here.competitions.get())
    simulate_round(here.round_set.get(number=1), None, seed=1)
    after_round_1 = to_bytes(document(here, "results"))
    start_round(here.round_set.get(number=2))
    simulate_round(here.round_set.get(number=2), None, seed=2)

    # the result goes back: it replaces the registration evening, in its cup
    said = club_sync.send_result(server, secret, here, desk)
    assert "Benefizbinokel 2027" in said
    on_server = Tournament.objects.get(verein=clubs["server"], event_id=here.event_id)
    assert on_server.imported and on_server.pk != clubs["evening"].pk
    assert club_sync.without_cups(document(on_server, "results")) == club_sync.without_cups(
        document(here, "results")
    )
    assert list(on_server.series.all()) == [clubs["cup"]]
    assert AuditLog.objects.filter(action="result.replace").count() == 1
    # the same file again is recognised; an older export is refused; nothing changed
    assert "schon da" in club_sync.send_result(server, secret, here, desk)
    api = Client()
    older = api.post(
        "/api/v1/ergebnis/",
        after_round_1,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {secret}",
    )
    assert older.status_code == 409, older.content
    assert Tournament.objects.get(pk=on_server.pk).imported == on_server.imported
    assert AuditLog.objects.filter(action="result.replace").count() == 1


def test_without_network_the_result_goes_by_file_with_the_same_rule(clubs):
    """The server's desk takes the laptop's result file from a USB stick: it replaces the
    registration evening as a sent one would; the same file again changes nothing."""
    here = create_tournament(
        "Auf dem Laptop", modes=[Mode.SINGLES], rounds=1, verein=clubs["laptop"]
    )
    here.event_id = clubs["evening"].event_id
    here.save(update_fields=["event_id"])
    for i in range(6):
        register_entrant(here.competitions.get(), f"Spieler {i + 1}", club="Wendlingen")
    play(here, 1)
    data = to_bytes(document(here, "results"))
    client = Client()
    client.force_login(clubs["boss"])
    upload = SimpleUploadedFile("ergebnis.json", data, content_type="application/json")
    reply = client.post("/desk/ergebnisdatei-einlesen/", {"file": upload})
    assert reply.status_code == 302
    on_server = Tournament.objects.get(verein=clubs["server"], event_id=here.event_id)
    assert on_server.imported and list(on_server.series.all()) == [clubs["cup"]]
    upload = SimpleUploadedFile("ergebnis.json", data, content_type="application/json")
    again = client.post("/desk/ergebnisdatei-einlesen/", {"file": upload}, follow=True)
    assert "schon da" in again.content.decode()
    assert Tournament.objects.filter(verein=clubs["server"]).count() == 1


def test_an_unreachable_server_or_a_wrong_key_is_said_plainly(clubs, live_server):
    with pytest.raises(club_sync.ServerRefused) as refused:
        club_sync.remote_evenings(live_server.url, "bk_falsch")
    assert "Schlüssel" in refused.value.message
    with pytest.raises(club_sync.ServerRefused) as unreachable:
        club_sync.remote_evenings("http://127.0.0.1:9", "bk_x")
    assert "USB-Stick" in unreachable.value.message
    with pytest.raises(club_sync.ServerRefused):
        club_sync.remote_evenings("ftp://example.org", "bk_x")


def test_the_desk_page_is_the_vereins_organisers(clubs):
    client = Client()
    client.force_login(clubs["helper"])
    assert client.get("/desk/vereinsserver/").status_code == 403
    client.force_login(clubs["boss"])
    assert client.get("/desk/vereinsserver/").status_code == 200
    made = client.post("/desk/vereinsserver/", {"action": "make_key", "label": "Kasse"})
    page = made.content.decode()
    secret = page.split('id="new-secret"')[1].split("<code>")[1].split("</code>")[0]
    assert club_sync.verein_of_key(secret)[0] == clubs["server"]
    key = UploadKey.objects.get(label="Kasse")
    client.post("/desk/vereinsserver/", {"action": "revoke_key", "key": key.pk})
    assert UploadKey.objects.get(pk=key.pk).revoked_at is not None
    assert secret not in client.get("/desk/vereinsserver/").content.decode()
