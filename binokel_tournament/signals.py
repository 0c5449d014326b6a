"""Logins, failed logins and lock-outs go into the audit log (as events of the installation:
no tournament). The password is never recorded; the username typed is (cut to 60 characters)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.dispatch import receiver
from django.http import HttpRequest

from .models import AuditLog
from .services.server.client_address import client_address

USERNAME_FIELD = "username"


def _client(request: HttpRequest | None) -> dict[str, str]:
    if request is None:
        return {}
    return {
        "ip": client_address(request)[:45],
        "agent": str(request.META.get("HTTP_USER_AGENT", ""))[:120],
    }


def log_login_event(action: str, username: str, request: HttpRequest | None) -> None:
    """One audit row of the installation (no tournament) about a login of ``username``."""
    user = get_user_model().objects.filter(username=username).first() if username else None
    AuditLog.objects.create(
        tournament=None,
        user=user,
        action=action,
        object_type="User",
        object_id=username[:60],
        after=_client(request),
    )


@receiver(user_logged_in, dispatch_uid="binokel_audit_login")
def audit_login(sender: object, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    log_login_event("login", user.get_username(), request)


@receiver(user_login_failed, dispatch_uid="binokel_audit_login_failed")
def audit_login_failed(
    sender: object, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
) -> None:
    log_login_event("login.failed", str(credentials.get(USERNAME_FIELD) or ""), request)


def audit_lockout(
    sender: object, request: HttpRequest | None = None, username: str = "", **kwargs: Any
) -> None:
    log_login_event("login.locked", str(username or ""), request)


def connect_lockout_signal() -> None:
    """django-axes' lock-out signal (connected once its app is loaded)."""
    from axes.signals import user_locked_out

    user_locked_out.connect(audit_lockout, dispatch_uid="binokel_audit_lockout")
