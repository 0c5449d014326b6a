"""The public pages for a hall full of phones: each page is made once per change, not once per
request.

Public pages (standings, beamer, statistics, "Wo sitze ich?", the tournament page, ...) are kept
in Django's cache framework under a key that holds a *generation*: a random token that every
change the public pages show replaces. A page is never older than the last committed change:
the generation is read before the page is made, and a change replaces it (also) after its
transaction has committed, so a page kept under the current generation was made after every
change before it. One exception, for a hall of phones asking at once after a change: while
one request makes the new page, the others get the page made before it at once, under that
page's own ETag (views/cached.py), so their next poll gets the new one. The cache is the one in
``CACHES`` (settings): diskcache's SQLite files in the data folder that all the hall server's
workers share (services/server/laptop_cache.py), or Redis when ``CACHE_URL``/``REDIS_URL`` is
set. It is a helper: when it fails, pages are made fresh (services/server/cache_guard.py).

What changes the generation:

- every saved or deleted object of this app that public pages show (model signals), except the
  score sheets and their games: a sheet counts when it is or was counted (confirmed, or
  confirmed at the table), or, with the interim ranking ("Zwischenstand zeigen"), whenever a
  game is stored -- the sheet's one writer says so (:func:`sheet_changed`), and only for the
  pages that show results of its tournament and competition (a confirmation in the Einzel
  makes the Einzel standings anew, not the Paare standings);
- every audited change that is not a sheet's (bulk changes write no model signals, but they
  are audited: a registration batch, a seating, new start numbers);
- the start of the hall server (a change whose process was killed between its commit and its
  note must not leave an old page behind).
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save

from .cache_guard import cache, on_recovery

GENERATION_KEY = "binokel:public:generation"
APP_LABEL = "binokel_tournament"
# What public pages never show, or show through the sheet's writer: saved very often (typing
# drafts, the phones' activity, the audit entries themselves), they must not empty the cache.
NOT_SHOWN = {
    "SheetDraft",
    "SubmissionReceipt",
    "AuditLog",
    "TableEntry",
    "Membership",
    "ScoreSheet",
    "Game",
    "PartyResult",
}
# Scopes of the results: a counted sheet of competition C of tournament T changes the pages of
# the cups T counts in, of T and of C. Everything else changes the generation of all pages.


def cup_scope(slug: str) -> str:
    """The counted sheets of a cup's evenings (a cup counts only its own Verein's evenings, a
    district's cup its copies of the others': a save in another Verein leaves it as it is).
    Adding or removing an evening, a register merge or a new rule changes every page anyway."""
    return f"cup:{slug}"


def tournament_scope(slug: str) -> str:
    return f"t:{slug}"


def competition_scope(slug: str, mode: str) -> str:
    return f"c:{slug}:{mode}"


def entries_scope(slug: str) -> str:
    """What the tables entered, drafts included (the players' own pages show their games)."""
    return f"e:{slug}"


def _key(scope: str) -> str:
    return f"{GENERATION_KEY}:{scope}" if scope else GENERATION_KEY


# The interim ranking: entered games change the evening's results pages (standings, beamer,
# the players' places) in a flood, a few a second in a full hall. Such a change shows at once
# after a quiet spell, and otherwise with the next renewal, at most INTERIM_SECONDS later:
# the pages are made at most that often, not once per game. A confirmation shows at once.
INTERIM_SECONDS = 15.0
PENDING = ":pending"  # a change not shown yet (its generation)
SINCE = ":since"  # when the scope's generation was last renewed


def _now() -> float:
    return time.time()


def _held_back(scope: str) -> bool:
    """Scopes whose entered games are held back (the results of a tournament or competition)."""
    return scope.startswith(("t:", "c:"))


def generation(*scopes: str) -> str:
    """The current generation of pages that show these scopes (and everything else); each
    part is made on first use. A change held back (``changed_soon``) is shown here once its
    time has come."""
    keys = [_key(scope) for scope in ("", *scopes)]
    held = [_key(scope) for scope in scopes if _held_back(scope)]
    found = _read(keys + [k + PENDING for k in held] + [k + SINCE for k in held])
    due = {
        key: found[key + PENDING]
        for key in held
        if found.get(key + PENDING) is not None
        and _now() - float(found.get(key + SINCE) or 0) >= INTERIM_SECONDS
    }
    if due:
        _publish(due)
        found.update(due)
        _noted({**due, **{key + PENDING: None for key in due}})
    parts = []
    for key in keys:
        value = found.get(key)
        if value is None:
            value = uuid.uuid4().hex
            if not cache.add(key, value, None):  # another worker was first
                value = cache.get(key) or value
            _noted({key: value})
        parts.append(str(value))
    return ".".join(parts)


_reading = threading.local()  # within ``one_reading``: the generations' keys read so far


@contextmanager
def one_reading() -> Iterator[None]:
    """Within, each generation is read from the cache once: a public page's key, its parts
    and the figures they come from (a player's page asks for five sets of generations) see
    the same generations, at one cache round trip each, not one per question."""
    if getattr(_reading, "found", None) is not None:  # inside another: that one holds them
        yield
        return
    _reading.found = {}
    try:
        yield
    finally:
        _reading.found = None


def _read(keys: list[str]) -> dict[str, Any]:
    """``cache.get_many(keys)``, within ``one_reading`` each key from the cache once."""
    found: dict[str, Any] | None = getattr(_reading, "found", None)
    if found is None:
        return cache.get_many(keys)
    missing = [key for key in keys if key not in found]
    if missing:
        got = cache.get_many(missing)
        found.update({key: got.get(key) for key in missing})
    return {key: found[key] for key in keys if found[key] is not None}


def _noted(values: dict[str, Any]) -> None:
    """What this request wrote of the generations, for the rest of its ``one_reading``."""
    found: dict[str, Any] | None = getattr(_reading, "found", None)
    if found is not None:
        found.update(values)


T = TypeVar("T")
WAIT_SECONDS = 10.0  # how long a request waits for another that makes the same thing


MAKING = ":making"  # beside a key: somebody is making what it will keep
MAKING_SECONDS = int(WAIT_SECONDS) + 1  # how long a claim to make something holds at most


def made_elsewhere(key: str) -> Any:
    """None when this request is to make what ``key`` keeps (nobody else is making it, or the
    other took too long); otherwise what the other request made meanwhile. A hall of phones
    asking at once after a change has it made once, not once per phone."""
    if cache.add(key + MAKING, 1, MAKING_SECONDS):
        return None
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        time.sleep(0.02)
        kept = cache.get(key)
        if kept is not None:
            return kept
        if cache.get(key + MAKING) is None:  # the other gave up (an error): make it here
            break
    cache.add(key + MAKING, 1, MAKING_SECONDS)
    return None


def kept_or_made(key: str, make: Callable[[], T], seconds: int) -> T:
    """What ``key`` keeps, else made once by ``make`` (others asking meanwhile wait for it)
    and kept ``seconds``. ``make`` must not return None."""
    kept = cache.get(key)
    if kept is None:
        kept = made_elsewhere(key)
    if kept is not None:
        return kept  # type: ignore[no-any-return,unused-ignore]
    try:
        made = make()
        cache.set(key, made, seconds)
    finally:
        cache.delete(key + MAKING)
    return made


class Recent:
    """What this process read last under keys that hold their own generation (a new change,
    a new key): such a key's value never changes, so it is read from the cache (and
    unpickled) once per process, not once per request. At most ``size`` keys are held; then
    they are forgotten all at once (they are read again from the cache)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.held: dict[str, Any] = {}

    def get(self, key: str) -> Any:
        return self.held.get(key)

    def put(self, key: str, value: Any) -> None:
        if len(self.held) >= self.size:
            self.held = {}
        self.held[key] = value


_previous: dict[str, tuple[str, Any]] = {}  # per slot: the key and value this process had last


def kept_or_previous(key: str, make: Callable[[], T], seconds: int, slot: str) -> T:
    """Like :func:`kept_or_made`, for a value that every change in the hall makes anew (a
    competition's figures under the interim ranking) and that many requests read: the value
    is also kept in this process (no cache read while ``key`` stays current), and while another
    request makes the value of a new ``key``, this one takes what this process had last for
    ``slot`` (one change older) rather than waiting for it."""
    held = _previous.get(slot)
    if held is not None and held[0] == key:
        return held[1]
    kept = cache.get(key)
    if kept is None:
        if held is None:
            kept = kept_or_made(key, make, seconds)
        elif not cache.add(key + MAKING, 1, MAKING_SECONDS):
            return held[1]  # being made elsewhere
        else:
            try:
                kept = make()
                cache.set(key, kept, seconds)
            finally:
                cache.delete(key + MAKING)
    _previous[slot] = (key, kept)
    return kept


_batch = threading.local()  # the keys a batch of changes (``batched``) has collected


def changed(*scopes: str) -> None:
    """Every public page made so far that shows these scopes (no scope: every page) is out of
    date: now, and again once the current transaction has committed (a page made between the
    two from the state before the commit is then out of date too; a transaction that never
    commits, as in the tests, still shows). Within ``batched`` the keys are collected and
    renewed once, when the batch ends."""
    keys = [_key(scope) for scope in scopes] or [_key("")]
    collecting: set[str] | None = getattr(_batch, "keys", None)
    if collecting is not None:
        collecting.update(keys)
        return
    _renew(keys)


def changed_soon(*scopes: str) -> None:
    """Like :func:`changed` for an entered game under the interim ranking: at once when the
    scope's pages were last renewed INTERIM_SECONDS ago or longer, otherwise noted and shown
    by the first ``generation`` after that time (so a flood of games renews them at most that
    often)."""
    if getattr(_batch, "keys", None) is not None:
        changed(*scopes)
        return
    keys = [_key(scope) for scope in scopes]
    since = cache.get_many([key + SINCE for key in keys])
    now = [key for key in keys if _now() - float(since.get(key + SINCE) or 0) >= INTERIM_SECONDS]
    later = [key for key in keys if key not in now]
    if now:
        _renew(now)
    if later:
        cache.set_many({key + PENDING: uuid.uuid4().hex for key in later}, None)


def _publish(values: dict[str, str]) -> None:
    """These generations are the current ones from now on (held-back changes now due)."""
    stamp = _now()
    data: dict[str, object] = dict(values)
    data.update({key + SINCE: stamp for key in values})
    cache.set_many(data, None)
    cache.delete_many([key + PENDING for key in values])


def _renew(keys: Iterable[str]) -> None:
    chosen = sorted(set(keys))

    def renew() -> None:
        values: dict[str, object] = {key: uuid.uuid4().hex for key in chosen}
        held = [key for key in chosen if _held_back(key.removeprefix(GENERATION_KEY + ":"))]
        values.update({key + SINCE: _now() for key in held})
        cache.set_many(values, None)
        if held:
            cache.delete_many([key + PENDING for key in held])

    renew()
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(renew)


@contextmanager
def batched() -> Iterator[None]:
    """Many changes in one go (an evening taken in from a result file, a simulated round):
    the pages they make out of date are renewed once at the end, not once per saved object.
    The end is inside the caller's transaction, so the renewal after its commit follows as
    for a single change; when the batch fails, what it collected is renewed all the same."""
    if getattr(_batch, "keys", None) is not None:  # inside another batch: that one renews
        yield
        return
    _batch.keys = set()
    try:
        yield
    finally:
        keys, _batch.keys = _batch.keys, None
        if keys:
            _renew(keys)


def table_scope(tournament_slug: str, table_id: int) -> str:
    """What one table entered, drafts included: the pages of the players at that table show
    their games (a save elsewhere in the hall leaves their pages as they are)."""
    return f"e:{tournament_slug}:{table_id}"


def sheet_changed(
    tournament_slug: str,
    mode: str,
    status_before: str | None,
    status_after: str,
    table_id: int | None = None,
    interim: bool = False,
    cups: Iterable[str] = (),
) -> None:
    """A score sheet was stored: public pages count it when it is or was not a draft, and
    with the interim ranking ("Zwischenstand zeigen", ``interim``) the evening's pages count
    its entered games anyway (the cups, ``cups``: the slugs of those the tournament counts
    in, count only counted sheets; a lazy query is asked only then); the players' own pages
    show it anyway."""
    from ...models import SheetStatus

    scopes = [entries_scope(tournament_slug)]
    if table_id is not None:
        scopes.append(table_scope(tournament_slug, table_id))
    counted = status_before not in (None, SheetStatus.DRAFT) or status_after != SheetStatus.DRAFT
    results = (tournament_scope(tournament_slug), competition_scope(tournament_slug, mode))
    if counted:
        scopes += [*(cup_scope(slug) for slug in cups), *results]
    changed(*scopes)  # renewed together: one write to the cache (and one after the commit)
    if not counted and interim:
        changed_soon(*results)


def audited(action: str) -> None:
    """An audited change (see the module docstring)."""
    if not action.startswith(("sheet.", "login")):
        changed()


def _on_model_change(sender: Any, **kwargs: Any) -> None:
    meta = getattr(sender, "_meta", None)
    if meta is not None and meta.app_label == APP_LABEL and sender.__name__ not in NOT_SHOWN:
        changed()


def _after_an_outage() -> None:
    """The cache answers again: changes noted while it was down may not have reached it, so
    every page is made anew (services/server/cache_guard.py)."""
    cache.set(GENERATION_KEY, uuid.uuid4().hex, None)


def connect() -> None:
    """Listen to this app's model changes (called once, when the app is ready)."""
    for signal in (post_save, post_delete, m2m_changed):
        signal.connect(_on_model_change, dispatch_uid=f"binokel_public_cache_{id(signal)}")
    on_recovery(_after_an_outage)
