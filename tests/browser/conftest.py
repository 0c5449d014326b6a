"""Playwright driving Debian's chromium (never a downloaded browser) against live_server."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import require

from .support import STATE_TIMEOUT_MS

# Playwright's sync API keeps an event loop in this thread; the ORM calls in the tests are
# still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# as root, headless, and nothing of its own on a closed network
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    require(
        Path(CHROMIUM).exists(), "Debian's chromium is not installed (apt-get install chromium)"
    )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server):  # type: ignore[no-untyped-def]
    context = browser.new_context(locale="de-DE", base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(STATE_TIMEOUT_MS)
    yield page
    context.close()


@pytest.fixture
def evening(db):  # type: ignore[no-untyped-def]
    """The demo evening (46 Einzel, rounds 1–2 scored, public pages on) from its fixture:
    loading it is much quicker than dealing its games again."""
    from django.conf import settings
    from django.core.management import call_command

    from binokel_tournament.models import Tournament

    call_command("loaddata", str(settings.BASE_DIR / "fixtures" / "demo.json"), verbosity=0)
    t = Tournament.objects.get()
    t.public_pages = True
    t.save()
    return t
