"""The shared cache is a helper, never a dependency (issue 36 item 17).

Public pages, the tables' rate limit and the pace forecast keep things in Django's cache: a
folder in the data folder, or Redis (``CACHE_URL``). When it fails -- a Redis that stopped or
was never reachable, a full disk -- every page is made fresh instead, the rate limit lets the
request through, and nothing is kept; the desk's dashboard says the cache is down
(:func:`problem`), the hall says so at its start, and the error log has one line per outage.

After a failure this process leaves the cache alone for ``RETRY_SECONDS`` (a Redis that does
not answer would otherwise cost every request its connection timeout per cache call), then
tries again. When the cache answers again, the generation of every public page is renewed: a
change noted while it was down must not leave a page made before it in the cache.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.core.cache import cache as _cache

logger = logging.getLogger("binokel.cache")

RETRY_SECONDS = 5.0
PROBE_KEY = "binokel:cache:probe"


def _cache_errors() -> tuple[type[BaseException], ...]:
    """What a failing cache raises: the laptop's cache (diskcache) OSError (a vanished
    folder), SQLite's errors (a full disk) or its Timeout (another process held the file too
    long), Redis its RedisError (ConnectionError, TimeoutError, ...)."""
    from diskcache import Timeout

    errors: list[type[BaseException]] = [OSError, EOFError, sqlite3.Error, Timeout]
    try:
        from redis.exceptions import RedisError
    except ImportError:  # pragma: no cover - redis is a dependency; without it no Redis cache
        pass
    else:
        errors.append(RedisError)
    return tuple(errors)


CACHE_ERRORS = _cache_errors()


class _Health:
    """This process's view of the cache: since when it failed, when it was last tried."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.down_since: float | None = None  # time.time() of the first failure
        self.tried_at = 0.0  # time.monotonic() of the last attempt while down
        self.problem = ""
        self.on_recovery: list[Callable[[], None]] = []

    def skip(self) -> bool:
        """Whether to leave the cache alone now (down, and tried only just now)."""
        with self.lock:
            if self.down_since is None:
                return False
            now = time.monotonic()
            if now - self.tried_at < RETRY_SECONDS:
                return True
            self.tried_at = now  # this call is the retry; the others go on without
            return False

    def failed(self, exc: BaseException) -> None:
        with self.lock:
            first = self.down_since is None
            if first:
                self.down_since = time.time()
            self.tried_at = time.monotonic()
            self.problem = f"{type(exc).__name__}: {exc}"[:300]
        if first:
            logger.error("cache not reachable, pages are made without it: %s", self.problem)

    def answered(self) -> None:
        if self.down_since is None:  # the usual case: no lock taken
            return
        with self.lock:
            if self.down_since is None:
                return
            self.down_since = None
            self.problem = ""
            hooks = list(self.on_recovery)
        logger.warning("cache reachable again")
        for hook in hooks:
            hook()


_health = _Health()


class GuardedCache:
    """The calls of Django's cache this app makes, each answering a harmless default when
    the cache fails: nothing kept (``get`` None), "this request makes it" (``add`` True),
    nothing stored (``set_many`` names every key as not stored), a count of 1 (``incr``)."""

    def _call(self, name: str, default: Any, *args: Any, **kwargs: Any) -> Any:
        if _health.skip():
            return default
        try:
            if _health.down_since is not None:
                # the retry: first a probe, so that the pages are renewed (on_recovery) before
                # this call reads a generation from before the outage
                _cache.get(PROBE_KEY)
                _health.answered()
            result = getattr(_cache, name)(*args, **kwargs)
        except CACHE_ERRORS as exc:
            _health.failed(exc)
            return default
        return result

    def get(self, key: str, default: Any = None) -> Any:
        return self._call("get", default, key, default)

    def get_many(self, keys: Iterable[str]) -> dict[str, Any]:
        keys = list(keys)
        return dict(self._call("get_many", {}, keys))

    def add(self, key: str, value: Any, timeout: Any = None) -> bool:
        return bool(self._call("add", True, key, value, timeout))

    def set(self, key: str, value: Any, timeout: Any = None) -> None:
        self._call("set", None, key, value, timeout)

    def set_many(self, data: Mapping[str, Any], timeout: Any = None) -> list[str]:
        return list(self._call("set_many", list(data), data, timeout) or [])

    def delete(self, key: str) -> None:
        self._call("delete", None, key)

    def delete_many(self, keys: Iterable[str]) -> None:
        self._call("delete_many", None, list(keys))

    def incr(self, key: str, delta: int = 1) -> int:
        """Raises ValueError for a missing key, as Django's cache does."""
        return int(self._call("incr", delta, key, delta))


cache = GuardedCache()


def on_recovery(hook: Callable[[], None]) -> None:
    """Call ``hook`` whenever the cache answers again after a failure."""
    _health.on_recovery.append(hook)


def problem() -> str:
    """Why the cache is down ("" when it answers): asks it now, unless this process tried it
    only just now."""
    cache.get(f"{PROBE_KEY}:{uuid.uuid4().hex}")
    return _health.problem


def down_since() -> float | None:
    """Since when (``time.time()``) the cache has not answered in this process; None: it does."""
    return _health.down_since


def check_at_start() -> str:
    """The hall's check before it serves: "" when the cache answers, else the problem. Asks
    the cache itself (a failure noted before does not stop this try)."""
    with _health.lock:
        _health.tried_at = 0.0
    return problem()


def reset() -> None:
    """Forget a failure noted before (the tests: each starts with a cache that answers)."""
    with _health.lock:
        _health.down_since = None
        _health.tried_at = 0.0
        _health.problem = ""


def where() -> str:
    """The cache's address to show (a Redis URL without its password, or the folder)."""
    from urllib.parse import urlsplit, urlunsplit

    from django.conf import settings

    location = str(settings.CACHES["default"].get("LOCATION", ""))
    parts = urlsplit(location)
    if parts.scheme and parts.hostname:
        netloc = parts.hostname + (f":{parts.port}" if parts.port else "")
        return urlunsplit((parts.scheme, netloc, parts.path, "", ""))
    return location
