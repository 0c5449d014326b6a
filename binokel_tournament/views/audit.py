"""The audit log: who changed what, when, before and after."""

from __future__ import annotations

import re

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ..services.audit import changes as audit_changes
from .common import desk_tournament

AUDIT_PAGE_SIZE = 50  # entries per page of the audit log


AUDIT_CHANGES_SHOWN = 60  # changed fields shown per entry


AUDIT_VALUE_LENGTH = 200  # characters shown of a value (a whole plan is longer)


@login_required
def audit(request: HttpRequest, slug: str) -> HttpResponse:
    t = desk_tournament(request, slug)
    log = t.audit_log.select_related("user").order_by("-id")
    object_type, object_id = request.GET.get("type", ""), request.GET.get("id", "")
    if object_type and object_id:
        log = log.filter(object_type=object_type, object_id=object_id)
    before = request.GET.get("vor", "")
    if re.fullmatch(r"[0-9]{1,12}", before):  # older entries, page by page
        log = log.filter(id__lt=int(before))
    page = list(log[: AUDIT_PAGE_SIZE + 1])
    entries = [
        {
            "entry": e,
            "changes": [
                (name, _shortened(old), _shortened(new))
                for name, old, new in audit_changes(e.before, e.after)[:AUDIT_CHANGES_SHOWN]
            ],
        }
        for e in page[:AUDIT_PAGE_SIZE]
    ]
    older = page[AUDIT_PAGE_SIZE - 1].pk if len(page) > AUDIT_PAGE_SIZE else None
    return render(request, "desk/audit.html", {"tournament": t, "entries": entries, "older": older})


def _shortened(value: object) -> object:
    """A logged value as the audit page shows it: whole plans and sheets cut to a line."""
    if value is None:
        return None
    text = str(value)
    return text if len(text) <= AUDIT_VALUE_LENGTH else text[: AUDIT_VALUE_LENGTH - 1] + "…"
