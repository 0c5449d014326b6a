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

# the boxes of the sticky header, the call bar's button and the i-th line of text of the
# conflict card, as the phone shows them now (the page draws its nodes anew: found afresh)
LINES = "#conflict-card h2, #conflict-card h3, #conflict-card p"
BOXES = (
    """(i) => {
  const box = node => { const b = node.getBoundingClientRect();
    return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; };
  const line = document.querySelectorAll('%s')[i];
  return {line: box(line), call: box(document.getElementById('call')),
          header: box(document.querySelector('header.bar')), text: line.textContent};
}"""
    % LINES
)


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


def test_the_call_never_covers_the_words_of_the_conflict_card(browser, live_server, table):
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
    title = b.evaluate(BOXES, 0)
    assert title["line"]["top"] >= title["header"]["bottom"], title
    assert title["line"]["bottom"] <= title["call"]["top"], title
    covered = []
    lines = b.locator(LINES)
    assert lines.count() >= 8  # title, problem, both versions' headings and their lines
    for i in range(lines.count()):
        line = lines.nth(i)
        line.scroll_into_view_if_needed()
        boxes = b.evaluate(BOXES, i)
        if overlaps(boxes["line"], boxes["call"]) or overlaps(boxes["line"], boxes["header"]):
            covered.append(boxes)
    assert covered == [], covered
    # "Fassung des anderen Handys", scrolled to from either end of the page, is clear of both
    theirs = [i for i, text in enumerate(lines.all_inner_texts()) if text.startswith("Fassung")]
    assert len(theirs) == 1, lines.all_inner_texts()
    for end in ("document.scrollingElement.scrollHeight", "0"):
        b.evaluate(f"window.scrollTo(0, {end})")
        b.evaluate(
            f"document.querySelectorAll('{LINES}')[{theirs[0]}].scrollIntoView({{block: 'nearest'}})"
        )
        boxes = b.evaluate(BOXES, theirs[0])
        assert boxes["text"] == "Fassung des anderen Handys (gespeichert)"
        assert not overlaps(boxes["line"], boxes["call"]), boxes
        assert not overlaps(boxes["line"], boxes["header"]), boxes
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
