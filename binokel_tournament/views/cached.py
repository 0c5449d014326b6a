"""Public pages kept in the cache (see services.public_cache): a page is made once per change
and language, and served to every phone that asks until the next change.

A kept page must not carry one visitor's things to another: it is kept only for visitors
without a login and without a message waiting for them, and the CSRF token of its language
switch is a placeholder in the kept copy, replaced by each visitor's own token when served.

Each kept page carries its key as a (weak) ETag: a phone that asks again with it
(``If-None-Match``) while nothing the page shows has changed gets "304 Not Modified" -- no page
read from the cache, no bytes sent (``live.js`` asks that way every few seconds)."""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags

from ..models import public_names
from ..services.evening import pace
from ..services.server import public_cache
from ..services.server.cache_guard import cache

PLACEHOLDER = "binokel-kept-page-csrf-token"
# the forecast's part of a page (templates/_pace.html): put in place when a kept page is served
PACE_PART = re.compile(rb"<!--binokel-pace:([\w-]+)-->.*?<!--/binokel-pace-->", re.DOTALL)
FLAG = "binokel_kept_page"

View = Callable[..., HttpResponse]


def kept_page_csrf(request: HttpRequest) -> dict[str, Any]:
    """Context processor: a page that will be kept carries the placeholder token."""
    return {"csrf_token": PLACEHOLDER} if getattr(request, FLAG, False) else {}


@dataclass(frozen=True)
class Shows:
    """What a page shows, for its key: the scopes of the results it shows (their generations),
    and ``facts``, the very values it shows of results that change far more often than they
    (a player's place and total out of a ranking that every game in the hall changes)."""

    scopes: tuple[str, ...]
    facts: str = ""
    # parts of the page that change far more often than the rest (a player's place and total
    # out of a ranking that every sheet in the hall changes): name -> their HTML of now, each
    # between <!--binokel-part:NAME--> and <!--/binokel-part:NAME--> in the page. The kept page
    # is served with them put in place, and they are in its ETag, not in its key.
    parts: tuple[tuple[str, str], ...] = ()

    def tag(self) -> str:
        """A short fingerprint of the parts ("" for none)."""
        if not self.parts:
            return ""
        return "-" + hashlib.sha256(repr(self.parts).encode()).hexdigest()[:10]

    def fill(self, content: bytes) -> bytes:
        """``content`` with the parts of now in place."""
        for name, html in self.parts:
            now = html.encode()
            content = _part(name).sub(lambda _match: now, content, count=1)  # noqa: B023
        return content


@functools.cache
def _part(name: str) -> re.Pattern[bytes]:
    """Where the part ``name`` sits in a page (compiled once per name)."""
    mark = re.escape(name.encode())
    return re.compile(
        rb"<!--binokel-part:" + mark + rb"-->.*?<!--/binokel-part:" + mark + rb"-->", re.DOTALL
    )


Scopes = Callable[..., "tuple[str, ...] | Shows"]


def results_of_tournament(slug: str = "", **kwargs: Any) -> tuple[str, ...]:
    """A page that shows results of the whole tournament (beamer total, statistics, ...)."""
    return (public_cache.tournament_scope(slug),)


def results_of_competition(slug: str = "", mode: str = "", **kwargs: Any) -> tuple[str, ...]:
    """A page that shows the results of one competition (its standings)."""
    return (public_cache.competition_scope(slug, mode),)


def results_of_cup(slug: str = "", **kwargs: Any) -> tuple[str, ...]:
    """A cup's page (its standings): the counted sheets of its evenings."""
    return (public_cache.cup_scope(slug),)


def no_results(**kwargs: Any) -> tuple[str, ...]:
    return ()


def page_key(request: HttpRequest, shows: tuple[str, ...] | Shows) -> str:
    if not isinstance(shows, Shows):
        shows = Shows(shows)
    raw = "|".join(
        (
            public_cache.generation(*shows.scopes),
            translation.get_language() or "",
            request.get_full_path(),
            shows.facts,
        )
    )
    return "binokel:page:" + hashlib.sha256(raw.encode()).hexdigest()


def etag_of(key: str, forecast: str = "") -> str:
    """The ETag of the page kept under ``key`` (weak: each visitor's copy has its own CSRF
    token) with the forecast it shows, which is put in when the page is served."""
    return f'W/"{key.removeprefix("binokel:page:")[:32]}{forecast}"'


def _validated(response: HttpResponse, etag: str) -> HttpResponse:
    """Stored by the browser, but asked for again each time (with its ETag)."""
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response


def keepable(request: HttpRequest) -> bool:
    return (
        request.method in ("GET", "HEAD")
        and not request.user.is_authenticated
        and len(messages.get_messages(request)) == 0
    )


# While one worker makes a page, the others wait for it rather than make it too (a hall of
# phones asks for the standings the moment a result changes them), at most this long.


def public_page(scopes: Scopes) -> Callable[[View], View]:
    """Serve the view's page from the cache while nothing it shows has changed; ``scopes``
    (of the view's URL arguments) says which results it shows (see services.public_cache)."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            # names without consent show as "Startnummer 17"; each generation read once
            with public_names(), public_cache.one_reading():
                return serve(request, *args, **kwargs)

        def serve(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not keepable(request):
                return view(request, *args, **kwargs)
            shows = scopes(**kwargs)
            if not isinstance(shows, Shows):
                shows = Shows(shows)
            key = page_key(request, shows)  # read before the page is made
            # a page with the forecast or parts answers 304 only while they are the same too
            etag = etag_of(key, _forecast_tag(cache.get(key + PACE_OF)) + shows.tag())
            asked = parse_etags(request.headers.get("If-None-Match", ""))
            if etag in asked or etag.removeprefix("W/") in asked:
                unchanged = HttpResponseNotModified()
                unchanged["X-Binokel-Page"] = "unchanged"
                return _validated(unchanged, etag)
            kept = cache.get(key)
            making = key + public_cache.MAKING
            if kept is None and not cache.add(making, 1, public_cache.MAKING_SECONDS):
                # another request is making this page: the one before it, at once, rather
                # than wait (its ETag is that page's: the next poll gets the new one)
                previous = _previous(request)
                if previous is not None:
                    return _serve(request, previous, shows, "previous")
                kept = public_cache.made_elsewhere(key)
            if kept is None:
                setattr(request, FLAG, True)
                try:
                    response = view(request, *args, **kwargs)
                    if response.status_code == 200 and not response.streaming:
                        cache.set(
                            key,
                            (response.content, response["Content-Type"]),
                            settings.PUBLIC_CACHE_SECONDS,
                        )
                        cache.set(_last_key(request), key, settings.PUBLIC_CACHE_SECONDS)
                        response["X-Binokel-Page"] = "made"
                        slug = _pace_slug(response.content)
                        if slug is not None:
                            cache.set(key + PACE_OF, slug, settings.PUBLIC_CACHE_SECONDS)
                        response.content = shows.fill(response.content)
                        _validated(response, etag_of(key, _forecast_tag(slug) + shows.tag()))
                finally:
                    cache.delete(making)
                return _personal(request, response)
            return _serve(request, (key, *kept), shows, "kept")

        return wrapped

    return decorate


def _serve(
    request: HttpRequest, kept: tuple[str, bytes, str], shows: Shows, kind: str
) -> HttpResponse:
    """The page kept under ``kept[0]``, with the forecast and parts of now."""
    key, content, content_type = kept
    slug = _pace_slug(content)
    if slug is not None and cache.get(key + PACE_OF) is None:  # kept apart, lost
        cache.set(key + PACE_OF, slug, settings.PUBLIC_CACHE_SECONDS)
    response = HttpResponse(shows.fill(_with_forecast(content)), content_type=content_type)
    response["X-Binokel-Page"] = kind
    etag = etag_of(key, _forecast_tag(slug) + shows.tag())
    return _personal(request, _validated(response, etag))


def _last_key(request: HttpRequest) -> str:
    """Where the key of the last page made for this address and language is noted."""
    raw = f"{translation.get_language() or ''}|{request.get_full_path()}"
    return "binokel:last:" + hashlib.sha256(raw.encode()).hexdigest()


def _previous(request: HttpRequest) -> tuple[str, bytes, str] | None:
    """The last page made for this address and language, while it is kept (one change
    older than the one being made)."""
    key = cache.get(_last_key(request))
    kept = cache.get(key) if key else None
    return (key, *kept) if kept is not None else None


PACE_OF = ":pace"  # beside a kept page: the tournament whose forecast it shows


def _pace_slug(content: bytes) -> str | None:
    found = PACE_PART.search(content)
    return found.group(1).decode() if found else None


def _forecast_tag(slug: str | None) -> str:
    """A short fingerprint of the forecast a page of ``slug`` shows now ("" for none)."""
    if not slug:
        return ""
    line = pace.pace_line(pace.kept_forecast(slug))
    if line is None:
        return ""
    return "-" + hashlib.sha256(f"{line.text}|{line.basis}".encode()).hexdigest()[:10]


def _with_forecast(content: bytes) -> bytes:
    """A kept page with the evening's forecast of now: the forecast moves with every game a
    table enters and with the time, which no page's scope follows, so the one kept forecast
    (services/evening/pace.py, at most ``KEEP_SECONDS`` old) takes the place of the one the
    page was made with: beamer, board and every player's page show the same."""
    if b"<!--binokel-pace:" not in content:
        return content

    def fresh(match: re.Match[bytes]) -> bytes:
        slug = match.group(1).decode()
        line = pace.pace_line(pace.kept_forecast(slug))
        return render_to_string("_pace.html", {"pace": line, "pace_slug": slug}).strip().encode()

    return PACE_PART.sub(fresh, content)


def _personal(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """The visitor's own CSRF token in place of the placeholder (and its cookie)."""
    if not response.streaming and PLACEHOLDER.encode() in response.content:
        response.content = response.content.replace(
            PLACEHOLDER.encode(), get_token(request).encode()
        )
    return response
