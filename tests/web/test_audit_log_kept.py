"""The audit log outlives what it names: deleting a tournament in /admin/ leaves its entries
(with the tournament's slug and name), deleting an account leaves its name on its entries; a
backup carries those names, and a restore into an empty database keeps the log whole (issue
36, item 9)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model

from binokel_tournament.models import AuditLog, Tournament
from binokel_tournament.services.evening.registration import register_entrant
from binokel_tournament.services.server.backup import backup_bytes, restore

from .support import empty_the_database, make_tournament, member

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    root = get_user_model().objects.create_superuser("root", password="Lange-Nacht-42")
    client.force_login(root)
    return client


def test_deleting_a_tournament_in_the_admin_keeps_its_log(admin_client, orga):
    t = make_tournament(singles=3, pairs=0)
    member(t, orga)
    register_entrant(t.competitions.get(mode="singles"), "Spät Gekommen", user=orga)
    entries = set(AuditLog.objects.filter(tournament=t).values_list("pk", flat=True))
    assert entries and AuditLog.objects.filter(tournament=t, username="orga").exists()
    page = admin_client.post(
        f"/admin/binokel_tournament/tournament/{t.pk}/delete/", {"post": "yes"}, follow=True
    )
    assert page.status_code == 200
    assert not Tournament.objects.filter(pk=t.pk).exists()
    kept = AuditLog.objects.filter(pk__in=entries)
    assert set(kept.values_list("pk", flat=True)) == entries
    assert set(kept.values_list("tournament_slug", "tournament_name")) == {(t.slug, "Testturnier")}
    assert set(kept.values_list("tournament_id", flat=True)) == {None}
    listing = admin_client.get("/admin/binokel_tournament/auditlog/").content.decode()
    assert t.slug in listing and "Testturnier" in listing


def test_deleting_an_account_leaves_its_name_on_its_entries(admin_client, orga):
    t = make_tournament(singles=3, pairs=0)
    member(t, orga)
    register_entrant(t.competitions.get(mode="singles"), "Spät Gekommen", user=orga)
    entry = AuditLog.objects.get(tournament=t, user=orga)
    page = admin_client.post(f"/admin/auth/user/{orga.pk}/delete/", {"post": "yes"}, follow=True)
    assert page.status_code == 200 and not get_user_model().objects.filter(pk=orga.pk).exists()
    entry = AuditLog.objects.get(pk=entry.pk)
    assert entry.user_id is None and entry.username == "orga"
    listing = admin_client.get("/admin/binokel_tournament/auditlog/").content.decode()
    assert "orga" in listing


def test_a_backup_carries_the_names_and_a_restore_keeps_the_log_whole(orga):
    t = make_tournament(singles=3, pairs=0)
    member(t, orga)
    register_entrant(t.competitions.get(mode="singles"), "Spät Gekommen", user=orga)
    data = backup_bytes(t)
    audit = json.loads(data)["audit"]
    assert audit and {a["tournament_slug"] for a in audit} == {t.slug}
    assert "orga" in {a["username"] for a in audit}
    before = AuditLog.objects.filter(tournament=t).count()
    empty_the_database()  # the tournament and the accounts go, their log stays
    orphans = AuditLog.objects.filter(tournament=None, tournament_slug=t.slug)
    assert orphans.count() == before
    restored = restore(data).tournament  # the command's path: accounts made again
    assert backup_bytes(restored) == data
    assert AuditLog.objects.filter(tournament=restored).count() == before
    assert orphans.count() == before  # the removed tournament's log is still there
    # a backup from before the names were kept: they come from the tournament and accounts
    document = json.loads(data)
    for entry in document["audit"]:
        for name in ("tournament_slug", "tournament_name", "username"):
            del entry[name]
    copy = restore(document, slug="alt").tournament
    names = set(AuditLog.objects.filter(tournament=copy).values_list("tournament_slug", flat=True))
    assert names == {"alt"}
    assert AuditLog.objects.filter(tournament=copy, username="orga").exists()


@pytest.mark.slow  # migrates the test database back and forth
@pytest.mark.django_db(transaction=True)
def test_the_entries_of_an_installation_from_before_keep_their_names():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = ("binokel_tournament", "0022_district_cups")
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes("binokel_tournament")
    executor.migrate([before])
    old = executor.loader.project_state([before]).apps
    anna = old.get_model("auth", "User").objects.create(username="anna")
    verein = old.get_model("binokel_tournament", "Verein").objects.create(name="V", slug="v")
    t = old.get_model("binokel_tournament", "Tournament").objects.create(
        name="Herbstbinokel", slug="herbst", verein=verein
    )
    log = old.get_model("binokel_tournament", "AuditLog").objects
    log.create(tournament=t, user=anna, action="entrant.add", object_type="Entrant", object_id="1")
    log.create(tournament=None, user=None, action="login.failed", object_type="User", object_id="x")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(latest)
    entry = AuditLog.objects.get(action="entrant.add")
    assert (entry.tournament_slug, entry.tournament_name, entry.username) == (
        "herbst",
        "Herbstbinokel",
        "anna",
    )
    login = AuditLog.objects.get(action="login.failed")
    assert (login.tournament_slug, login.username) == ("", "")
