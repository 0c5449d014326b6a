"""The public pages on the screens the hall has: the standings on a 390 px phone (total always
visible, no sideways scrolling) and the beamer on 1024×768, 1280×720 and 1920×1080 (every place
shown over its pages, each page within the screen, type readable from the back)."""

from __future__ import annotations

import pytest

from tests.support import artifact

from .support import STATE_TIMEOUT_MS, phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BEAMERS = [(1024, 768), (1280, 720), (1920, 1080)]


def test_public_standings_and_beamer_fit_phone_and_projectors(browser, live_server, evening):
    entrants = evening.competitions.get(mode="singles").entrants.count()

    context, page = phone(browser, live_server)
    page.goto(f"/t/{evening.slug}/rangliste/singles/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    totals = page.locator("table.standings tbody td.total")
    assert totals.count() == entrants
    box = totals.first.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    assert page.locator("table.standings tbody td.club").first.is_hidden()
    page.screenshot(path=str(artifact("standings-390.png")))
    context.close()

    for width, height in BEAMERS:
        context = browser.new_context(
            base_url=live_server.url, viewport={"width": width, "height": height}, locale="de-DE"
        )
        page = context.new_page()
        page.set_default_timeout(STATE_TIMEOUT_MS)
        page.goto(f"/t/{evening.slug}/beamer/singles/")
        page.wait_for_selector("#beamer[data-ready='1']")
        page.evaluate("window.binokelBeamer.stop()")  # the test turns the pages itself
        pages = int(page.get_attribute("#beamer", "data-pages") or "0")
        font = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
        assert font >= 20, (width, height, font)  # readable from the back of the hall
        seen: list[str] = []
        for n in range(pages):
            page.evaluate(f"window.binokelBeamer.show({n})")
            shown = page.locator("#beamer-table tbody tr:not([hidden])")
            seen += shown.evaluate_all("rows => rows.map(r => r.dataset.start)")
            bottom = shown.last.evaluate("r => r.getBoundingClientRect().bottom")
            assert bottom <= height, (width, height, n, bottom)
            if n == 0:
                page.screenshot(path=str(artifact(f"beamer-{width}x{height}.png")))
        assert len(seen) == entrants and len(set(seen)) == entrants, (width, height, pages)
        assert pages <= (entrants + 11) // 12, (width, height, pages)  # at least 12 rows a page
        context.close()
