"""The audit log (Protokoll): who changed what, when, in words (``services.audit_words``),
filtered by kind, table and entrant."""

from __future__ import annotations

import re

from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render

from ..models import AuditLog
from ..services.audit_words import KINDS, Filters, filtered, words_of
from ..services.sheets.words import source_label
from .common import desk_tournament

AUDIT_PAGE_SIZE = 50  # entries per page of the audit log
NUMBER = re.compile(r"[0-9]{1,5}")


def _number(text: str) -> int | None:
    return int(text) if NUMBER.fullmatch(text.strip()) else None


def _filters(query: QueryDict) -> Filters:
    kind = query.get("art", "")
    return Filters(
        kind=kind if kind in KINDS else "",
        table=_number(query.get("tisch", "")),
        round=_number(query.get("durchgang", "")),
        entrant=query.get("teilnehmer", "").strip()[:60],
    )


@login_required
def audit(request: HttpRequest, slug: str) -> HttpResponse:
    t = desk_tournament(request, slug)
    log: QuerySet[AuditLog] = t.audit_log.select_related("user").order_by("-id")
    object_type, object_id = request.GET.get("type", ""), request.GET.get("id", "")
    if object_type and object_id:
        log = log.filter(object_type=object_type[:40], object_id=object_id[:60])
    filters = _filters(request.GET)
    log = filtered(log, t, filters)
    before = request.GET.get("vor", "")
    if re.fullmatch(r"[0-9]{1,12}", before):  # older entries, page by page
        log = log.filter(id__lt=int(before))
    page = list(log[: AUDIT_PAGE_SIZE + 1])
    shown = page[:AUDIT_PAGE_SIZE]
    entries = []
    for e, worded in zip(shown, words_of(shown), strict=True):
        by = e.after.get("by") if isinstance(e.after, dict) else None
        entries.append(
            {
                "entry": e,
                "words": worded,
                "who": e.user or source_label(by or "") or "–",
            }
        )
    older = shown[-1].pk if len(page) > AUDIT_PAGE_SIZE else None
    query = request.GET.copy()
    query.pop("vor", None)
    context = {
        "tournament": t,
        "entries": entries,
        "older": older,
        "kinds": KINDS.items(),
        "filters": filters,
        "filtered": filters.active or bool(object_type and object_id),
        "query": query.urlencode(),
    }
    return render(request, "desk/audit.html", context)
