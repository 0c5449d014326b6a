"""Error pages that tell the desk what to do. They render without the database or the
session (either may be what failed) and in the desk's language (German, English available)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseForbidden,
    HttpResponseNotFound,
    HttpResponseServerError,
)
from django.template.loader import render_to_string
from django.utils import timezone
from django.views.decorators.csrf import requires_csrf_token


def _page(template: str, **context: object) -> str:
    return render_to_string(f"errors/{template}", context)


@requires_csrf_token
def server_error(request: HttpRequest) -> HttpResponse:
    """500: nothing typed is lost (it is still on the previous page, and in the error log);
    try again; where the log is. The error id is in the log entry too."""
    error_id = f"{timezone.localtime():%H%M%S}-{secrets.token_hex(2)}"
    request.error_id = error_id  # type: ignore[attr-defined]  # picked up by logs.RequestFormatter
    # where the log lies on the server is for the organisers, not for everyone
    log_file = settings.ERROR_LOG_FILE if _organiser(request) else None
    return HttpResponseServerError(_page("500.html", error_id=error_id, log_file=log_file))


def _organiser(request: HttpRequest) -> bool:
    """A logged-in organiser (of any tournament) or administrator; False whenever that cannot
    be told (the error may be the database's)."""
    try:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return False
        from ..models import Membership, Role
        from ..services.access import CREATE_TOURNAMENT_PERMISSION

        if user.is_superuser or user.has_perm(CREATE_TOURNAMENT_PERMISSION):
            return True
        return Membership.objects.filter(user=user, role=Role.ORGANISER).exists()
    except Exception:  # noqa: BLE001 - an error page must not fail on the way
        return False


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return HttpResponseBadRequest(_page("400.html"))


def bad_characters(request: HttpRequest) -> HttpResponse:
    return HttpResponseBadRequest(_page("400.html", null_character=True))


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    message = str(exception) if exception is not None and str(exception) else ""
    return HttpResponseForbidden(_page("403.html", message=message))


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return HttpResponseNotFound(_page("404.html"))
