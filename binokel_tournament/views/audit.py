"""The audit log: who changed what, when, before and after."""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from ..models import AuditLog, ScoreSheet
from ..services.audit import changes as audit_changes
from ..services.sheets.words import sheet_audit_lines, source_label
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
    sheets = _sheets(e for e in page if e.object_type == "ScoreSheet")
    entries = []
    for e in page[:AUDIT_PAGE_SIZE]:
        sheet = sheets.get(e.object_id) if e.object_type == "ScoreSheet" else None
        lines = sheet_audit_lines(e.before, e.after, sheet[2] if sheet else 3) if sheet else []
        by = e.after.get("by") if isinstance(e.after, dict) else None
        entries.append(
            {
                "entry": e,
                # a sheet's change in words: "Durchgang 1 · Tisch 16", "Spiel 10: Reizwert …"
                "where": _("Durchgang %(r)s · Tisch %(t)s") % {"r": sheet[0], "t": sheet[1]}
                if sheet
                else "",
                "lines": lines,
                "who": e.user or source_label(by or "") or "–",
                "changes": []
                if lines
                else [
                    (name, _shortened(old), _shortened(new))
                    for name, old, new in audit_changes(e.before, e.after)[:AUDIT_CHANGES_SHOWN]
                ],
            }
        )
    older = page[AUDIT_PAGE_SIZE - 1].pk if len(page) > AUDIT_PAGE_SIZE else None
    return render(request, "desk/audit.html", {"tournament": t, "entries": entries, "older": older})


def _sheets(entries: Iterable[AuditLog]) -> dict[str, tuple[int, int, int]]:
    """The round, table and party count of the sheets these entries name (one query)."""
    ids = {e.object_id for e in entries if e.object_id.isdigit()}
    rows = (
        ScoreSheet.objects.filter(pk__in=[int(i) for i in ids])
        .annotate(columns=Count("table__seats"))
        .values_list("pk", "table__round__number", "table__number", "columns")
    )
    return {str(pk): (r, t, c) for pk, r, t, c in rows}


def _shortened(value: object) -> object:
    """A logged value as the audit page shows it: whole plans and sheets cut to a line."""
    if value is None:
        return None
    text = str(value)
    return text if len(text) <= AUDIT_VALUE_LENGTH else text[: AUDIT_VALUE_LENGTH - 1] + "…"
