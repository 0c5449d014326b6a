"""Downloads from the desk: every PDF, the rankings workbook and the CSV tables, one click
each. The views only pick the exporter and pass the organiser's choices on."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.http import content_disposition_header

from ..exports import (
    PDF_EXPORTERS,
    BaseExporter,
    CsvExporter,
    ExportError,
    ExportOptions,
    RankingsWorkbookExporter,
)
from ..models import Mode
from .common import get_tournament

MAX_TOP = 50


def _options(request: HttpRequest) -> ExportOptions:
    round_text = request.GET.get("round", "")
    mode = request.GET.get("mode", "")
    top_text = request.GET.get("top", "")
    return ExportOptions(
        round_number=int(round_text) if round_text.isdigit() else None,
        mode=mode if mode in Mode.values else None,
        top=min(MAX_TOP, max(1, int(top_text))) if top_text.isdigit() else 3,
    )


def _download(request: HttpRequest, slug: str, exporter: BaseExporter) -> HttpResponse:
    try:
        result = exporter.render(_options(request))
    except ExportError as exc:
        messages.error(request, exc.message)
        return redirect("desk:dashboard", slug=slug)
    response = HttpResponse(result.content, content_type=result.content_type)
    response["Content-Disposition"] = content_disposition_header(True, result.filename)
    return response


@login_required
def pdf(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    tournament = get_tournament(slug)
    if kind not in PDF_EXPORTERS:
        raise Http404
    return _download(request, slug, PDF_EXPORTERS[kind](tournament))


@login_required
def xlsx(request: HttpRequest, slug: str) -> HttpResponse:
    return _download(request, slug, RankingsWorkbookExporter(get_tournament(slug)))


@login_required
def csv(request: HttpRequest, slug: str, table: str) -> HttpResponse:
    tournament = get_tournament(slug)
    if table not in CsvExporter.TABLES:
        raise Http404
    return _download(request, slug, CsvExporter(tournament, table))
