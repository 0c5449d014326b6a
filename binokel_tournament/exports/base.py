"""The exporter interface (pretix ``base/exporter.py``): an exporter is made for one tournament,
``render(options)`` returns ``ExportFile(filename, content_type, content)`` — a plain
``(filename, content_type, bytes)`` tuple, so a view, a command or a test can use it as is.

List exporters (Excel, CSV) share their rows (``rows.py``); PDF exporters take their data from
the services and draw with layout constants in millimetres (``pdf/``)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from django.utils.functional import Promise

from ..models import Tournament
from ..services.errors import DeskError


class ExportFile(NamedTuple):
    filename: str
    content_type: str
    content: bytes


@dataclass(frozen=True)
class ExportOptions:
    """What the organiser picked: a round (``None``: every round, or the whole tournament for
    standings), a competition mode (``None``: every competition), how many places get a
    certificate."""

    round_number: int | None = None
    mode: str | None = None
    top: int = 3


class ExportError(DeskError):
    """Nothing to export (no seating yet, an unknown round …): a message for the organiser."""


class BaseExporter(ABC):
    identifier: ClassVar[str]
    verbose_name: ClassVar[Promise | str]
    extension: ClassVar[str]
    content_type: ClassVar[str]

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament

    @abstractmethod
    def render(self, options: ExportOptions | None = None) -> ExportFile:
        """Build the file."""

    def filename(self, *parts: object) -> str:
        """``<slug>-<identifier>[-part…].<ext>``, safe for a download header."""
        pieces = [self.tournament.slug, self.identifier, *(str(p) for p in parts if p)]
        return "-".join(pieces) + "." + self.extension
