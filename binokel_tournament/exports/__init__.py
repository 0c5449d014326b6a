"""Paper and Excel: seating plans, table cards, score sheets, standings and certificates as PDF;
the rankings workbook as .xlsx and its tables as CSV. Every exporter returns
``(filename, content_type, bytes)`` (see ``base.py``)."""

from __future__ import annotations

from .base import BaseExporter, ExportError, ExportFile, ExportOptions
from .csv import CsvExporter
from .excel import RankingsWorkbookExporter
from .registry import EXPORTERS, PDF_EXPORTERS

__all__ = [
    "EXPORTERS",
    "PDF_EXPORTERS",
    "BaseExporter",
    "CsvExporter",
    "ExportError",
    "ExportFile",
    "ExportOptions",
    "RankingsWorkbookExporter",
]
