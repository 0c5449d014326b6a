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
    window (a fixed window: simple and good enough against guessing and loops)."""
    bucket = _bucket(key, window)
    cache.add(bucket, 0, timeout=window * 2)
    try:
        count = cache.incr(bucket)
    except ValueError:  # expired between add and incr
        cache.set(bucket, 1, timeout=window * 2)
        count = 1
    return count <= limit
