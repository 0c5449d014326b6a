"""Logins are throttled (django-axes) and recorded; the audit log is read-only for everybody."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from binokel_tournament.models import AuditLog, AuditLogIsReadOnly

pytestmark = pytest.mark.django_db


def attempt(client, username: str, password: str, ip: str = "192.168.1.30"):
    return client.post("/anmelden/", {"username": username, "password": password}, REMOTE_ADDR=ip)


def test_a_few_wrong_passwords_lock_the_login_with_a_clear_message(client, seated, orga):
    for _ in range(4):
        assert attempt(client, "orga", "falsch").status_code == 200
    locked = attempt(client, "orga", "falsch")
    assert locked.status_code == 429
    assert "Anmeldung vorübergehend gesperrt" in locked.content.decode()
    assert attempt(client, "orga", "pw").status_code == 429  # even the right one, for now
    assert attempt(client, "orga", "pw", ip="192.168.1.31").status_code == 302  # another desk
    actions = list(AuditLog.objects.filter(object_id="orga").values_list("action", flat=True))
    assert actions.count("login.failed") >= 5 and "login.locked" in actions and "login" in actions
    assert all(a.tournament_id is None for a in AuditLog.objects.filter(object_id="orga"))


def test_the_organiser_unlocks_a_locked_member(client, seated, orga, kasse):
    for _ in range(5):
        attempt(client, "kasse", "falsch")
    assert attempt(client, "kasse", "pw").status_code == 429
    desk = client.__class__()
    desk.force_login(orga)
    page = desk.get(f"/desk/{seated.slug}/mitglieder/").content.decode()
    assert "falsches Passwort" in page  # the organiser sees the failed logins
    response = desk.post(
        f"/desk/{seated.slug}/mitglieder/", {"action": "unlock", "username": "kasse"}
    )
    assert response.status_code == 302
    assert attempt(client, "kasse", "pw").status_code == 302
    assert AuditLog.objects.filter(tournament=seated, action="login.unlock").exists()


def test_a_helper_cannot_unlock(client, seated, kasse):
    client.force_login(kasse)
    response = client.post(
        f"/desk/{seated.slug}/mitglieder/", {"action": "unlock", "username": "kasse"}
    )
    assert response.status_code == 403


def test_audit_entries_cannot_be_changed_or_deleted(seated, orga):
    entry = AuditLog.objects.filter(tournament=seated).first()
    entry.action = "forged"
    with pytest.raises(AuditLogIsReadOnly):
        entry.save()
    with pytest.raises(AuditLogIsReadOnly):
        entry.delete()
    with pytest.raises(AuditLogIsReadOnly):
        AuditLog.objects.filter(tournament=seated).update(action="forged")
    with pytest.raises(AuditLogIsReadOnly):
        AuditLog.objects.filter(tournament=seated).delete()
    assert not AuditLog.objects.filter(action="forged").exists()


def test_the_admin_shows_the_audit_log_read_only_even_to_a_superuser(client, seated):
    admin = get_user_model().objects.create_superuser("root", password="Lange-Nacht-42")
    client.force_login(admin)
    entry = AuditLog.objects.filter(tournament=seated).first()
    listing = client.get("/admin/binokel_tournament/auditlog/")
    assert listing.status_code == 200
    page = client.get(f"/admin/binokel_tournament/auditlog/{entry.pk}/change/")
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    response = client.post(
        f"/admin/binokel_tournament/auditlog/{entry.pk}/change/", {"action": "forged"}
    )
    assert response.status_code == 403
    assert client.get(f"/admin/binokel_tournament/auditlog/{entry.pk}/delete/").status_code == 403
    assert client.get("/admin/binokel_tournament/auditlog/add/").status_code == 403
    assert AuditLog.objects.get(pk=entry.pk).action == entry.action
