"""The exporter interface (pretix ``base/exporter.py``): an exporter is made for one tournament,
``render(options)`` returns ``ExportFile(filename, content_type, content)`` — a plain
``(filename, content_type, bytes)`` tuple, so a view, a command or a test can use it as is.

List exporters (Excel, CSV) share their rows (``rows.py``); PDF exporters take their data from
the services and draw with layout constants in millimetres (``pdf/``)."""

from __future__ import annotations

import ipaddress
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar, NamedTuple
from urllib.parse import urlsplit

from django.utils.functional import Promise
from django.utils.translation import ngettext

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
    certificate; and the address at which players reach the public pages, for the seating
    plan's QR code (``None``: ``settings.PUBLIC_BASE_URL``; ``""``: none, no QR code)."""

    round_number: int | None = None
    mode: str | None = None
    top: int = 3
    base_url: str | None = None


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


def is_loopback_url(url: str) -> bool:
    """Whether ``url`` names this computer only (127.x, ::1, localhost, 0.0.0.0): an address
    that works in the organiser's browser but not on a player's phone."""
    try:
        host = (urlsplit(url.strip()).hostname or "").rstrip(".").lower()
    except ValueError:  # an unclosed "[" and the like
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped  # ::ffff:127.0.0.1
    return address.is_loopback or address.is_unspecified


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

    def round_number(self, options: ExportOptions) -> int | None:
        """The round asked for, checked against the tournament (see ``checked_round``)."""
        return checked_round(self.tournament, options.round_number)

    def filename(self, *parts: object) -> str:
        """``<slug>-<identifier>[-part…].<ext>``, safe for a download header."""
        pieces = [self.tournament.slug, self.identifier, *(str(p) for p in parts if p)]
        return "-".join(pieces) + "." + self.extension
