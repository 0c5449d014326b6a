"""The laptop's cache: diskcache's Django backend (SQLite files in the data folder that every
worker process of the hall server shares), with its connections kept open across requests.

Django closes every cache at the end of each request (``close_caches``, for memcached's
sake). diskcache's backend then closes its SQLite connections, and opens each shard's file
anew at the next request, reading its settings and setting its pragmas again: four SQL
statements per cache read instead of one. A player's page reads the cache a dozen times, so
most of a phone's "unchanged" answer went into opening files. The connections belong to their
thread and process (diskcache opens new ones after a fork) and close with them."""

from __future__ import annotations

from typing import Any

from diskcache import DjangoCache


class LaptopCache(DjangoCache):
    def close(self, **kwargs: Any) -> None:
        """Kept open (see the module docstring); ``close_connections`` closes them."""

    def close_connections(self) -> None:
        super().close()
