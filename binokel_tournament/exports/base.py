"""The exporter interface (pretix ``base/exporter.py``): an exporter is made for one tournament,
``render(options)`` returns ``ExportFile(filename, content_type, content)`` — a plain
``(filename, content_type, bytes)`` tuple, so a view, a command or a test can use it as is.

List exporters (Excel, CSV) share their rows (``rows.py``); PDF exporters take their data from
the services and draw with layout constants in millimetres (``pdf/``)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, NamedTuple

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..models import Competition, Tournament
from ..services.errors import DeskError


class ExportFile(NamedTuple):
    filename: str
    content_type: str
    content: bytes


@dataclass(frozen=True)
class ExportOptions:
    """What the organiser picked: a round (``None``: every round, or the whole tournament for
    standings), a competition mode (``None``: every competition), how many places get a
    certificate; and the address at which players reach the public pages, for the seating
    plan's QR code (``None``: ``settings.PUBLIC_BASE_URL``; ``""``: none, no QR code)."""

    round_number: int | None = None
    mode: str | None = None
    top: int = 3
    base_url: str | None = None
    # only these tables (hall numbers) of the round: the reprint after a re-plan; empty: all
    tables: tuple[int, ...] = ()
    # the players' slips: the paper ("80mm", "a6"; None: 80 mm) and only these start numbers
    paper: str | None = None
    start_numbers: tuple[int, ...] = ()


class ExportError(DeskError):
    """Nothing to export (no seating yet, an unknown round …): a message for the organiser."""


def checked_round(tournament: Tournament, number: object) -> int | None:
    """``number`` when the tournament has such a round (1 ≤ N ≤ its rounds), ``None`` for
    none; otherwise an ``ExportError`` saying which rounds there are."""
    if number is None:
        return None
    if (
        isinstance(number, int)
        and not isinstance(number, bool)
        and 1 <= number <= tournament.rounds
    ):
        return number
    message = ngettext(
        "Durchgang %(n)s gibt es nicht: Das Turnier hat nur einen Durchgang.",
        "Durchgang %(n)s gibt es nicht: Das Turnier hat die Durchgänge 1 bis %(rounds)s.",
        tournament.rounds,
    ) % {"n": number, "rounds": tournament.rounds}
    raise ExportError(message, "round")


@dataclass(frozen=True)
class Offer:
    """One download the desk offers for the whole tournament: its label and the query it
    passes (``{"mode": "pairs"}``, ``{"table": "spiele"}``)."""

    label: str
    query: Mapping[str, str] = field(default_factory=dict)


def competition_offers(competitions: Sequence[Competition]) -> list[Offer]:
    """One offer per competition (``?mode=…``), labelled with its name."""
    return [Offer(str(c.get_mode_display()), {"mode": c.mode}) for c in competitions]


class OfferedWhole:
    """An exporter's ``offers`` (mixed in before the exporter class): once, for the whole
    tournament."""

    @classmethod
    def offers(cls, competitions: Sequence[Competition]) -> list[Offer]:
        return [Offer(_("alle Wertungen"))]


class OfferedPerCompetition:
    """An exporter's ``offers``: all competitions together, then each on its own."""

    @classmethod
    def offers(cls, competitions: Sequence[Competition]) -> list[Offer]:
        return [Offer(_("alle Wertungen"))] + competition_offers(competitions)


class BaseExporter(ABC):
    """An exporter: its registry key (``identifier``: the command line's and the URL's name,
    one per exporter), the label the desk shows (``verbose_name``), the file name's stem, the
    extension and content type; ``per_round``: the desk offers it for each round
    (``?round=N``); ``offers``: what it offers for the whole tournament."""

    identifier: ClassVar[str]
    verbose_name: ClassVar[Promise | str]
    file_stem: ClassVar[str]
    extension: ClassVar[str]
    content_type: ClassVar[str]
    per_round: ClassVar[bool] = False

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament

    @classmethod
    def for_query(cls, tournament: Tournament, query: Mapping[str, str]) -> BaseExporter:
        """The exporter for a download link's query (an exporter with variants, such as the
        CSV tables, reads its own parameter)."""
        return cls(tournament)

    @classmethod
    def offers(cls, competitions: Sequence[Competition]) -> list[Offer]:
        """What the desk offers for the whole tournament (none: only per round)."""
        return []

    @abstractmethod
    def render(self, options: ExportOptions | None = None) -> ExportFile:
        """Build the file."""

    def round_number(self, options: ExportOptions) -> int | None:
        """The round asked for, checked against the tournament (see ``checked_round``)."""
        return checked_round(self.tournament, options.round_number)

    def filename(self, *parts: object) -> str:
        """``<slug>-<file_stem>[-part…].<ext>``, safe for a download header."""
        pieces = [self.tournament.slug, self.file_stem, *(str(p) for p in parts if p)]
        return "-".join(pieces) + "." + self.extension
