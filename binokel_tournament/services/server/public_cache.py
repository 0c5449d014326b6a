"""The public pages for a hall full of phones: each page is made once per change, not once per
request.

Public pages (standings, beamer, statistics, "Wo sitze ich?", the tournament page, ...) are
kept in Django's cache framework under a key that holds a *generation*: a random token that
every change the public pages show replaces. A page is never older than the last committed
change: the generation is read before the page is made, and a change replaces it (also) after
its transaction has committed, so a page kept under the current generation was made after every
change before it. Two exceptions, for a hall of phones asking at once after a change: while one
request makes the new page, the others get the page made before it at once, under that page's
own ETag (views/cached.py), so their next poll gets the new one; and in a flood of results (ten
desks confirming a sheet every other second, the tables entering games) a change of results
waits for the next renewal of its scope, a few seconds at most (below). The cache is the one in
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

from django.conf import settings
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


# Results come in floods. The interim ranking: entered games change the evening's results
# pages (standings, beamer, the players' places) a few times a second in a full hall; and ten
# desks confirm a sheet every other second. Each renewal makes the competition's standings
# anew (about 0.1 s for 1,000 entrants) and every phone's next poll gets new pages. So a
# change of results shows at once after a quiet spell, and otherwise with the next renewal:
# an entered game at most INTERIM_SECONDS later, a counted (confirmed) sheet at most
# ``settings.PUBLIC_RESULTS_SECONDS`` later. The pages are made at most that often, not once
# per game or sheet.
INTERIM_SECONDS = 15.0
PENDING = ":pending"  # an entered game not shown yet: the generation that will show it
PENDING_RESULTS = ":pending-results"  # likewise a counted sheet
SINCE = ":since"  # when the scope's generation was last renewed
# A change is shown once its pending generation is the scope's generation. Renewing puts the
# same new value in both pending places; every held-back change notes its pending value again
# after its transaction has committed, so a value published (or overwritten by a renewal)
# before the commit leaves one behind that is published later.


def results_seconds() -> float:
    """How long a counted sheet may wait in a flood before the results pages show it."""
    return float(getattr(settings, "PUBLIC_RESULTS_SECONDS", 0))


def _now() -> float:
    return time.time()


def _held_back(scope: str) -> bool:
    """Scopes whose changes are held back in a flood (the results of a tournament, a
    competition, a cup)."""
    return scope.startswith(("t:", "c:", "cup:"))


def _due(found: dict[str, Any], key: str, now: float) -> str | None:
    """The pending generation of ``key`` whose time has come, if any."""
    current = found.get(key)
    since = float(found.get(key + SINCE) or 0)
    for place, seconds in ((PENDING_RESULTS, results_seconds()), (PENDING, INTERIM_SECONDS)):
        value = found.get(key + place)
        if value is not None and value != current and now - since >= seconds:
            return str(value)
    return None


def _together(scope: str) -> list[str]:
    """The scopes whose held-back changes are shown together with those of ``scope``: a
    tournament's results and its competitions' (a sheet renews them together). A page or a
    figure that shows several of them (a player's place: the tournament's and the Einzel's) is
    then made once per renewal, not once for each as the pages asking for one publish it."""
    if scope.startswith("t:"):
        slug = scope.removeprefix("t:")
    elif scope.startswith("c:"):
        slug = scope.removeprefix("c:").rpartition(":")[0]
    else:
        return [scope]
    from ...models import Mode

    return [tournament_scope(slug), *(competition_scope(slug, mode) for mode in Mode.values)]


def generation(*scopes: str) -> str:
    """The current generation of pages that show these scopes (and everything else); each
    part is made on first use. A change held back (``changed_soon``) is shown here once its
    time has come."""
    keys = [_key(scope) for scope in ("", *scopes)]
    held = sorted({_key(s) for scope in scopes if _held_back(scope) for s in _together(scope)})
    extra = [k + place for k in held for place in (PENDING, PENDING_RESULTS, SINCE)]
    found = _read(list(dict.fromkeys(keys + held)) + extra)
    now = _now()
    due = {key: value for key in held if (value := _due(found, key, now)) is not None}
    if due:
        published = _publish(due)
        found.update(published)
        _noted(published)
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


def changed_soon(*scopes: str, within: float | None = None) -> None:
    """Like :func:`changed` for a change of results in a flood (an entered game under the
    interim ranking; with ``within``, a counted sheet): at once when the scope's pages were
    last renewed that long ago or longer (INTERIM_SECONDS for a game), otherwise noted and
    shown by the first ``generation`` after that time. After the transaction has committed,
    what was renewed at once is renewed again at once (as :func:`changed` does) and the rest
    noted again (a renewal between the two was made from the state before the commit)."""
    if getattr(_batch, "keys", None) is not None:
        changed(*scopes)
        return
    seconds = INTERIM_SECONDS if within is None else within
    place = PENDING if within is None else PENDING_RESULTS

    def note(keys: list[str]) -> list[str]:
        """Renews the keys due, notes the others; returns those renewed."""
        since = cache.get_many([key + SINCE for key in keys])
        now = _now()
        at_once = [key for key in keys if now - float(since.get(key + SINCE) or 0) >= seconds]
        later = [key for key in keys if key not in at_once]
        if at_once:
            _renew_now(at_once)
        if later:
            cache.set_many({key + place: uuid.uuid4().hex for key in later}, None)
        return at_once

    keys = [_key(scope) for scope in scopes]
    renewed = note(keys)
    if transaction.get_connection().in_atomic_block:

        def after_commit() -> None:
            if renewed:
                _renew_now(renewed)
            rest = [key for key in keys if key not in renewed]
            if rest:
                note(rest)

        transaction.on_commit(after_commit)


def _publish(values: dict[str, str]) -> dict[str, Any]:
    """These generations are the current ones from now on (held-back changes now due); what
    was written."""
    stamp = _now()
    data: dict[str, object] = {}
    for key, value in values.items():
        data.update({key: value, key + SINCE: stamp, key + PENDING: value})
        data[key + PENDING_RESULTS] = value
    cache.set_many(data, None)
    return data


def _renew_now(keys: Iterable[str]) -> None:
    values: dict[str, object] = {}
    for key in sorted(set(keys)):
        value = uuid.uuid4().hex
        values[key] = value
        if _held_back(key.removeprefix(GENERATION_KEY + ":")):
            values.update({key + SINCE: _now(), key + PENDING: value, key + PENDING_RESULTS: value})
    cache.set_many(values, None)


def _renew(keys: Iterable[str]) -> None:
    chosen = sorted(set(keys))
    _renew_now(chosen)
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(lambda: _renew_now(chosen))


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
    changed(*scopes)  # renewed together: one write to the cache (and one after the commit)
    if counted:
        changed_soon(*(cup_scope(slug) for slug in cups), *results, within=results_seconds())
    elif interim:
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
