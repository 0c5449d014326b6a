"""Reading JSON input: the engine's one type boundary.

Games, rule sets and meld counts arrive as JSON; their ``from_dict`` readers check every value's
type here and report a wrong one as a field error. Past that boundary the dataclasses hold the
types their annotations promise (a wrong type built in code is a bug and raises ``TypeError``).
"""

from __future__ import annotations

import json
from typing import TypeGuard

from scoring import messages as M
from scoring.errors import FieldError, ScoringError


def is_int(value: object) -> TypeGuard[int]:
    """A whole number; ``True``/``False`` are not numbers here."""
    return isinstance(value, int) and not isinstance(value, bool)


def load_json(text: str | bytes) -> object:
    """Parse JSON text; anything unreadable (bad syntax, bad UTF-8, nested too deeply) raises
    ScoringError on the empty field instead of an exception of the parser."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ScoringError([FieldError.of("", M.JSON_TOO_DEEP)]) from None
    except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError
        raise ScoringError([FieldError.of("", M.INVALID_JSON, detail=str(exc))]) from None
