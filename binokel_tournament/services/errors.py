"""The desk's user-facing error: a translated, field-addressed message for the organiser."""

from __future__ import annotations

from django.utils.translation import get_language

from scoring.errors import EngineError


class DeskError(Exception):
    """An organiser's mistake (not a bug): shown as a message, nothing saved is lost."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def active_language() -> str:
    """The language the engines' messages are shown in: the desk's current one."""
    return get_language() or "de"


def engine_error_text(error: EngineError) -> str:
    return " ".join(e.text(active_language()) for e in error.errors)
