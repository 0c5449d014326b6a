"""The organiser's path in a real browser, by keyboard: register three entrants, seat them,
type a full 12-game sheet, watch a validation error appear and disappear, confirm, and find
the totals on the standings."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from binokel_tournament.models import Membership, Mode, Role, ScoreSheet, SheetStatus
from binokel_tournament.services.registration import create_tournament
from tests.support import artifact

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def login(page) -> None:
    page.goto("/anmelden/")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "binokel")
    page.keyboard.press("Enter")
    page.wait_for_url("**/desk/**")


def test_a_whole_table_by_keyboard(page):
    orga = get_user_model().objects.create_user("orga", password="binokel")
    t = create_tournament("Browserturnier", modes=[Mode.SINGLES], rounds=1)
    Membership.objects.create(tournament=t, user=orga, role=Role.ORGANISER)
    login(page)

    page.goto(f"/desk/{t.slug}/teilnehmer/singles/")
    for name in ("Anna Häußler", "Bernd Schäfer", "Christa Dürr"):
        page.locator("#id_name").focus()
        page.keyboard.type(name)
        page.keyboard.press("Enter")
        page.wait_for_selector(f"text={name} hat die Startnummer")
    rows = page.locator("#entrants tbody tr")
    assert rows.count() == 3

    page.goto(f"/desk/{t.slug}/spielplan/")
    page.get_by_role("button", name="Spielplan erstellen").click()
    page.wait_for_selector("text=Der Spielplan wurde erstellt")

    page.goto(f"/desk/{t.slug}/ergebnisse/")
    page.get_by_role("link", name="Nächster offener Zettel").click()
    page.wait_for_selector("#sheet")

    page.locator('[name="g1-declarer"]').focus()
    for n in range(1, 13):
        kb = page.keyboard
        kb.type("1")
        kb.press("Tab")
        kb.type("155" if n == 1 else "200")
        kb.press("Tab")
        kb.press("Tab")  # kind: gespielt
        kb.type("60")
        kb.press("Tab")
        kb.type("152")
        kb.press("Tab")
        kb.type("20")
        kb.press("Tab")
        kb.type("58")  # the last party's Stiche fill themselves in: 250 - 152 - 58
        kb.press("Tab")
        kb.type("0")
        if n == 1:
            msg = page.locator("#g1-msg .error")
            msg.first.wait_for()
            assert "10" in msg.first.inner_text()  # a bid must be a multiple of 10
            for _ in range(6):  # back over the melds, tricks and the kind to the bid
                kb.press("Shift+Tab")
            assert page.evaluate("document.activeElement.name") == "g1-bid"
            kb.press("Control+a")
            kb.type("200")
            page.wait_for_function("document.querySelectorAll('#g1-msg .error').length === 0")
        kb.press("Enter")
    assert page.locator('[name="g12-c3-tricks"]').input_value() == "40"
    page.wait_for_function(
        "document.getElementById('sheet-status').textContent.includes('12 von 12')"
    )
    assert "keine Fehler" in page.locator("#sheet-status").inner_text()
    # Enter on the last game lands on the confirm button
    assert page.evaluate("document.activeElement.id") == "confirm"
    page.screenshot(path=str(artifact("sheet.png")), full_page=True)
    page.keyboard.press("Enter")
    page.wait_for_selector("text=Spielzettel bestätigt")
    assert ScoreSheet.objects.get().status == SheetStatus.CONFIRMED

    page.goto(f"/desk/{t.slug}/rangliste/singles/")
    table_text = page.locator("table.standings").inner_text()
    for total in ("2.520", "960", "480"):  # German grouping
        assert total in table_text
    first_row = page.locator("table.standings tbody tr").first.inner_text()
    assert "2.520" in first_row and "1." in first_row
    page.screenshot(path=str(artifact("standings.png")), full_page=True)
