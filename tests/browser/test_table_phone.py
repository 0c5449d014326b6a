"""A table enters its own sheet on a phone (390×844, touch): checks who sits where, enters 12
games — three of them without a connection, with a reload in between —, and the desk holds
every game exactly once; the opponents confirm and the table can no longer change anything."""

from __future__ import annotations

import pytest

from binokel_tournament.models import AuditLog, PartyResult, ScoreSheet
from binokel_tournament.services.sheets import sheet_fields as F
from binokel_tournament.services.sheets.table_entry import chairs, opponents
from tests.support import artifact

from .support import STATE_TIMEOUT_MS, explained, phone, phone_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ALL_SENT = "document.getElementById('status').dataset.state === 'ok'"


PHONE_STATE = (
    "(() => { const c = document.getElementById('game-card'),"
    " s = document.getElementById('status');"
    " return JSON.stringify({card: c ? [c.dataset.game, c.dataset.shape] : null,"
    " status: s ? [s.dataset.state, s.textContent] : null,"
    " kept: JSON.parse(localStorage.getItem(document.getElementById('table-app').dataset.store)"
    " || 'null')}); })()"
)


# the status line's height for each thing it says while the connection is there
STATUS_HEIGHTS = """(() => {
  const T = JSON.parse(document.getElementById('table-strings').textContent);
  const box = document.getElementById('status'), kept = box.textContent, out = {};
  const pending = T.pending.replace('%(n)s', '12');
  const texts = {ok: T.all_sent, desk: T.confirmed_desk, pending: pending,
                 sending: T.sending + ' ' + pending};
  for (const [state, text] of Object.entries(texts)) {
    box.textContent = text;
    out[state] = box.getBoundingClientRect().height;
  }
  box.textContent = kept;
  return out;
})()"""


def enter_game(page, n: int) -> None:
    """docs/rules.md worked example 1: party 1 declares 200 with 60/152; 20/58; 0/40."""
    card = page.locator(f'#game-card[data-game="{n}"]')
    with explained(page, PHONE_STATE, f"the card of game {n}"):
        card.wait_for(timeout=STATE_TIMEOUT_MS // 3)
    card.locator('[data-declarer="1"]').tap()
    card.locator('[data-field="bid"]').fill("200")
    for column, meld, tricks in ((1, "60", "152"), (2, "20", "58")):
        card.locator(f'[data-field="meld"][data-column="{column}"]').fill(meld)
        card.locator(f'[data-field="tricks"][data-column="{column}"]').fill(tricks)
    card.locator('[data-field="meld"][data-column="3"]').fill("0")
    value = card.locator('[data-field="tricks"][data-column="3"]').input_value()
    assert value == "40", (n, value)
    card.locator("#save-game").tap()
    page.locator(f'#games tr[data-game="{n}"]').wait_for()


def test_a_table_enters_its_sheet_on_a_phone_through_a_dead_spot(browser, live_server):
    table = phone_table()
    context, page = phone(browser, live_server)
    page.goto(f"/tisch/{table.entry_token}/")
    page.wait_for_selector("#table-app[data-ready='1']")

    # who sits where, typed chair by chair
    for chair in chairs(table):
        page.locator(f'[data-seat="{chair.seat}"]').fill(str(chair.start_number))
    page.locator("#seats-check").tap()
    page.wait_for_selector("#seats", state="hidden")

    for n in range(1, 7):
        enter_game(page, n)
    page.wait_for_function(ALL_SENT)
    page.screenshot(path=str(artifact("table-phone-390.png")), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    clipped = page.evaluate(
        "[...document.querySelectorAll('#game-card button')]"
        ".filter(b => b.scrollWidth > b.clientWidth).map(b => b.textContent)"
    )
    assert clipped == [], clipped  # every button's word fits on it
    # the card stays where it is whatever the status line says while a game is sent
    heights = page.evaluate(STATUS_HEIGHTS)
    assert len(set(heights.values())) == 1, heights

    # a dead spot in the hall: three games without a connection, and a reload
    context.set_offline(True)
    for n in range(7, 10):
        enter_game(page, n)
    page.wait_for_function("document.getElementById('status').dataset.state === 'offline'")
    assert page.locator("#games tr.pending").count() == 3
    assert "3" in page.locator("#status").inner_text()
    page.reload()
    page.wait_for_selector("#table-app[data-ready='1']")
    assert page.locator("#games tr.pending").count() == 3  # nothing lost
    context.set_offline(False)
    page.wait_for_function(ALL_SENT, timeout=2 * STATE_TIMEOUT_MS)
    for n in range(10, 13):
        enter_game(page, n)
    page.wait_for_function(ALL_SENT)

    # the desk holds all 12 games, each exactly once
    sheet = ScoreSheet.objects.get(table=table)
    games = {F.game_of(name) for name in sheet.entries} - {None}
    assert games == set(range(1, 13))
    assert sheet.games.count() == 12 and PartyResult.objects.count() == 36
    assert AuditLog.objects.filter(action="sheet.table").count() == 12
    assert sheet.version == 12

    # the opponents confirm; afterwards the table cannot change anything
    page.locator("#finish").wait_for()
    for chair in opponents(table):
        page.locator(f'[data-confirm="{chair.column}"]').fill(str(chair.start_number))
    page.locator("#confirm").tap()
    page.wait_for_selector("#locked")
    assert page.locator("#card").is_hidden()
    page.locator('#games tr[data-game="3"]').tap()
    assert page.locator("#card").is_hidden()
    page.screenshot(path=str(artifact("table-phone-confirmed.png")), full_page=True)
    context.close()
    assert ScoreSheet.objects.get(table=table).status == "table"
