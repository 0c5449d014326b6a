"""The pairing engine's user-facing error (the organiser's mistake), built on the shared type."""

from __future__ import annotations

from scoring.errors import N_, EngineError, FieldError

__all__ = ["FieldError", "N_", "PairingError"]


class PairingError(EngineError):
    """Entrants that cannot be seated, a malformed plan, an impossible re-plan request."""
