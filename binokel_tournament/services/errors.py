"""The desk's user-facing error: a translated, field-addressed message for the organiser."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import get_language

from scoring.errors import EngineError


class DeskError(Exception):
    """An organiser's mistake (not a bug): shown as a message, nothing saved is lost."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def engine_messages(error: EngineError) -> Mapping[str, list[str]]:
    """An engine error's messages by field, in the active language."""
    return error.by_field(get_language() or "de")


def engine_error_text(error: EngineError) -> str:
    return " ".join(e.text(get_language() or "de") for e in error.errors)
