"""Helpers shared by the test packages."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

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


@contextmanager
def rolled_back(django_db_blocker: Any) -> Iterator[None]:
    """Data a test module builds once (a module-scoped fixture), in a transaction rolled back
    when the module is done: the next module finds the database as it was."""
    from django.db import transaction

    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)


def start_round(round_obj: Any, user: Any = None, despite_open: bool = True) -> bool:
    """The desk starts a round (the rounds' one writer); the tests do not stop at the question
    about an earlier round's open tables unless they ask for it."""
    from binokel_tournament.services.rounds.writer import RoundChange, change_round

    return change_round(round_obj, RoundChange.START, user, despite_open=despite_open)


def as_system(target: Any) -> Any:
    """A thread's target that runs as the system (every Verein), as the test itself does."""
    import functools

    from django_scopes import scopes_disabled

    @functools.wraps(target)
    def run(*args: Any, **kwargs: Any) -> Any:
        with scopes_disabled():
            return target(*args, **kwargs)

    return run
