"""Who sent a request: the one client address every flood limit counts (the online
registration, the tables' links, the logins through django-axes) and the logs name.

Without ``TRUSTED_PROXIES`` it is the peer of the connection (``REMOTE_ADDR``), whatever the
request says about itself. Behind a reverse proxy (nginx, Caddy) every request comes from the
proxy, so every visitor would share one limit: list the proxy's address in ``TRUSTED_PROXIES``
(addresses or networks such as ``127.0.0.1`` or ``10.0.0.0/8``) and, for a request from such
a peer, the client is read from ``X-Forwarded-For`` with django-ipware: the right-most entry
that is not itself a trusted proxy (what the proxy saw; anything a client wrote further left
is its own claim and ignored). ``X-Forwarded-For`` from any other peer is ignored."""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest
from ipware import get_client_ip

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
FORWARDED_HEADER = "HTTP_X_FORWARDED_FOR"
UNKNOWN = "?"


@lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)


def trusted_networks() -> tuple[Network, ...]:
    """The ``TRUSTED_PROXIES`` setting as networks (settings.py refuses a bad entry at
    start-up)."""
    return _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ()) or ()))


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def is_trusted(text: str, networks: tuple[Network, ...] | None = None) -> bool:
    """Whether the address ``text`` is one of the trusted proxies."""
    address = _address(text)
    if address is None:
        return False
    return any(
        address.version == net.version and address in net
        for net in (trusted_networks() if networks is None else networks)
    )


def client_address(request: HttpRequest) -> str:
    """The client's address as the server should count it (see the module's text)."""
    peer = str(request.META.get("REMOTE_ADDR", "") or "").strip()
    networks = trusted_networks()
    if not networks or not is_trusted(peer, networks) or not request.META.get(FORWARDED_HEADER):
        return peer or UNKNOWN
    client = peer
    # hop by hop from the right: the first entry that is no trusted proxy is the client
    for hops in range(len(str(request.META[FORWARDED_HEADER]).split(","))):
        found, _routable = get_client_ip(
            request,
            proxy_order="left-most",
            proxy_count=hops,
            request_header_order=[FORWARDED_HEADER],
            strict=False,
        )
        if found is None:
            break  # an entry that is no address: keep the last good one
        client = found
        if not is_trusted(found, networks):
            break
    return client


def login_address(request: HttpRequest) -> str | None:
    """The client address for django-axes (``AXES_CLIENT_IP_CALLABLE``): the same address,
    or None when the request names none (a test client's or a unix socket's request) — axes
    stores it in an address column."""
    address = client_address(request)
    return address if _address(address) is not None else None
