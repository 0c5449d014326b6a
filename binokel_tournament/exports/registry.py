"""The exporter registry (pretix's ``register_data_exporters``): one key per exporter, the
exporter's ``identifier``. The command line, the desk's download URL and the desk's download
box are all built from it — a new export is one exporter class added to ``EXPORTERS``.

The download box: per round, every exporter that is offered per round (``per_round``), by its
``verbose_name``; then, for the whole tournament, every exporter's ``offers``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlencode

from django.urls import reverse

from ..models import Competition, Round, Tournament
from .base import BaseExporter
from .csv import CsvExporter
from .excel import RankingsWorkbookExporter
from .pdf import (
    CertificatesExporter,
    DonationsExporter,
    PdfExporter,
    PrizesExporter,
    ScoreSheetsExporter,
    SeatingPlanExporter,
    SlipsExporter,
    StandingsExporter,
    StatisticsExporter,
    SubRankingsExporter,
    TableCardsExporter,
)
from .pdf.base import round_title
from .result_file import ResultFileExporter

# Every exporter, once, in the order the desk's download box lists them.
EXPORTER_CLASSES: tuple[type[BaseExporter], ...] = (
    SeatingPlanExporter,
    TableCardsExporter,
    ScoreSheetsExporter,
    StandingsExporter,
    CertificatesExporter,
    DonationsExporter,
    PrizesExporter,
    SubRankingsExporter,
    StatisticsExporter,
    SlipsExporter,
    RankingsWorkbookExporter,
    CsvExporter,
    ResultFileExporter,
)
EXPORTERS: dict[str, type[BaseExporter]] = {cls.identifier: cls for cls in EXPORTER_CLASSES}
if len(EXPORTERS) != len(EXPORTER_CLASSES):  # a broken invariant: loud, at import
    raise ImportError("two exporters share an identifier")
# the PDFs (``manage.py export_pdf KIND``, ``/desk/<slug>/export/pdf/<kind>/``)
PDF_EXPORTERS: dict[str, type[PdfExporter]] = {
    key: cls for key, cls in EXPORTERS.items() if issubclass(cls, PdfExporter)
}


def exporter_class(key: str) -> type[BaseExporter] | None:
    """The exporter registered under ``key``, or ``None``."""
    return EXPORTERS.get(key)


@dataclass(frozen=True)
class Download:
    label: str
    url: str


@dataclass(frozen=True)
class DownloadRow:
    """One line of the download box: a round or an exporter, and its links."""

    label: str
    downloads: list[Download]


@dataclass(frozen=True)
class DownloadBox:
    rounds: list[DownloadRow]
    tournament: list[DownloadRow]


def download_url(tournament: Tournament, key: str, query: dict[str, str] | None = None) -> str:
    url = reverse("desk:export", args=[tournament.slug, key])
    return f"{url}?{urlencode(query)}" if query else url


def download_box(
    tournament: Tournament, rounds: Sequence[Round], competitions: Sequence[Competition]
) -> DownloadBox:
    """Every download the desk offers, from the registry (labels: ``verbose_name``)."""
    per_round = [cls for cls in EXPORTER_CLASSES if cls.per_round]
    round_rows = [
        DownloadRow(
            round_title(round_obj.number),
            [
                Download(
                    str(cls.verbose_name),
                    download_url(tournament, cls.identifier, {"round": str(round_obj.number)}),
                )
                for cls in per_round
            ],
        )
        for round_obj in rounds
    ]
    tournament_rows = []
    for cls in EXPORTER_CLASSES:
        offers = cls.offers(competitions)
        if offers:
            downloads = [
                Download(offer.label, download_url(tournament, cls.identifier, dict(offer.query)))
                for offer in offers
            ]
            tournament_rows.append(DownloadRow(str(cls.verbose_name), downloads))
    return DownloadBox(round_rows, tournament_rows)
