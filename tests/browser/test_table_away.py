"""The table phone at 390×844 (issue 35): the sticky call for the Turnierleitung never covers the
conflict card's words, whichever line is scrolled into view; a phone that comes back to its
table after the other phone entered five games says so in one line, not in five, and what the
other phone enters later joins that line."""

from __future__ import annotations

import pytest

from binokel_tournament.models import ScoreSheet
from binokel_tournament.services.sheets.table_entry import save_game, table_by_token
from tests.support import artifact

from .support import explained, phone_table
from .test_table_phone import PHONE_STATE
from .test_table_truth import ALL_SENT, GAME, open_phone, type_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The i-th line of text of the conflict card scrolled into view (as little as needed, from the
# top or from the end of the page), and the boxes of that line, the sticky header and the call
# bar's button as the phone shows them then: in one go, as the page draws its nodes anew.
LINES = "#conflict-card h2, #conflict-card h3, #conflict-card p"
SCROLLED = """([selector, i, from]) => {
  const box = node => { const b = node.getBoundingClientRect();
    return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; };
  const line = document.querySelectorAll(selector)[i];
  if (from !== null) {
    window.scrollTo(0, from === 'end' ? document.scrollingElement.scrollHeight : 0);
    line.scrollIntoView({block: 'nearest'});
  }
  return {line: box(line), call: box(document.getElementById('call')),
          header: box(document.querySelector('header.bar')), text: line.textContent,
          from: from};
}"""


def overlaps(a: dict, b: dict) -> bool:
    return (
        a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
        and a["left"] < b["right"]
        and b["left"] < a["right"]
    )


@pytest.fixture
def table(db, settings):
    settings.TABLE_POLL_SECONDS = 1  # the phones look for changes every second here
    return phone_table()


def other_phone_enters(table, numbers) -> None:
    for n in numbers:
        save_game(table_by_token(table.entry_token), n, GAME, f"other-{n}", "")


def test_the_call_never_covers_the_words_of_the_conflict_card(
    browser, live_server, table, settings
):
    # the phones do not look on their own here: phone B learns of game 1 by its conflict only
    settings.TABLE_POLL_SECONDS = 600
    context_a, a = open_phone(browser, live_server, table)
    context_b, b = open_phone(browser, live_server, table)
    b.locator('#game-card[data-game="1"] [data-declarer="1"]').tap()
    type_game(a, 1, "200")
    a.wait_for_function(ALL_SENT)
    type_game(b, 1, "180")
    card = b.locator('#conflict-card[data-game="1"]')
    with explained(b, PHONE_STATE, "phone B's choice of two versions"):
        card.wait_for()
    b.screenshot(path=str(artifact("table-phone-conflict-view-390.png")))
    # the card comes into view below the header, its title first
    title = b.evaluate(SCROLLED, [LINES, 0, None])
    assert title["line"]["top"] >= title["header"]["bottom"], title
    assert title["line"]["bottom"] <= title["call"]["top"], title
    texts = b.locator(LINES).all_inner_texts()
    assert len(texts) >= 8, texts  # title, problem, both versions' headings and their lines
    assert "Fassung des anderen Handys (gespeichert)" in texts
    covered = []
    for i in range(len(texts)):
        for start in ("top", "end"):
            boxes = b.evaluate(SCROLLED, [LINES, i, start])
            if overlaps(boxes["line"], boxes["call"]) or overlaps(boxes["line"], boxes["header"]):
                covered.append(boxes)
    assert covered == [], covered
    # the phone has taken the stored state: the conflict card tells of game 1, no notice again
    version = ScoreSheet.objects.get(table=table).version
    b.wait_for_function(f"window.binokelTable().version === {version}")
    assert b.locator("#notices .notice").count() == 0
    b.locator("#keep-mine").tap()
    b.wait_for_function(ALL_SENT)
    context_a.close()
    context_b.close()


def test_what_happened_while_the_phone_was_away_is_one_line(browser, live_server, table):
    context, page = open_phone(browser, live_server, table)
    page.locator('#game-card[data-game="1"]').wait_for()
    page.goto("about:blank")  # the phone goes away; what it knew stays in it
    other_phone_enters(table, range(1, 6))
    page.goto(f"/tisch/{table.entry_token}/")
    page.wait_for_selector("#table-app[data-ready='1']")
    notices = page.locator("#notices .notice")
    with explained(page, PHONE_STATE, "the notice of games 1 to 5"):
        notices.first.wait_for()
    assert notices.all_inner_texts() == ["Ein anderes Handy hat die Spiele 1–5 eingetragen."]
    assert notices.first.get_attribute("data-games") == "1 2 3 4 5"
    page.locator('#game-card[data-game="6"]').wait_for()  # and it goes on with game 6
    page.screenshot(path=str(artifact("table-phone-away-390.png")))
    # the other phone enters game 6 while this one shows the notice: the same line
    other_phone_enters(table, [6])
    with explained(page, PHONE_STATE, "the notice of games 1 to 6"):
        page.wait_for_function(
            "document.querySelector('#notices .notice').dataset.games === '1 2 3 4 5 6'"
        )
    assert notices.all_inner_texts() == ["Ein anderes Handy hat die Spiele 1–6 eingetragen."]
    page.locator("#notices-seen").tap()
    page.locator("#notices").wait_for(state="hidden")
    # seen: a game afterwards is news of its own
    other_phone_enters(table, [7])
    with explained(page, PHONE_STATE, "the notice of game 7"):
        page.locator('#notices .notice[data-game="7"]').wait_for()
    assert notices.all_inner_texts() == ["Ein anderes Handy hat Spiel 7 eingetragen."]
    context.close()
