"""The public pages for a hall full of phones: each page is made once per change, not once per
request.

Public pages (standings, beamer, statistics, "Wo sitze ich?", the tournament page, ...) are kept
in Django's cache framework under a key that holds a *generation*: a random token that every
change the public pages show replaces. A page is never older than the last committed change:
the generation is read before the page is made, and a change replaces it (also) after its
transaction has committed, so a page kept under the current generation was made after every
change before it. The cache is the one in ``CACHES`` (settings): a file cache in the data
folder that all the hall server's workers share, or Redis when ``CACHE_URL``/``REDIS_URL`` is
set.

What changes the generation:

- every saved or deleted object of this app that public pages show (model signals), except the
  score sheets and their games: a draft typed at the desk changes no public page, so a sheet
  counts when it is or was counted (confirmed, or confirmed at the table) -- the sheet's one
  writer says so (:func:`sheet_changed`);
- every audited change that is not a sheet's (bulk changes write no model signals, but they
  are audited: a registration batch, a seating, new start numbers);
- the start of the hall server (a change whose process was killed between its commit and its
  note must not leave an old page behind).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save

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


def generation() -> str:
    """The current generation (made on first use)."""
    value = cache.get(GENERATION_KEY)
    if value is None:
        value = uuid.uuid4().hex
        if not cache.add(GENERATION_KEY, value, None):  # another worker was first
            value = cache.get(GENERATION_KEY) or value
    return str(value)


def changed() -> None:
    """Every public page made so far is out of date: now, and again once the current
    transaction has committed (a page made between the two from the state before the commit
    is then out of date too; a transaction that never commits, as in the tests, still
    shows)."""
    _new_generation()
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(_new_generation)


def _new_generation() -> None:
    cache.set(GENERATION_KEY, uuid.uuid4().hex, None)


def sheet_changed(status_before: str | None, status_after: str) -> None:
    """A score sheet was stored: public pages count it when it is or was not a draft."""
    from ..models import SheetStatus

    if status_before not in (None, SheetStatus.DRAFT) or status_after != SheetStatus.DRAFT:
        changed()


def audited(action: str) -> None:
    """An audited change (see the module docstring)."""
    if not action.startswith(("sheet.", "login")):
        changed()


def _on_model_change(sender: Any, **kwargs: Any) -> None:
    meta = getattr(sender, "_meta", None)
    if meta is not None and meta.app_label == APP_LABEL and sender.__name__ not in NOT_SHOWN:
        changed()


def connect() -> None:
    """Listen to this app's model changes (called once, when the app is ready)."""
    for signal in (post_save, post_delete, m2m_changed):
        signal.connect(_on_model_change, dispatch_uid=f"binokel_public_cache_{id(signal)}")
