"""The error log: each entry carries the request that failed (who, what page, what was typed)
and the traceback, so an error at the desk can be understood the next morning and nothing the
desk typed is lost even when the page that held it is gone."""

from __future__ import annotations

import io
import logging
import logging.handlers
import os
import re

from django.http import HttpRequest

from binokel_tournament.private_files import open_private

from .services.server.client_address import client_address

SECRET_FIELD = re.compile(r"pass|secret|token|csrf", re.IGNORECASE)
MAX_FIELDS = 400
MAX_VALUE = 300


def describe_request(request: HttpRequest) -> list[str]:
    """The lines that describe a request in the log; never raises (the database may be the
    very thing that failed, so the user is only named when it is already known)."""
    lines = [f"{request.method} {request.get_full_path()}"]
    error_id = getattr(request, "error_id", "")
    if error_id:
        lines.append(f"error id: {error_id}")
    try:
        user = request.user if hasattr(request, "user") else None
        name = user.get_username() if user is not None and user.is_authenticated else "-"
    except Exception:  # noqa: BLE001 - a log line must not fail for an unreadable user
        name = "?"
    lines.append(
        f"user: {name}  from: {client_address(request)}  "
        f"agent: {request.META.get('HTTP_USER_AGENT', '')[:120]}"
    )
    try:
        post = request.POST if request.method == "POST" else None
        files = request.FILES if request.method == "POST" else None
    except Exception:  # noqa: BLE001 - an unreadable body is reported, not raised
        post, files = None, None
        lines.append("form data: (unreadable)")
    if post:
        lines.append("form data:")
        for index, (key, values) in enumerate(post.lists()):
            if index >= MAX_FIELDS:
                lines.append("  …")
                break
            shown = "***" if SECRET_FIELD.search(key) else " | ".join(v[:MAX_VALUE] for v in values)
            lines.append(f"  {key[:80]} = {shown}")
    if files:
        for key, uploads in files.lists():
            upload = uploads[-1]  # as files[key] gives it
            lines.append(f"  file {key[:80]}: {upload.name!r}, {upload.size} bytes")
    return lines


class RequestFormatter(logging.Formatter):
    """``time LEVEL logger: message``, then the request (if the record has one), then the
    traceback."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        request = getattr(record, "request", None)
        if not isinstance(request, HttpRequest):
            return text
        head, _sep, rest = text.partition("\n")
        details = "\n".join("  " + line for line in describe_request(request))
        return f"{head}\n{details}" + (f"\n{rest}" if rest else "")


class PrivateRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """The error log's handler: a RotatingFileHandler whose files are readable by this account
    only (0600, whatever the umask; an existing looser file is made so), as they hold what the
    desk typed."""

    def _open(self) -> io.TextIOWrapper:
        fd = open_private(self.baseFilename, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        # appending, as the handler always opens its file here
        return open(fd, "a", encoding=self.encoding, errors=self.errors)  # noqa: SIM115
