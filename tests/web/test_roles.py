"""Who may do what, page by page: every desk URL as organiser, desk helper, member of another
tournament and anonymous — and the same rules in the services, whoever calls them."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import get_resolver, reverse

from binokel_tournament.models import AuditLog, Membership, Mode, Role
from binokel_tournament.services import access, tenancy
from binokel_tournament.services.access import Action, NotAllowed
from binokel_tournament.services.errors import DeskError
from binokel_tournament.services.evening.registration import (
    create_tournament,
    delete_entrant,
    import_entrants,
    register_entrant,
    renumber,
    update_entrant,
)
from binokel_tournament.services.evening.seating import (
    generate_seating,
    replan_seating,
)
from binokel_tournament.services.members import add_member, change_role, remove_member
from binokel_tournament.services.rounds.writer import RoundChange, change_round
from binokel_tournament.services.sheets.writer import save_sheet

from .desk_urls import DESK_URLS, DeskUrl, first_three_table
from .sheets import full_three_table
from .support import ROLES, state

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db, world_snapshots):
    """The seated tournament (orga organises, kasse helps) and another tournament whose
    organiser, "fremd", is nobody in the first (tests/web/support.py: build_world)."""
    return world_snapshots[False].restore()


def expected(entry: DeskUrl, role: str) -> set[int]:
    if role == "anonymous":
        return {302}  # to the login page
    if entry.action is None:  # no tournament in the URL
        creating = entry.name in {"tournament_new", "restore_upload", "club_server", "district"}
        # the register and the cups hold names: a helper finds none (issue 36 item 18)
        cups = entry.name in {"players", "series_list", "series_detail"}
        if role == "helper" and (creating or cups):
            return {404} if cups else {403}
        return {200, 302}
    if role == "outsider":
        return {404}
    role_value = Role.ORGANISER if role == "organiser" else Role.HELPER
    allowed = entry.action in access.ROLE_ACTIONS[role_value]
    return {200, 302, *entry.also} if allowed else {403}


def test_every_desk_url_is_in_the_table():
    desk = next(p for p in get_resolver().url_patterns if getattr(p, "namespace", "") == "desk")
    names = {p.name for p in desk.url_patterns}
    assert names == {entry.name for entry in DESK_URLS}


@pytest.mark.slow  # the whole matrix (every URL × every role) runs in `make test`
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("entry", DESK_URLS, ids=lambda e: e.label)
def test_each_desk_url_as_each_role(client, world, entry, role):
    t = world["t"]
    if role != "anonymous":
        client.force_login(world[role])
    url = entry.url(t)
    allowed = expected(entry, role)
    refused = role == "anonymous" or not allowed & {200, 302}
    before = state(t) if refused else None  # what a refused request must leave as it was
    response = client.get(url) if entry.method == "GET" else client.post(url, entry.data(t))
    assert response.status_code in allowed, (entry.label, role, response.status_code)
    if role == "anonymous":
        assert "/anmelden/" in response["Location"]
    if refused:
        assert state(t) == before, f"{entry.label} as {role} changed something"
    if response.status_code == 403:
        assert "Keine Berechtigung" in response.content.decode()


def test_the_desk_home_lists_only_the_users_tournaments(client, world):
    client.force_login(world["outsider"])
    page = client.get("/desk/?alle=1").content.decode()
    assert f'href="/desk/{world["other"].slug}/"' in page
    assert f'href="/desk/{world["t"].slug}/"' not in page
    client.force_login(world["helper"])
    response = client.get("/desk/")
    assert response.status_code == 302 and world["t"].slug in response["Location"]


def test_a_helper_sees_no_organiser_links(client, world):
    client.force_login(world["helper"])
    page = client.get(f"/desk/{world['t'].slug}/").content.decode()
    assert "/mitglieder/" not in page and "/einstellungen/" not in page
    seating = client.get(f"/desk/{world['t'].slug}/spielplan/").content.decode()
    assert "Spielplan erstellen" not in seating and "/sperren/" not in seating
    entrants = client.get(f"/desk/{world['t'].slug}/teilnehmer/singles/").content.decode()
    assert "/import/" not in entrants and "teilnehmer-bearbeiten" not in entrants
    client.force_login(world["organiser"])
    page = client.get(f"/desk/{world['t'].slug}/").content.decode()
    assert "/mitglieder/" in page and "/sicherung/" in page


def test_a_helper_enters_and_confirms_but_does_not_plan_delete_or_correct(world):
    t, helper, organiser = world["t"], world["helper"], world["organiser"]
    singles = t.competitions.get(mode=Mode.SINGLES)
    late = register_entrant(singles, "Späte Berta", user=helper)
    assert late.pk
    table = t.round_set.get(number=1).tables.get(pk=first_three_table(t))
    save_sheet(table, full_three_table(), helper, expected_version=0, confirm=True)
    for attempt in (
        lambda: generate_seating(singles, user=helper),
        lambda: replan_seating(singles, user=helper),
        lambda: change_round(t.round_set.get(number=3), RoundChange.UNLOCK, helper),
        lambda: delete_entrant(late, helper),
        lambda: update_entrant(late, helper, withdrawn=True),
        lambda: renumber(t, "random", 1, helper),
        lambda: import_entrants(singles, [["Name"], ["X"]], helper),
        lambda: add_member(t, "neu", Role.HELPER, helper, "Lange-Nacht-42"),
    ):
        with pytest.raises(NotAllowed):
            attempt()
    corrected = {**full_three_table(), "g7-bid": "210"}
    with pytest.raises(NotAllowed):
        save_sheet(table, corrected, helper, expected_version=1)
    save_sheet(table, corrected, organiser, expected_version=1)  # the organiser may


def test_a_stranger_changes_nothing_through_the_services(world):
    t, stranger = world["t"], world["outsider"]
    singles = t.competitions.get(mode=Mode.SINGLES)
    table = t.round_set.get(number=1).tables.get(pk=first_three_table(t))
    for attempt in (
        lambda: register_entrant(singles, "Eindringling", user=stranger),
        lambda: save_sheet(table, full_three_table(1), stranger, expected_version=0),
        lambda: generate_seating(singles, user=stranger),
    ):
        with pytest.raises(NotAllowed, match="nicht Mitglied"):
            attempt()
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(NotAllowed):
        register_entrant(singles, "Anonym", user=AnonymousUser())


def test_the_creator_of_a_tournament_becomes_its_organiser(world):
    t = create_tournament("Frühjahrsbinokel", creator=world["organiser"])
    assert access.role_of(world["organiser"], t) == Role.ORGANISER
    assert AuditLog.objects.filter(tournament=t, action="tournament.create").exists()
    with pytest.raises(NotAllowed):
        create_tournament("Vom Helfer", creator=world["helper"])


def test_members_are_managed_by_the_organiser_and_one_organiser_always_stays(world):
    t, organiser = world["t"], world["organiser"]
    new = add_member(t, "neuhelfer", Role.HELPER, organiser, "Lange-Nacht-42")
    assert new.user.check_password("Lange-Nacht-42") and new.role == Role.HELPER
    existing = add_member(t, "fremd", Role.HELPER, organiser)
    assert existing.user == world["outsider"]
    with pytest.raises(DeskError, match="Demo-Passwort"):
        add_member(t, "demo2", Role.HELPER, organiser, "binokel")
    with pytest.raises(DeskError):
        add_member(t, "kurz", Role.HELPER, organiser, "kurz")
    with pytest.raises(DeskError, match="schon Mitglied"):
        add_member(t, "kasse", Role.HELPER, organiser)
    own = Membership.objects.get(tournament=t, user=organiser)
    with pytest.raises(DeskError, match="mindestens eine Turnierleitung"):
        change_role(own, Role.HELPER, organiser)
    with pytest.raises(DeskError, match="mindestens eine Turnierleitung"):
        remove_member(own, organiser)
    change_role(new, Role.ORGANISER, organiser)
    remove_member(Membership.objects.get(pk=own.pk), new.user)
    assert access.role_of(organiser, t) is None
    actions = list(AuditLog.objects.filter(tournament=t, action__startswith="member."))
    assert {a.action for a in actions} == {"member.add", "member.role", "member.remove"}


def test_the_members_page_adds_a_helper_who_can_then_log_in(client, world):
    t = world["t"]
    client.force_login(world["organiser"])
    response = client.post(
        f"/desk/{t.slug}/mitglieder/",
        {"action": "add", "username": "theke", "role": "helper", "password": "Lange-Nacht-42"},
    )
    assert response.status_code == 302
    page = client.get(f"/desk/{t.slug}/mitglieder/").content.decode()
    assert "theke" in page
    client.logout()
    login = client.post("/anmelden/", {"username": "theke", "password": "Lange-Nacht-42"})
    assert login.status_code == 302
    assert client.get(f"/desk/{t.slug}/ergebnisse/").status_code == 200
    assert client.get(f"/desk/{t.slug}/spielplan/").status_code == 200
    assert client.get(f"/desk/{t.slug}/einstellungen/").status_code == 403


def test_the_upgrade_makes_staff_organisers_of_existing_tournaments(db):
    from importlib import import_module

    from django.apps import apps

    migration = import_module(
        "binokel_tournament.migrations.0002_membership_audit_restore_timestamps"
    )
    User = get_user_model()
    admin = User.objects.create_user("admin", is_staff=True, is_superuser=True)
    User.objects.create_user("kasse")
    t = create_tournament("Vorher")
    migration.existing_staff_organise_existing_tournaments(apps, None)
    assert access.role_of(admin, t) == Role.ORGANISER
    assert list(Membership.objects.values_list("user__username", flat=True)) == ["admin"]


def test_a_membership_in_one_tournament_gives_nothing_in_another(world):
    assert not access.can(world["outsider"], world["t"], Action.VIEW)
    assert not access.can(world["organiser"], world["other"], Action.VIEW)
    assert access.can(None, world["other"], Action.MEMBERS)  # the system (commands)


def test_one_request_reads_the_roles_once_and_a_change_in_it_is_seen(world):
    """A desk request reads the account's roles and Vereine once (a save asked five times);
    a membership changed within the request is read again, never answered from before."""
    t, organiser, helper = world["t"], world["organiser"], world["helper"]
    with CaptureQueriesContext(connection) as outside:
        access.role_of(helper, t)
        access.role_of(helper, t)
    with access.one_request():
        with CaptureQueriesContext(connection) as inside:
            assert access.role_of(helper, t) == Role.HELPER
            assert access.can(helper, t, Action.ENTER_RESULTS)
            assert not access.can(helper, t, Action.CORRECT_RESULTS)
            assert tenancy.verein_ids_of(helper) == tenancy.verein_ids_of(helper)
        assert len(inside) == 2 < len(outside) + 1  # one query for the roles, one for Vereine
        change_role(Membership.objects.get(tournament=t, user=helper), Role.ORGANISER, organiser)
        assert access.role_of(helper, t) == Role.ORGANISER
        assert access.can(helper, t, Action.CORRECT_RESULTS)
        Membership.objects.filter(tournament=t, user=helper).delete()
        assert access.role_of(helper, t) is None
    assert access.role_of(helper, t) is None  # outside a request: read every time


def test_a_desk_save_reads_the_roles_once(client, world):
    t = world["t"]
    client.force_login(world["helper"])
    url = reverse("desk:sheet", args=[t.slug, first_three_table(t)])
    with CaptureQueriesContext(connection) as queries:
        client.post(url, {**full_three_table(), "version": "0", "draft": "1"})
    roles = [q["sql"] for q in queries if "_membership" in q["sql"]]
    assert len(roles) == 2, roles  # the roles in the tournament, the Vereine of the account
