"""One table, one truth, on real phones (390×844, touch): two phones on one link, the second is
told and shown both versions and chooses; a desk correction appears on the phone in words; the
call for the desk is green only once the desk has it."""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth import get_user_model

from binokel_tournament.models import ScoreSheet
from binokel_tournament.services.sheets import sheet_fields as F
from binokel_tournament.services.sheets.table_entry import (
    acknowledge_call,
    save_game,
    table_by_token,
)
from binokel_tournament.services.sheets.writer import save_sheet
from tests.support import artifact

from .support import STATE_TIMEOUT_MS, explained, phone, phone_table
from .test_table_phone import PHONE_STATE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ALL_SENT = "document.getElementById('status').dataset.state === 'ok'"
GAME = {
    "kind": "played",
    "declarer": 1,
    "bid": 200,
    "columns": [{"meld": 60, "tricks": 152}, {"meld": 20, "tricks": 58}, {"meld": 0, "tricks": 40}],
}


@pytest.fixture
def table(db, settings):
    settings.TABLE_POLL_SECONDS = 1  # the phones look for changes every second here
    return phone_table()


def open_phone(browser, live_server, table):
    context, page = phone(browser, live_server)
    page.goto(f"/tisch/{table.entry_token}/")
    page.wait_for_selector("#table-app[data-ready='1']")
    page.locator("#seats").evaluate(
        "node => node.hidden || node.querySelector('button:last-child').click()"
    )
    page.wait_for_selector("#seats", state="hidden")
    return context, page


def type_game(page, n: int, bid: str, save: bool = True) -> None:
    card = page.locator(f'#game-card[data-game="{n}"]')
    with explained(page, PHONE_STATE, f"the card of game {n}"):
        card.wait_for()
    card.locator('[data-declarer="1"]').tap()
    card = page.locator(f'#game-card[data-game="{n}"]')
    card.locator('[data-field="bid"]').fill(bid)
    for column, meld, tricks in ((1, "60", "152"), (2, "20", "58")):
        card.locator(f'[data-field="meld"][data-column="{column}"]').fill(meld)
        card.locator(f'[data-field="tricks"][data-column="{column}"]').fill(tricks)
    card.locator('[data-field="meld"][data-column="3"]').fill("0")
    if save:
        card.locator("#save-game").tap()


def stored_bid(table, n: int) -> str | None:
    return ScoreSheet.objects.get(table=table).entries.get(F.game_field(n, "bid"))


def test_two_phones_on_one_link_the_second_sees_both_versions_and_chooses(
    browser, live_server, table
):
    context_a, a = open_phone(browser, live_server, table)
    context_b, b = open_phone(browser, live_server, table)
    # phone B starts on game 1 while phone A enters and sends game 1
    b.locator('#game-card[data-game="1"] [data-declarer="1"]').tap()
    type_game(a, 1, "200")
    a.wait_for_function(ALL_SENT)
    assert stored_bid(table, 1) == "200"
    type_game(b, 1, "180")
    conflict = b.locator('#conflict-card[data-game="1"]')
    with explained(b, PHONE_STATE, "phone B's choice of two versions"):
        conflict.wait_for()
    assert "Reizwert 200" in conflict.locator(".theirs").inner_text()
    assert "Reizwert 180" in conflict.locator(".mine").inner_text()
    assert stored_bid(table, 1) == "200"  # nothing overwritten before B chose
    b.screenshot(path=str(artifact("table-phone-conflict-390.png")), full_page=True)
    width = b.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    b.locator("#keep-mine").tap()
    b.wait_for_function(ALL_SENT)
    b.locator("#conflict").wait_for(state="hidden")
    assert stored_bid(table, 1) == "180"
    # phone A is told within its next poll, in words
    notice = a.locator('#notices .notice[data-game="1"]')
    with explained(a, PHONE_STATE, "phone A's notice of the change"):
        notice.wait_for()
    assert "Ein anderes Handy hat Spiel 1 geändert: Reizwert 200 → 180" in notice.inner_text()
    a.locator("#notices-seen").tap()
    a.locator("#notices").wait_for(state="hidden")
    context_a.close()
    context_b.close()


def test_a_desk_correction_appears_on_the_phone_in_words(browser, live_server, table):
    for n in (1, 2, 3, 4):
        save_game(table_by_token(table.entry_token), n, GAME, f"seed-{n}", "")
    context, page = open_phone(browser, live_server, table)
    page.locator('#game-card[data-game="5"]').wait_for()
    orga = get_user_model().objects.get(username="orga")
    sheet = ScoreSheet.objects.get(table=table)
    corrected = {**sheet.entries, F.game_field(4, "bid"): "180"}
    save_sheet(table_by_token(table.entry_token), corrected, orga, sheet.version)
    notice = page.locator('#notices .notice[data-game="4"]')
    with explained(page, PHONE_STATE, "the notice of the desk's correction"):
        notice.wait_for()
    assert notice.inner_text() == "Die Turnierleitung hat Spiel 4 geändert: Reizwert 200 → 180"
    page.screenshot(path=str(artifact("table-phone-desk-change-390.png")), full_page=True)
    # the phone's card for game 4 shows what the desk stored
    page.locator('#games tr[data-game="4"]').tap()
    bid = page.locator('#game-card[data-game="4"] [data-field="bid"]')
    assert bid.input_value() == "180"
    context.close()


def test_the_call_is_green_only_once_the_desk_has_it(browser, live_server, table):
    context, page = open_phone(browser, live_server, table)
    call = page.locator("#call")
    assert call.get_attribute("data-state") == "idle"
    context.set_offline(True)
    call.tap()
    page.wait_for_function("document.getElementById('call').dataset.state === 'sending'")
    assert call.get_attribute("data-called") == "false"
    assert "gesendet" in call.inner_text()
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_function("document.getElementById('call').dataset.state === 'called'")
    assert call.inner_text() == "Die Turnierleitung ist gerufen."
    acknowledge_call(table, get_user_model().objects.get(username="orga"))
    page.wait_for_function("document.getElementById('call').dataset.state === 'coming'")
    assert call.inner_text() == "Die Turnierleitung kommt."
    context.close()


def test_a_refresh_read_before_the_call_never_takes_the_call_back(browser, live_server, table):
    """Answers overtake each other: a refresh read before the call was stored (here held back
    and answered with the whole state, as when something else had changed) arrives after the
    call's own answer. The phone keeps "gerufen" and asks again instead of going back."""
    context, page = open_phone(browser, live_server, table)
    call = page.locator("#call")
    held = []

    def hold_the_first(route):
        if held:
            route.continue_()
            return
        stale = route.fetch(url=route.request.url.split("?")[0])  # read now: no call yet
        held.append((route, stale))

    page.route(re.compile(r"/stand/"), hold_the_first)
    deadline = time.monotonic() + STATE_TIMEOUT_MS / 1000
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)  # the phone refreshes every second here
    assert held, "the phone never refreshed"
    assert held[0][1].json()["state"]["help"] is False
    call.tap()
    page.wait_for_function("document.getElementById('call').dataset.state === 'called'")
    before = page.evaluate("window.binokelTable().stale")
    route, stale = held[0]
    route.fulfill(response=stale)
    page.wait_for_function(f"window.binokelTable().stale > {before}")
    assert call.get_attribute("data-state") == "called"
    assert call.inner_text() == "Die Turnierleitung ist gerufen."
    page.unroute(re.compile(r"/stand/"))
    context.close()
