"""Long desk pages stay usable: the audit log comes a page at a time with a link to older
entries; the seating and results pages ignore odd round, page and search values."""

from __future__ import annotations

import pytest
from django.urls import reverse

from binokel_tournament.models import AuditLog
from binokel_tournament.views.audit import AUDIT_PAGE_SIZE

pytestmark = pytest.mark.django_db


def test_the_audit_log_pages_back_to_older_entries(desk_client, tournament):
    AuditLog.objects.bulk_create(
        AuditLog(tournament=tournament, action=f"test.{i}", object_type="T", object_id=str(i))
        for i in range(AUDIT_PAGE_SIZE + 5)
    )
    url = reverse("desk:audit", args=[tournament.slug])
    page = desk_client.get(url).content.decode()
    newest = AuditLog.objects.order_by("-id")
    assert f"test.{AUDIT_PAGE_SIZE + 4}" in page
    assert page.count("<tr><td>") == AUDIT_PAGE_SIZE
    oldest_shown = newest[AUDIT_PAGE_SIZE - 1]
    assert f"vor={oldest_shown.pk}" in page and "ältere Einträge" in page
    assert desk_client.get(url, {"vor": "²"}).status_code == 200
    older = desk_client.get(url, {"vor": str(oldest_shown.pk)}).content.decode()
    rest = AuditLog.objects.filter(tournament=tournament).count() - AUDIT_PAGE_SIZE
    assert older.count("<tr><td>") == rest and "ältere Einträge" not in older


@pytest.mark.parametrize(
    "params",
    [
        {"round": "²"},
        {"round": "9" * 30},
        {"round": "7"},
        {"page": "0"},
        {"page": "99999"},
        {"round": "1", "q": "x" * 500},
        {"q": "%' OR 1=1 --"},
        {"q": "²"},
        {"q": "9" * 40},
    ],
)
@pytest.mark.parametrize("name", ["desk:seating", "desk:overview"])
def test_odd_navigation_values_fall_back_not_fail(desk_client, seated, name, params):
    response = desk_client.get(reverse(name, args=[seated.slug]), params)
    assert response.status_code == 200
