"""Vereine as tenants (services/tenancy.py, the middleware, django-scopes): another club's
tournaments, register, cups, backups and members do not exist for a desk, on every desk URL of
the URL configuration; a query without a scope fails loudly; the commands' --verein; the
public Verein page and the home page of a server for many clubs."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django_scopes import scope
from django_scopes.exceptions import ScopeError

from binokel_tournament.models import (
    AuditLog,
    Mode,
    Player,
    Role,
    Series,
    Tournament,
    Verein,
    VereinMember,
)
from binokel_tournament.services import access, tenancy
from binokel_tournament.services.evening.registration import create_tournament, register_entrant

from .desk_urls import DESK_URLS, DeskUrl, a_series
from .support import state

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db, world_snapshots):
    return world_snapshots[False].restore()


@pytest.fixture
def club_b(world):  # type: ignore[no-untyped-def]
    """A second Verein with its own organiser (a member of the Verein, of no tournament) and
    its own evening, register entry and cup. Club A's cup is made first (in the one Verein
    there is until then)."""
    a_series()
    verein = tenancy.create_verein("Binokelfreunde Bodensee", "bodensee")
    boss = get_user_model().objects.create_user("bodensee-chef", password="pw")
    tenancy.set_member(verein, boss, Role.ORGANISER, None)
    evening = create_tournament("Seehas-Binokel", modes=[Mode.SINGLES], rounds=1, verein=verein)
    register_entrant(evening.competitions.get(), "Berta Bodensee")
    Player.objects.create(verein=world["t"].verein, name="Anton Albrecht", club="Verein A")
    Player.objects.create(verein=verein, name="Berta Bodensee", club="Seehasen")
    cup = Series.objects.create(verein=verein, slug="seecup", name="Seecup")
    cup.tournaments.add(evening)
    return {"verein": verein, "boss": boss, "evening": evening, "cup": cup}


def expected_for_the_other_club(entry: DeskUrl) -> set[int]:
    """A URL of club A's tournament or cup: not there (404). The pages without a tournament:
    the other club's own (200), a refusal of A's Verein in the chooser (back home, 302)."""
    if entry.action is not None or entry.name == "series_detail":
        return {404}
    return {200, 302} if entry.method == "POST" or entry.name == "home" else {200}


@pytest.mark.slow  # every desk URL; the quick tier keeps the examples below
@pytest.mark.parametrize("entry", DESK_URLS, ids=lambda e: e.label)
def test_each_desk_url_of_one_club_as_the_organiser_of_another(world, club_b, entry):
    t = world["t"]
    cup = a_series()
    client = Client()
    client.force_login(club_b["boss"])
    url, data = entry.url(t), entry.data(t)  # what the test makes for the request comes first
    before = state(t)[0]  # club A's tournament as its backup (with its audit log)
    a_players = set(Player.objects.filter(verein=t.verein).values_list("pk", "name"))
    response = client.get(url) if entry.method == "GET" else client.post(url, data)
    assert response.status_code in expected_for_the_other_club(entry), (
        entry.label,
        response.status_code,
    )
    assert state(t)[0] == before, f"{entry.label} changed club A's tournament"
    assert set(Player.objects.filter(verein=t.verein).values_list("pk", "name")) == a_players
    assert Series.objects.filter(pk=cup.pk, verein=t.verein).exists()
    if response.status_code == 200:
        page = response.content.decode()
        assert f"/desk/{t.slug}/" not in page, entry.label
        assert "Anton Albrecht" not in page, entry.label  # club A's register
        assert f"/cup-serien/{cup.slug}/" not in page, entry.label
    if entry.name == "verein_choose":
        assert client.session.get(tenancy.SESSION_KEY) != t.verein_id


def test_the_other_clubs_tournament_is_not_there_for_a_desk(world, club_b):
    client = Client()
    client.force_login(club_b["boss"])
    t = world["t"]
    assert client.get(f"/desk/{t.slug}/").status_code == 404
    assert client.get(f"/desk/{t.slug}/sicherungen/").status_code in {404}
    home = client.get("/desk/?alle=1")
    page = home.content.decode() if home.status_code == 200 else ""
    assert home.status_code == 302 or club_b["evening"].slug in page
    assert f"/desk/{t.slug}/" not in page
    register = client.get("/desk/spielerregister/").content.decode()
    assert "Berta Bodensee" in register and "Anton Albrecht" not in register
    cups = client.get("/desk/cup-serien/").content.decode()
    assert "Seecup" in cups and f"/cup-serien/{a_series().slug}/" not in cups


def test_a_member_of_a_verein_runs_all_its_tournaments(world, club_b):
    """A Verein's roles apply to all its tournaments; a tournament may add members of its own."""
    boss, evening = club_b["boss"], club_b["evening"]
    assert access.role_of(boss, evening) == Role.ORGANISER
    assert access.role_of(boss, world["t"]) is None
    second = create_tournament("Zweiter Abend", modes=[Mode.SINGLES], verein=club_b["verein"])
    assert access.role_of(boss, second) == Role.ORGANISER
    helper = get_user_model().objects.create_user("see-helfer", password="pw")
    tenancy.set_member(club_b["verein"], helper, Role.HELPER, boss)
    assert access.role_of(helper, evening) == Role.HELPER
    assert AuditLog.objects.filter(action="verein.member").count() >= 2
    client = Client()
    client.force_login(helper)
    assert client.get(f"/desk/{evening.slug}/").status_code == 200
    assert client.get(f"/desk/{evening.slug}/mitglieder/").status_code == 403


def test_an_account_of_two_vereine_switches_between_them(world, club_b):
    orga = world["organiser"]  # a member of club A's tournament
    tenancy.set_member(club_b["verein"], orga, Role.ORGANISER, None)
    client = Client()
    client.force_login(orga)
    page = client.get("/desk/?alle=1").content.decode()
    assert "Binokelfreunde Bodensee" in page  # the chooser in the header
    response = client.post("/desk/verein/", {"verein": club_b["verein"].pk})
    assert response.status_code == 302
    assert client.session[tenancy.SESSION_KEY] == club_b["verein"].pk
    # both clubs' tournaments are the account's; a new one goes into the chosen Verein
    assert client.get(f"/desk/{world['t'].slug}/").status_code == 200
    assert client.get(f"/desk/{club_b['evening'].slug}/").status_code == 200


def test_the_laptop_of_one_verein_shows_no_choice(client, world):
    assert Verein.objects.count() == 1
    client.force_login(world["organiser"])
    page = client.get(f"/desk/{world['t'].slug}/").content.decode()
    assert 'action="/desk/verein/"' not in page


def test_a_query_without_a_scope_fails_loudly(world):
    """Beneath the views: inside a request's scope every query of a Verein's data is limited
    to it; a query where nobody set a scope is an error, not every club's data."""
    with scope(), pytest.raises(ScopeError):  # enabled, but no Verein named
        list(Tournament.objects.all())
    with scope(verein=[]):
        assert Tournament.objects.count() == 0
    with scope(verein=[world["t"].verein_id]):
        assert Tournament.objects.filter(pk=world["t"].pk).exists()


def test_a_query_in_the_scope_of_one_club_never_sees_the_other(world, club_b):
    with scope(verein=[club_b["verein"].pk]):
        assert list(Tournament.objects.values_list("name", flat=True)) == ["Seehas-Binokel"]
        assert list(Series.objects.values_list("slug", flat=True)) == ["seecup"]
        assert not Player.objects.filter(name="Spieler 1").exists()


def test_the_commands_take_a_verein(world, tmp_path):
    out = io.StringIO()
    call_command("verein", "Kreis Nord", "--slug", "kreis-nord", "--district", stdout=out)
    assert "kreis-nord" in out.getvalue()
    nord = Verein.objects.get(slug="kreis-nord")
    assert nord.district
    with pytest.raises(CommandError):
        call_command("verein", "Noch einer", "--slug", "kreis-nord", stdout=io.StringIO())
    password = tmp_path / "pw"
    password.write_text("ein-gutes-passwort-2026\n")
    call_command(
        "organiser", "nordchef", "--verein", "kreis-nord", "--password-file", str(password),
        stdout=io.StringIO(),
    )  # fmt: skip
    chef = get_user_model().objects.get(username="nordchef")
    assert chef.check_password("ein-gutes-passwort-2026")
    assert VereinMember.objects.get(user=chef).role == Role.ORGANISER
    assert access.can_create_tournament(chef, nord)
    assert not access.can_create_tournament(chef, world["t"].verein)
    with pytest.raises(CommandError):
        call_command("organiser", "x", "--verein", "gibtsnicht", stdout=io.StringIO())


def test_the_public_pages_of_a_server_for_many_clubs(client, world, club_b):
    evening = club_b["evening"]
    home = client.get("/").content.decode()
    assert "Binokelfreunde Bodensee" in home and "/v/bodensee/" in home
    page = client.get("/v/bodensee/").content.decode()
    assert "Seehas-Binokel" in page and "Seecup" in page
    assert "Testturnier" not in page  # club A's evening
    Tournament.objects.filter(pk=evening.pk).update(public_pages=False)
    assert "Seehas-Binokel" not in client.get("/v/bodensee/").content.decode()
    assert client.get("/v/gibtsnicht/").status_code == 404


@pytest.mark.slow  # migrates the test database back and forth
@pytest.mark.django_db(transaction=True)
def test_an_installation_from_before_vereine_becomes_one_verein():
    """docs/operations.md: what an installation holds goes into one Verein named after its
    first tournament's organiser; every account keeps exactly the rights it had."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, latest = ("binokel_tournament", "0017_imported_as_text"), None
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes("binokel_tournament")
    executor.migrate([before])
    old = executor.loader.project_state([before]).apps
    User = old.get_model("auth", "User")
    OldTournament = old.get_model("binokel_tournament", "Tournament")
    first = OldTournament.objects.create(
        name="Benefizbinokel", slug="benefiz", organiser_club="Binokelfreunde Wendlingen"
    )
    second = OldTournament.objects.create(name="Herbstbinokel", slug="herbst")
    anna = User.objects.create(username="anna")
    old.get_model("binokel_tournament", "Membership").objects.create(
        tournament=second, user=anna, role="organiser"
    )
    old.get_model("binokel_tournament", "Player").objects.create(name="Rosa Ruff")
    old.get_model("binokel_tournament", "Series").objects.create(slug="cup", name="Cup")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(latest)

    verein = Verein.objects.get()
    assert verein.name == "Binokelfreunde Wendlingen"
    assert set(Tournament.objects.values_list("verein", flat=True)) == {verein.pk}
    assert Player.objects.get().verein == verein and Series.objects.get().verein == verein
    assert not VereinMember.objects.exists()  # nobody gains a tournament they had not
    anna_now = get_user_model().objects.get(username="anna")
    assert access.role_of(anna_now, Tournament.objects.get(slug="herbst")) == Role.ORGANISER
    assert access.role_of(anna_now, Tournament.objects.get(pk=first.pk)) is None


def test_a_new_tournament_goes_into_the_verein_the_desk_works_in(world, club_b):
    from .support import form_defaults

    client = Client()
    client.force_login(club_b["boss"])
    data = {**form_defaults(), "name": "Frühjahrsbinokel", "date": "2027-03-06", "rounds": 3}
    response = client.post("/desk/neu/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    made = Tournament.objects.get(name="Frühjahrsbinokel")
    assert made.verein == club_b["verein"]
    assert access.role_of(club_b["boss"], made) == Role.ORGANISER
