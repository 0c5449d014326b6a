"""Helpers for the browser tests: logging in, the sheet's fields by the desk's own names, and
waiting until the live check shows the newest typing state."""

from __future__ import annotations

import faulthandler
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from binokel_tournament.services.sheets import sheet_fields as F

# How long a wait for a state (a text, a selector, a page) may take before it fails: the waits
# are for states, never for time, and on a loaded two-core machine a page with a server in the
# same process can take well over ten seconds to arrive.
STATE_TIMEOUT_MS = 45_000

SETTLED = (
    "(() => { const f = document.getElementById('sheet'); return f && f.dataset.ready === '1'"
    " && (!f.dataset.typed || f.dataset.shown === f.dataset.typed); })()"
)


def login(page, username: str = "orga", password: str = "binokel") -> None:
    page.goto("/anmelden/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.keyboard.press("Enter")
    page.wait_for_url("**/desk/**")


def game(n: int, attr: str) -> str:
    return f'[name="{F.game_field(n, attr)}"]'


def cell(n: int, column: int, attr: str) -> str:
    return f'[name="{F.column_field(n, column, attr)}"]'


SHEET_STATE = (
    "(() => { const f = document.getElementById('sheet'), a = document.getElementById('autosave'),"
    " p = document.getElementById('save-problem');"
    " return JSON.stringify({form: f ? Object.assign({}, f.dataset) : null,"
    " autosave: a ? [a.dataset.state, a.textContent] : null,"
    " problem: p && !p.hidden ? p.textContent : null, url: location.href,"
    " buttons: Array.from(document.querySelectorAll('#sheet button[type=submit]'))"
    ".map(b => b.disabled),"
    " messages: Array.from(document.querySelectorAll('ul.messages:not(#save-problem)'))"
    ".map(m => m.textContent)}); })()"
)


@contextmanager
def explained(page, shows: str, awaited: str) -> Iterator[None]:
    """A wait that fails says what the page showed instead (``shows``: a script returning it),
    not only that the time ran out."""
    try:
        yield
    except PlaywrightTimeoutError:
        # what the live server's threads were doing meanwhile (shown with the failure): a
        # request stuck in the server looks different from one the page never sent
        faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
        raise AssertionError(
            f"{awaited} never came; the page shows {page.evaluate(shows)}"
        ) from None


def wait_sheet(page, expression: str) -> None:
    """Wait for a state of the desk sheet; when it does not come, say what the page showed
    instead (the sheet's sequence numbers, the autosave line, a save problem)."""
    with explained(page, SHEET_STATE, expression):
        page.wait_for_function(expression)


def wait_saved(page, text: str = "Entwurf gespeichert") -> None:
    """Wait for the desk sheet's report of a save; when it does not come, say what the page
    showed instead."""
    with explained(page, SHEET_STATE, f"the message {text!r}"):
        page.wait_for_selector(f"text={text}")


def settle(page) -> None:
    """Wait until the page shows the live check of exactly what is typed now."""
    wait_sheet(page, SETTLED)


def type_game(page, n: int, declarer: str, bid: str, melds, tricks) -> None:
    page.locator(game(n, "declarer")).fill(declarer)
    page.locator(game(n, "bid")).fill(bid)
    for col, value in melds.items():
        page.locator(cell(n, col, "meld")).fill(value)
    for col, value in tricks.items():
        page.locator(cell(n, col, "tricks")).fill(value)


def phone_table():  # type: ignore[no-untyped-def]
    """A started round-1 table of three (Anna, Bernd, Christa) whose games a phone enters; the
    organiser "orga" (password binokel) runs the desk."""
    from django.contrib.auth import get_user_model

    from binokel_tournament.models import Membership, Mode, Role
    from binokel_tournament.services.evening.registration import create_tournament, register_entrant
    from binokel_tournament.services.evening.seating import generate_seating
    from tests.support import start_round

    orga = get_user_model().objects.create_user("orga", password="binokel")
    t = create_tournament("Handyturnier", modes=[Mode.SINGLES], rounds=1)
    Membership.objects.create(tournament=t, user=orga, role=Role.ORGANISER)
    for name in ("Anna Häußler", "Bernd Schäfer", "Christa Dürr"):
        register_entrant(t.competitions.get(), name)
    generate_seating(t.competitions.get())
    start_round(t.round_set.get(), orga)
    return t.round_set.get().tables.get()


def phone(browser, live_server=None):
    """A phone (390×844, touch, German) of ``browser``; relative addresses go to the live
    server when one is given."""
    context = browser.new_context(
        base_url=live_server.url if live_server is not None else None,
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="de-DE",
    )
    page = context.new_page()
    page.set_default_timeout(STATE_TIMEOUT_MS)
    return context, page
