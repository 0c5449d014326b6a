"""Phones on one event loop (aiohttp), for the benchmarks that put a hall of phones on a
server: a thread per phone (hundreds of them) took the cores from the server they measured.
Each phone holds one connection, kept alive, as a browser tab does for its polls, and asks
again with the ETag of what it holds (``If-None-Match``), as a browser does."""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter

import aiohttp

TIMEOUT = aiohttp.ClientTimeout(total=60)


class Figures:
    """What a server answered the phones (made in the phones' process, sent back as a dict)."""

    def __init__(self) -> None:
        self.pages: list[float] = []
        self.openings: list[float] = []  # the table phones' first page, during the warm-up
        self.firsts: list[float] = []  # of ``pages``: each phone's first request of a page
        self.games: list[float] = []
        self.errors: list[str] = []
        self.kinds: Counter[str] = Counter()
        self.by_kind: dict[str, list[float]] = {}  # of ``pages``: the times per kind of answer
        self.acked_games: dict[int, int] = {}  # table -> games the server acknowledged

    def error(self, text: str) -> None:
        self.errors.append(text[:240])

    @classmethod
    def from_dict(cls, held: dict) -> Figures:
        figures = cls()
        vars(figures).update(held)
        return figures


def one_connection() -> aiohttp.TCPConnector:
    """A phone holds one connection (kept alive), as a browser tab does for its polls."""
    return aiohttp.TCPConnector(limit=1)


def session() -> aiohttp.ClientSession:
    return aiohttp.ClientSession(
        timeout=TIMEOUT, connector=one_connection(), cookie_jar=aiohttp.CookieJar(unsafe=True)
    )


async def pause_until(moment: float) -> None:
    await asyncio.sleep(max(0.0, moment - time.monotonic()))


async def get(
    http: aiohttp.ClientSession, url: str, figures: Figures, headers: dict[str, str] | None = None
) -> str | None:
    """One request, its time and the kind of answer counted; the body, or None on an error."""
    began = time.perf_counter()
    try:
        async with http.get(url, headers=headers) as reply:
            body = await reply.text()
            status, kind = reply.status, reply.headers.get("X-Binokel-Page", "not kept")
    except (TimeoutError, aiohttp.ClientError) as exc:
        figures.error(f"{url}: {exc!r}")
        return None
    figures.pages.append(time.perf_counter() - began)
    figures.kinds[kind] += 1
    if status not in (200, 304):
        figures.error(f"HTTP {status} {url}")
    return body


async def page_run(
    urls: tuple[str, ...],
    every: float,
    figures: Figures,
    start: float,
    seconds: float,
    phone: int | None = None,
) -> None:
    """A phone keeping a page open: asked again every ``every`` seconds (the first time at a
    moment of its own within the first interval), taking ``urls`` in turn, each with the ETag
    of what the phone holds of it. Phones that keep the same pages open need a number each
    (``phone``): the moment is drawn from it and the first address."""
    async with session() as http:
        seed = urls[0] if phone is None else f"{phone}|{urls[0]}"
        at = start + random.Random(seed).uniform(0, every)
        held: dict[str, str] = {}
        polls = 0
        while at < start + seconds:
            await pause_until(at)
            url = urls[polls % len(urls)]
            began = time.perf_counter()
            try:
                asked = {"If-None-Match": held[url]} if url in held else None
                async with http.get(url, headers=asked) as r:
                    await r.read()
                    status, kind = r.status, r.headers.get("X-Binokel-Page", "not kept")
                    if status == 200 and "ETag" in r.headers:
                        held[url] = r.headers["ETag"]
            except (TimeoutError, aiohttp.ClientError) as exc:
                figures.error(f"{url}: {exc!r}")
            else:
                figures.pages.append(time.perf_counter() - began)
                if polls < len(urls):
                    figures.firsts.append(figures.pages[-1])
                figures.kinds[kind] += 1
                figures.by_kind.setdefault(kind, []).append(figures.pages[-1])
                if status not in (200, 304):
                    figures.error(f"HTTP {status} {url}")
            at += every
            polls += 1
