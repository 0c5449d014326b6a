"""Public pages kept in the cache (see services.public_cache): a page is made once per change
and language, and served to every phone that asks until the next change.

A kept page must not carry one visitor's things to another: it is kept only for visitors
without a login and without a message waiting for them, and the CSRF token of its language
switch is a placeholder in the kept copy, replaced by each visitor's own token when served."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation

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


Scopes = Callable[..., tuple[str, ...]]


def results_of_tournament(slug: str = "", **kwargs: Any) -> tuple[str, ...]:
    """A page that shows results of the whole tournament (beamer total, statistics, ...)."""
    return (public_cache.tournament_scope(slug),)


def results_of_competition(slug: str = "", mode: str = "", **kwargs: Any) -> tuple[str, ...]:
    """A page that shows the results of one competition (its standings)."""
    return (public_cache.competition_scope(slug, mode),)


def results_of_cups(**kwargs: Any) -> tuple[str, ...]:
    return (public_cache.SHEETS,)


def no_results(**kwargs: Any) -> tuple[str, ...]:
    return ()


def page_key(request: HttpRequest, scopes: tuple[str, ...]) -> str:
    raw = "|".join(
        (
            public_cache.generation(*scopes),
            translation.get_language() or "",
            request.get_full_path(),
        )
    )
    return "binokel:page:" + hashlib.sha256(raw.encode()).hexdigest()


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
            with public_names():  # names without consent show as "Startnummer 17"
                return serve(request, *args, **kwargs)

        def serve(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not keepable(request):
                return view(request, *args, **kwargs)
            key = page_key(request, scopes(**kwargs))  # read before the page is made
            kept = cache.get(key) or public_cache.made_elsewhere(key)
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
                        response["X-Binokel-Page"] = "made"
                finally:
                    cache.delete(key + ":making")
                return _personal(request, response)
            content, content_type = kept
            response = HttpResponse(_with_forecast(content), content_type=content_type)
            response["X-Binokel-Page"] = "kept"
            return _personal(request, response)

        return wrapped

    return decorate


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
