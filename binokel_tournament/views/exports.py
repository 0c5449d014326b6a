"""Downloads from the desk: every PDF, the rankings workbook and the CSV tables, one click
each. The views only pick the exporter and pass the organiser's choices on — checked: a
round or a number of places that is not plain digits in range is a message, not a 500."""

from __future__ import annotations

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.urls import reverse
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
from ..exports.registry import exporter_class
from ..models import Mode, Tournament
from ..services.evening.seating import record_print
from ..services.server.public_links import request_base_url
from .common import desk_tournament

MAX_TOP = 50
MAX_TABLES = 300  # table numbers in one reprint link
# ASCII digits only ("²" and "٣" are digits to str.isdigit), short enough for any database
PLAIN_NUMBER = re.compile(r"[0-9]{1,4}")


def _number(text: str) -> int | None:
    return int(text) if PLAIN_NUMBER.fullmatch(text) else None


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
    tables_text = request.GET.get("tische", "")
    tables = tuple(
        int(t) for t in tables_text.split(",")[:MAX_TABLES] if re.fullmatch(r"[0-9]{1,5}", t)
    )
    if tables_text and not tables:
        raise ExportError(_("„%(value)s“ sind keine Tischnummern.") % {"value": tables_text[:20]})
    numbers_text = request.GET.get("nr", "")
    start_numbers = tuple(
        int(n) for n in numbers_text.split(",")[:MAX_TABLES] if re.fullmatch(r"[0-9]{1,6}", n)
    )
    if numbers_text and not start_numbers:
        raise ExportError(_("„%(value)s“ sind keine Startnummern.") % {"value": numbers_text[:20]})
    base_url = request_base_url(request)
    return ExportOptions(
        round_number=round_number,
        mode=mode if mode in Mode.values else None,
        top=min(MAX_TOP, max(1, top)) if top is not None else 3,
        # "" rather than None: no QR code, not the (loopback) default
        base_url=base_url if base_url is not None else "",
        tables=tables,
        paper=request.GET.get("format") or None,
        start_numbers=start_numbers,
    )


def _download(request: HttpRequest, tournament: Tournament, exporter: BaseExporter) -> HttpResponse:
    try:
        options = _options(request)
        result = exporter.render(options)
    except ExportError as exc:
        messages.error(request, exc.message)
        return redirect("desk:dashboard", slug=tournament.slug)
    record_print(
        tournament, request.user, exporter.identifier, options.round_number, options.tables
    )
    response = HttpResponse(result.content, content_type=result.content_type)
    # "anzeigen": open in the browser to print at once (the door's slip), else download
    inline = request.GET.get("anzeigen") == "1"
    disposition = content_disposition_header(not inline, result.filename)
    response["Content-Disposition"] = disposition or "attachment"
    return response


@login_required
def download(request: HttpRequest, slug: str, key: str) -> HttpResponse:
    """Any registered export by its key; the link's query carries round, mode, places and (for
    an exporter with variants, such as the CSV tables) the variant."""
    tournament = desk_tournament(request, slug)
    cls = exporter_class(key)
    if cls is None:
        raise Http404
    try:
        exporter = cls.for_query(tournament, request.GET)
    except ExportError as exc:
        messages.error(request, exc.message)
        return redirect("desk:dashboard", slug=tournament.slug)
    return _download(request, tournament, exporter)


# The first addresses of the downloads (…/export/pdf/<kind>/, …/export/excel/,
# …/export/csv/<table>/) are kept for bookmarks and scripts: after the same login and
# membership check, each forwards to the one download address of the registry, the query
# carried over (a plain redirect: browsers do not keep it, the old address stays an address).


def _moved(request: HttpRequest, slug: str, key: str, **extra: str) -> HttpResponse:
    desk_tournament(request, slug)  # who may not see the tournament learns nothing of it
    query = request.GET.copy()
    for name, value in extra.items():
        query[name] = value
    target = reverse("desk:export", args=[slug, key])
    return HttpResponseRedirect(f"{target}?{query.urlencode()}" if query else target)


@login_required
def pdf(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    if kind not in PDF_EXPORTERS:
        raise Http404
    return _moved(request, slug, kind)


@login_required
def xlsx(request: HttpRequest, slug: str) -> HttpResponse:
    return _moved(request, slug, RankingsWorkbookExporter.identifier)


@login_required
def csv(request: HttpRequest, slug: str, table: str) -> HttpResponse:
    if table not in CsvExporter.TABLES:
        raise Http404
    return _moved(request, slug, CsvExporter.identifier, table=table)
