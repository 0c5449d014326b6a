"""Audit trail: every change to a result or a seating records who, when, what before and after."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from ..models import AuditLog, Tournament


def log_action(
    tournament: Tournament,
    user: AbstractBaseUser | AnonymousUser | None,
    action: str,
    obj: Any,
    before: Any = None,
    after: Any = None,
) -> AuditLog:
    return AuditLog.objects.create(
        tournament=tournament,
        user=user if user is not None and user.is_authenticated else None,
        action=action,
        object_type=type(obj).__name__,
        object_id=str(getattr(obj, "pk", obj)),
        before=before,
        after=after,
    )
