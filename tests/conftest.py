"""Settings and hooks for the whole suite, in every test process (pytest-xdist runs two):

- fast password hashing, a local-memory cache emptied before every test, automatic backups
  written synchronously into a temporary folder of this process;
- tests marked ``postgres`` are deselected unless DATABASE_URL names PostgreSQL;
- the slowest test files are handed out first, so that no process waits for one at the end.

Skipping for a missing real part (PostgreSQL, chromium) is ``tests.support.require``: it
skips locally and fails in CI (CI=true). Data built once per session: ``tests.dbsnapshot``."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings


def pytest_configure(config: pytest.Config) -> None:
    """Passwords in tests need no million PBKDF2 rounds (about 0.4 s per user otherwise).
    Automatic backups go to a folder of the test run, written in the saving thread."""
    import tempfile

    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # the tables' rate limit counts in a cache of this test process, emptied for every test
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.BACKUP_DIR = tempfile.mkdtemp(prefix="binokel-test-backups-")
    settings.BACKUP_STATUS_DIR = tempfile.mkdtemp(prefix="binokel-test-backup-status-")
    settings.BACKUP_IN_BACKGROUND = False


# Hypothesis' "too slow" health check measures the wall clock: on a loaded two-core machine it
# fails tests whose examples are fine. Every test's example count stays as it is.
settings.register_profile(
    "binokel", settings.get_profile("default"), suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("binokel")


@pytest.fixture(autouse=True, scope="session")
def _as_the_system() -> Iterator[None]:
    """The tests are the system, as manage.py is: they see every Verein. A request through
    the test client or a browser goes through the middleware, which scopes the desk to the
    account's Vereine (services/tenancy.py); threads a test starts see nothing until they say
    so (``tests.support.as_system``)."""
    from django_scopes import scopes_disabled

    with scopes_disabled():
        yield


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    from django.core.cache import cache

    from binokel_tournament.services.server import cache_guard

    cache.clear()
    cache_guard.reset()  # a cache that failed in another test answers in this one


# test files that take far longer than the rest (a real server killed ten times, a browser):
# handed out first, they run beside the many short files instead of after them
SLOW_FIRST = (  # the files that take longest (``--durations``), so none is left for the end
    "tests/web/test_crash.py",
    "tests/browser/",
    "tests/web/test_fuzz.py",
    "tests/web/test_roles.py",
    "tests/web/test_big_field.py",
)


@pytest.hookimpl(trylast=True)  # after pytest-django's ordering (transactional tests last)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``postgres`` run in the PostgreSQL pass of the suite (DATABASE_URL set to
    PostgreSQL, as .ci/run does) and are left out of the SQLite pass. The slow files first."""
    items.sort(key=lambda item: 0 if item.nodeid.startswith(SLOW_FIRST) else 1)  # stable
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        return
    keep, dropped = [], []
    for item in items:
        (dropped if item.get_closest_marker("postgres") else keep).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep
