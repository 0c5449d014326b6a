"""The public-address and QR-code policy, in one place: at which address players' phones reach
the server, which URL a QR code on a printout or a desk page points to, and how a QR code is
drawn (segno makes every code; nothing else in the project calls it).

The policy:

- The public address is ``PUBLIC_BASE_URL`` (``manage.py hall`` sets it to this laptop's
  address in the hall). A printout gets its QR code and printed link only when the address is
  one a phone can reach: an address of this computer only (127.0.0.1, localhost, ::1, 0.0.0.0)
  prints no code at all rather than one that cannot be opened (``printed_url``).
- A download from the desk uses ``PUBLIC_BASE_URL`` when it is such an address, else the
  address the organiser's browser used for the desk, unless that is loopback too
  (``request_base_url``). Every link a player receives follows the same rule: the sign-up's
  and the move-up's e-mails (none with links to this computer only) and the confirmation
  page (``player_base_url``: there the browser's own address when nothing else is known).
- A table's own link (entering its games on a phone) is ``/tisch/<token>/`` at the address
  the desk itself is reached at (``table_url`` with the request), or at a given address
  (``table_url`` with ``base_url``, e.g. ``manage.py table_links --base-url``), for printing
  only at a phone-reachable one (``printed_table_url``).

QR codes: error correction level M; as inline SVG for pages (``qr_svg``), as vector squares on
a reportlab canvas (``draw_qr``) or as a reportlab ``Drawing`` (``qr_drawing``) for PDFs —
crisp at any size, with a quiet zone of two modules."""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol
from urllib.parse import urlsplit

import segno
from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

if TYPE_CHECKING:
    from reportlab.graphics.shapes import Drawing
    from reportlab.pdfgen.canvas import Canvas

    from ...models import Tournament

QR_ERROR = "m"  # error correction: 15 % of the code may be damaged or covered
QR_QUIET_MODULES = 2  # white border around a code, in modules
QR_DARK = "#1d2430"  # the pages' ink colour for an on-screen code
QR_SCALE = 6  # pixels per module of an on-screen code
LOOPBACK_NAMES = ("localhost",)


class HasEntryToken(Protocol):
    entry_token: str


def public_base_url() -> str:
    """The configured address of the public pages (``PUBLIC_BASE_URL``), without a trailing
    slash; may be empty or loopback."""
    return str(getattr(settings, "PUBLIC_BASE_URL", "") or "").strip().rstrip("/")


def is_loopback_url(url: str) -> bool:
    """Whether ``url`` names this computer only (127.x, ::1, localhost, 0.0.0.0): an address
    that works in the organiser's browser but not on a player's phone."""
    try:
        host = (urlsplit(url.strip()).hostname or "").rstrip(".").lower()
    except ValueError:  # an unclosed "[" and the like
        return False
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped  # ::ffff:127.0.0.1
    return address.is_loopback or address.is_unspecified


def is_full_url(url: str) -> bool:
    """Whether ``url`` is a complete http(s) address with a host."""
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname
    except ValueError:
        return False
    return bool(host) and parts.scheme in ("http", "https")


def phone_reachable(url: str) -> bool:
    """Whether a phone in the hall could open ``url``: a full address, not a loopback one."""
    return is_full_url(url) and not is_loopback_url(url)


def request_base_url(request: HttpRequest) -> str | None:
    """Where players' phones reach the public pages, for a download from the desk: the
    configured ``PUBLIC_BASE_URL`` when it is a real address (the operator set it for just
    this), else the address the organiser's browser used for the desk — unless that is this
    computer's own (127.0.0.1, localhost), which a phone cannot reach: then none."""
    configured = public_base_url()
    if configured and not is_loopback_url(configured):
        return configured
    here = request.build_absolute_uri("/")
    return None if is_loopback_url(here) else here.rstrip("/")


def player_base_url(request: HttpRequest) -> str:
    """The address of every link a player receives on a page (the confirmation's QR codes):
    ``request_base_url``, else (this computer only) the address this browser used."""
    return request_base_url(request) or request.build_absolute_uri("/").rstrip("/")


def printed_url(path: str, base_url: str | None = None) -> str | None:
    """The absolute URL of ``path`` for a printout or its QR code, at ``base_url`` (default:
    ``PUBLIC_BASE_URL``; ``""``: none). ``None`` when that address is missing or names this
    computer only: a phone could not open it, so nothing is printed."""
    base = (public_base_url() if base_url is None else base_url.strip()).rstrip("/")
    if not base or is_loopback_url(base):
        return None
    return base + path


def where_url(tournament: Tournament, base_url: str | None = None) -> str | None:
    """The public "Wo sitze ich?" page of the tournament, for the seating plan's QR code (see
    ``printed_url``)."""
    return printed_url(reverse("public:where", args=[tournament.slug]), base_url)


def table_path(table: HasEntryToken) -> str:
    """The path of a table's own page (``/tisch/<token>/``)."""
    return reverse("table:page", args=[table.entry_token])


def table_url(
    table: HasEntryToken, base_url: str | None = None, request: HttpRequest | None = None
) -> str:
    """A table's link as an absolute URL: at the address the desk's ``request`` came in on,
    else at ``base_url``, else at ``PUBLIC_BASE_URL`` — as it is, loopback included (the desk
    sees a warning then); for paper use ``printed_table_url``."""
    if request is not None:
        return request.build_absolute_uri(table_path(table))
    base = (base_url if base_url is not None else public_base_url()).strip().rstrip("/")
    return base + table_path(table)


def personal_url(token: str, base_url: str | None = None) -> str:
    """A player's own page as an absolute URL at ``base_url`` (else ``PUBLIC_BASE_URL``)."""
    base = (base_url if base_url is not None else public_base_url()).strip().rstrip("/")
    return base + reverse("public:personal", args=[token])


def printed_table_url(table: HasEntryToken, base_url: str | None = None) -> str | None:
    """A table's link for a table card or a pre-filled score sheet: only at an address a
    phone can reach (see ``printed_url``), else ``None`` (print no code)."""
    return printed_url(table_path(table), base_url)


@lru_cache(maxsize=512)
def _modules(url: str) -> tuple[tuple[bool, ...], ...]:
    """The code's dark modules, row by row (remembered: a round's cards repeat addresses)."""
    return tuple(tuple(bool(m) for m in row) for row in segno.make(url, error=QR_ERROR).matrix)


def _dark_runs(url: str) -> list[tuple[int, int, int]]:
    """The dark modules as horizontal runs ``(row, first column, length)``."""
    runs = []
    for r, row in enumerate(_modules(url)):
        start = None
        for col, dark in enumerate((*row, False)):
            if dark and start is None:
                start = col
            elif not dark and start is not None:
                runs.append((r, start, col - start))
                start = None
    return runs


def qr_svg(url: str, scale: int = QR_SCALE, dark: str = QR_DARK) -> SafeString:
    """A QR code of ``url`` as inline SVG for a page (safe: segno's own markup of a URL)."""
    svg = segno.make(url, error=QR_ERROR).svg_inline(scale=scale, dark=dark)
    return mark_safe(svg)  # noqa: S308 - segno's own SVG; the URL is escaped inside it


def draw_qr(c: Canvas, x: float, y: float, size: float, url: str) -> None:
    """A QR code of ``url`` as vector squares on a reportlab canvas: a white square of
    ``size`` points with its lower-left corner at (x, y), the code inside its quiet zone."""
    from reportlab.lib.colors import black, white

    modules = len(_modules(url))
    cell = size / (modules + 2 * QR_QUIET_MODULES)
    c.setFillColor(white)
    c.rect(x, y, size, size, stroke=0, fill=1)
    c.setFillColor(black)
    for r, first, length in _dark_runs(url):
        top = y + size - (QR_QUIET_MODULES + r + 1) * cell
        c.rect(x + (QR_QUIET_MODULES + first) * cell, top, length * cell, cell, stroke=0, fill=1)


def qr_drawing(url: str, size: float) -> Drawing:
    """A QR code of ``url`` as a reportlab ``Drawing`` of ``size`` × ``size`` points (for a
    platypus flowable or ``renderPDF.draw(drawing, canvas, x, y)``)."""
    from reportlab.graphics.shapes import Drawing, Rect
    from reportlab.lib.colors import black, white

    modules = len(_modules(url))
    cell = size / (modules + 2 * QR_QUIET_MODULES)
    drawing = Drawing(size, size)
    drawing.add(Rect(0, 0, size, size, fillColor=white, strokeColor=None))
    for r, first, length in _dark_runs(url):
        top = size - (QR_QUIET_MODULES + r + 1) * cell
        left = (QR_QUIET_MODULES + first) * cell
        drawing.add(Rect(left, top, length * cell, cell, fillColor=black, strokeColor=None))
    return drawing
