"""Downloads from the desk: every PDF, the rankings workbook and the CSV tables, one click
each. The views only pick the exporter and pass the organiser's choices on — checked: a
round or a number of places that is not plain digits in range is a message, not a 500."""

from __future__ import annotations

import re

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _

from ..exports import (
    PDF_EXPORTERS,
    BaseExporter,
    CsvExporter,
    ExportError,
    ExportOptions,
    RankingsWorkbookExporter,
)
from ..exports.base import is_loopback_url
from ..models import Mode, Tournament
from .common import desk_tournament

MAX_TOP = 50
# ASCII digits only ("²" and "٣" are digits to str.isdigit), short enough for any database
PLAIN_NUMBER = re.compile(r"[0-9]{1,4}")


def _number(text: str) -> int | None:
    return int(text) if PLAIN_NUMBER.fullmatch(text) else None


def public_base_url(request: HttpRequest) -> str | None:
    """Where players' phones reach the public pages, for the seating plan's QR code: the
    configured PUBLIC_BASE_URL when it is a real address (the operator set it for just this),
    else the address the organiser's browser used for the desk — unless that is this
    computer's own (127.0.0.1, localhost), which a phone cannot reach: then none."""
    configured = str(getattr(settings, "PUBLIC_BASE_URL", "") or "")
    if configured and not is_loopback_url(configured):
        return configured
    here = request.build_absolute_uri("/")
    return None if is_loopback_url(here) else here


def _options(request: HttpRequest) -> ExportOptions:
    round_text = request.GET.get("round", "")
    mode = request.GET.get("mode", "")
    top_text = request.GET.get("top", "")
    round_number = _number(round_text)
    if round_text and round_number is None:
        raise ExportError(
            _("„%(value)s“ ist keine Nummer eines Durchgangs.") % {"value": round_text[:20]}
        )
    top = _number(top_text)
    if top_text and top is None:
        raise ExportError(_("„%(value)s“ ist keine Zahl von Plätzen.") % {"value": top_text[:20]})
    base_url = public_base_url(request)
    return ExportOptions(
        round_number=round_number,
        mode=mode if mode in Mode.values else None,
        top=min(MAX_TOP, max(1, top)) if top is not None else 3,
        # "" rather than None: no QR code, not the (loopback) default
        base_url=base_url if base_url is not None else "",
    )


def _download(request: HttpRequest, tournament: Tournament, exporter: BaseExporter) -> HttpResponse:
    try:
        result = exporter.render(_options(request))
    except ExportError as exc:
        messages.error(request, exc.message)
        return redirect("desk:dashboard", slug=tournament.slug)
    response = HttpResponse(result.content, content_type=result.content_type)
    response["Content-Disposition"] = content_disposition_header(True, result.filename)
    return response


@login_required
def pdf(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    tournament = desk_tournament(request, slug)
    if kind not in PDF_EXPORTERS:
        raise Http404
    return _download(request, tournament, PDF_EXPORTERS[kind](tournament))


@login_required
def xlsx(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = desk_tournament(request, slug)
    return _download(request, tournament, RankingsWorkbookExporter(tournament))


@login_required
def csv(request: HttpRequest, slug: str, table: str) -> HttpResponse:
    tournament = desk_tournament(request, slug)
    if table not in CsvExporter.TABLES:
        raise Http404
    return _download(request, tournament, CsvExporter(tournament, table))
