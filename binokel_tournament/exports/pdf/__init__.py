"""The PDF exporters (each registered once, in ``exports/registry.py``)."""

from __future__ import annotations

from .base import PdfExporter
from .charity import DonationsExporter, PrizesExporter, SubRankingsExporter
from .scoresheets import ScoreSheetsExporter
from .seating import SeatingPlanExporter, TableCardsExporter
from .slips import SlipsExporter
from .standings import CertificatesExporter, StandingsExporter
from .statistics import StatisticsExporter

__all__ = [
    "CertificatesExporter",
    "DonationsExporter",
    "PdfExporter",
    "PrizesExporter",
    "ScoreSheetsExporter",
    "SeatingPlanExporter",
    "SlipsExporter",
    "StandingsExporter",
    "StatisticsExporter",
    "SubRankingsExporter",
    "TableCardsExporter",
]
