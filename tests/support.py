"""Helpers shared by the test packages."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "test-artifacts"


def require(condition: bool, reason: str) -> None:
    """Skip locally when a real part (PostgreSQL, chromium) is missing; fail in CI."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"required in CI: {reason}")
    pytest.skip(reason)


def artifact(name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / name
