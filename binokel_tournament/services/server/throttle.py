"""A small rate limit for the pages without a login (the tables' links): at most ``limit``
requests per ``window`` seconds and key, counted in the cache the server's workers share
(``CACHES``: a folder in the data folder, so every gunicorn process sees the same counts)."""

from __future__ import annotations

import time

from .cache_guard import cache


def _bucket(key: str, window: int) -> str:
    return f"throttle:{key}:{int(time.time() // window)}"


def exceeded(key: str, limit: int, window: int) -> bool:
    """Whether ``key`` has had more than ``limit`` requests in this window (counts nothing)."""
    return int(cache.get(_bucket(key, window), 0)) > limit


def allow(key: str, limit: int, window: int) -> bool:
    """Count one request for ``key``; False once there were more than ``limit`` in this
    window (a fixed window: simple and good enough against guessing and loops). One call to
    the cache for all but a window's first request (a phone's every poll passes here)."""
    bucket = _bucket(key, window)
    try:
        count = cache.incr(bucket)
    except ValueError:  # the window's first request
        if cache.add(bucket, 1, timeout=window * 2):
            count = 1
        else:  # another request was first
            try:
                count = cache.incr(bucket)
            except ValueError:  # and its bucket expired since: a window of its own
                cache.set(bucket, 1, timeout=window * 2)
                count = 1
    return count <= limit
