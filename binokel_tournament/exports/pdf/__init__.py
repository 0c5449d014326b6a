"""PDF exporters by the name the command line and the desk use."""

from __future__ import annotations

from .base import PdfExporter
from .charity import DonationsExporter, PrizesExporter, SubRankingsExporter
from .scoresheets import ScoreSheetsExporter
from .seating import SeatingPlanExporter, TableCardsExporter
from .slips import SlipsExporter
from .standings import CertificatesExporter, StandingsExporter
from .statistics import StatisticsExporter

PDF_EXPORTERS: dict[str, type[PdfExporter]] = {
    cls.identifier: cls
    for cls in (
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
    )
}

__all__ = [
    "PDF_EXPORTERS",
    "CertificatesExporter",
    "PdfExporter",
    "ScoreSheetsExporter",
    "SeatingPlanExporter",
    "StandingsExporter",
    "TableCardsExporter",
]
