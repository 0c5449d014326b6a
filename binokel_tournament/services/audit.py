"""Audit trail: every change to a result or a seating records who, when, what before and after.

Every audited change of a tournament also asks for its automatic backup (once the change has
committed; see services.backup), so the newest backup follows the database whatever changed,
and tells the public pages' cache (services.public_cache)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from ..models import AuditLog, Tournament
from .access import account_id
from .server import public_cache
from .server.backup import schedule_backup


def audit_entry(
    tournament: Tournament | None,
    user: AbstractBaseUser | AnonymousUser | None,
    action: str,
    obj: Any,
    before: Any = None,
    after: Any = None,
) -> AuditLog:
    """An unsaved audit entry; ``log_action`` saves one, a bulk service saves many at once."""
    uid = account_id(user)
    return AuditLog(
        tournament=tournament,
        tournament_slug=tournament.slug if tournament is not None else "",
        tournament_name=tournament.name[:200] if tournament is not None else "",
        user_id=uid,
        username=user.get_username()[:150] if user is not None and uid is not None else "",
        action=action,
        object_type=type(obj).__name__,
        object_id=str(getattr(obj, "pk", obj)),
        before=before,
        after=after,
    )


def log_action(
    tournament: Tournament | None,
    user: AbstractBaseUser | AnonymousUser | None,
    action: str,
    obj: Any,
    before: Any = None,
    after: Any = None,
) -> AuditLog:
    entry = audit_entry(tournament, user, action, obj, before, after)
    entry.save()
    if tournament is not None:
        schedule_backup(tournament)
        public_cache.audited(action)
    return entry


def log_many(tournament: Tournament, entries: Iterable[AuditLog]) -> None:
    """Save many audit entries of one tournament at once (a registration batch)."""
    AuditLog.objects.bulk_create(entries)
    schedule_backup(tournament)
    public_cache.changed()


def changes(before: Any, after: Any) -> list[tuple[str, Any, Any]]:
    """What an audit entry changed, field by field (a sheet's typed entries one by one)."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return [] if before == after else [("", before, after)]
    out: list[tuple[str, Any, Any]] = []
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key), after.get(key)
        if isinstance(old, dict) or isinstance(new, dict):
            for sub, o, n in changes(old or {}, new or {}):
                out.append((f"{key}.{sub}" if sub else key, o, n))
        elif old != new:
            out.append((key, old, new))
    return out
