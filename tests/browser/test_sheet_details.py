"""More of the desk sheet in a real browser: two laptops on one sheet, a 4-table whose dealer sits
out (and keeps the printed rotation after a Durch), a sheet that fits a laptop screen, and
nothing typed ever lost — a closed tab, a dropped connection, a save that fails."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from binokel_tournament.models import Membership, Mode, Role, ScoreSheet, SheetDraft, TableKind
from binokel_tournament.services.evening.registration import create_tournament, register_entrant
from binokel_tournament.services.evening.seating import generate_seating
from tests.support import artifact

from .support import (
    STATE_TIMEOUT_MS,
    cell,
    game,
    login,
    settle,
    type_game,
    wait_saved,
    wait_sheet,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def seated_tournament(players: int):
    t = create_tournament("Browserturnier", modes=[Mode.SINGLES], rounds=1)
    comp = t.competitions.get()
    for i in range(players):
        register_entrant(comp, f"Spielerin mit langem Namen {i + 1}")
    generate_seating(comp)
    for user in get_user_model().objects.all():  # the desks made so far organise it
        Membership.objects.create(tournament=t, user=user, role=Role.ORGANISER)
    return t


def open_sheet(page, t, table) -> None:
    page.goto(f"/desk/{t.slug}/zettel/{table.pk}/")
    page.wait_for_selector("#sheet[data-ready='1']")


def new_tab(context):
    page = context.new_page()
    page.set_default_timeout(STATE_TIMEOUT_MS)
    return page


def one_table_desk(browser, live_server):
    """A logged-in desk (its own browser context) on the sheet of a 3-player tournament."""
    get_user_model().objects.create_user("orga", password="binokel")
    t = seated_tournament(3)
    table = t.round_set.get().tables.get()
    context = browser.new_context(base_url=live_server.url)
    page = new_tab(context)
    login(page)
    open_sheet(page, t, table)
    return t, table, context, page


def test_two_desks_on_one_sheet_never_overwrite_each_other(browser, live_server):
    for name in ("orga", "kasse"):
        get_user_model().objects.create_user(name, password="binokel")
    t = seated_tournament(3)
    table = t.round_set.get().tables.get()
    desks = []
    for name in ("orga", "kasse"):
        context = browser.new_context(base_url=live_server.url)
        page = context.new_page()
        page.set_default_timeout(STATE_TIMEOUT_MS)
        login(page, name)
        open_sheet(page, t, table)
        desks.append((context, page))
    (_ca, first), (_cb, second) = desks
    # the live check's reply changes the rows' messages and so moves the buttons: click only
    # once it has arrived (a click during the move can land beside the button)
    type_game(first, 1, "1", "200", {1: "60", 2: "20", 3: "0"}, {1: "152", 2: "58", 3: "40"})
    settle(first)
    first.get_by_role("button", name="Als Entwurf speichern").click()
    wait_saved(first)
    type_game(second, 1, "2", "250", {1: "40", 2: "100", 3: "20"}, {1: "65", 2: "143", 3: "42"})
    settle(second)
    second.get_by_role("button", name="Als Entwurf speichern").click()
    second.wait_for_selector("#conflict")
    assert "Spiel 1" in second.locator("#save-problem").inner_text()
    conflict = second.locator('#conflict tr[data-game="1"]').inner_text()
    assert "orga" in conflict and "Reizwert 200" in conflict and "Reizwert 250" in conflict
    assert second.locator(game(1, "bid")).input_value() == "250"  # nothing typed is lost
    sheet = ScoreSheet.objects.get()
    assert sheet.version == 1 and sheet.entries["g1-bid"] == "200"
    # the second desk looked at the other version and saves its own on purpose
    second.locator('#conflict input[name="keep-g1"][value="mine"]').check()
    second.get_by_role("button", name="Als Entwurf speichern").click()
    wait_saved(second)
    assert ScoreSheet.objects.get().entries["g1-bid"] == "250"
    for context, _page in desks:
        context.close()


def test_at_a_four_table_the_dealer_sits_out_and_keeps_the_rotation_after_a_durch(page):
    get_user_model().objects.create_user("orga", password="binokel")
    t = seated_tournament(4)
    table = t.round_set.get().tables.get()
    assert table.kind == TableKind.FOUR_SITOUT
    login(page)
    page.set_viewport_size({"width": 1280, "height": 800})
    open_sheet(page, t, table)
    assert page.locator(game(16, "declarer")).count() == 1  # 16 games at a 4-table
    # the sitting-out dealer's fields are not in the Tab order
    assert page.locator(cell(1, 1, "meld")).get_attribute("tabindex") == "-1"
    # game 1: seat 1 deals and sits out; seat 3 plays a Durch ("d" in any field of the game)
    type_game(page, 1, "3", "300", {}, {2: "0", 3: "250"})
    page.locator(game(1, "bid")).press("d")
    page.locator(cell(1, 4, "tricks")).fill("0")
    settle(page)
    assert "1.000" in page.locator("#g1-c3-out").inner_text()
    assert "setzt aus" in page.locator("#g1-c1-out").inner_text()
    # docs/rules.md "Tables": at a 4-table the printed rotation stays after a Durch: seat 2 deals
    # game 2
    assert page.locator(game(2, "dealer")).get_attribute("placeholder") == "2"
    assert "setzt aus" in page.locator("#g2-c2-out").inner_text()
    assert page.locator(cell(2, 2, "meld")).get_attribute("tabindex") == "-1"
    # the whole 4-table sheet fits a 1280 px laptop screen, messages included
    type_game(page, 2, "1", "205", {1: "25"}, {})
    settle(page)
    assert page.locator("#g2-msg .error").count() >= 2
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 1280, width
    page.screenshot(path=str(artifact("sheet-four-table-1280.png")), full_page=True)


def test_a_sheet_typed_and_closed_is_all_there_when_reopened(browser, live_server):
    t, table, context, page = one_table_desk(browser, live_server)
    for n in range(1, 5):
        type_game(page, n, "1", "200", {1: "60", 2: "20", 3: "0"}, {1: "152", 2: "58"})
    page.locator(cell(3, 2, "written")).fill("90")
    settle(page)
    assert "gesichert" in page.locator("#autosave").inner_text()
    page.close()  # the tab is closed without saving
    assert ScoreSheet.objects.count() == 0
    assert SheetDraft.objects.count() == 1

    page = new_tab(context)
    # the browser's own copy is gone too: the server's draft alone brings everything back
    page.goto("/desk/")
    page.evaluate("localStorage.clear()")
    open_sheet(page, t, table)
    for n in range(1, 5):
        assert page.locator(game(n, "bid")).input_value() == "200"
        assert page.locator(cell(n, 3, "tricks")).input_value() == "40"  # filled in
    assert page.locator(cell(3, 2, "written")).input_value() == "90"
    assert page.locator("#restored").is_visible()
    context.close()


def test_typing_offline_is_kept_in_the_browser_and_reaches_the_server_later(browser, live_server):
    t, table, context, page = one_table_desk(browser, live_server)
    context.set_offline(True)
    type_game(page, 1, "2", "250", {1: "40", 2: "100", 3: "20"}, {1: "65", 2: "143"})
    wait_sheet(page, "document.getElementById('autosave').dataset.state === 'offline'")
    assert "Keine Verbindung" in page.locator("#autosave").inner_text()
    # saving while offline fails and keeps the page as it is
    page.get_by_role("button", name="Als Entwurf speichern").click()
    page.wait_for_function("!document.getElementById('save-problem').hidden")
    assert "keine Verbindung" in page.locator("#save-problem").inner_text()
    assert page.locator(game(1, "bid")).input_value() == "250"
    assert ScoreSheet.objects.count() == 0 and SheetDraft.objects.count() == 0
    # the laptop's Wi-Fi is still down and the tab is closed; later it is opened again online
    page.close()
    context.set_offline(False)
    page = new_tab(context)
    open_sheet(page, t, table)
    assert page.locator(game(1, "bid")).input_value() == "250"
    assert page.locator(cell(1, 3, "tricks")).input_value() == "42"
    settle(page)
    # the server has it now and the page says so: whether this page's first check sent it or the
    # server already held it when the page opened
    wait_sheet(page, "document.getElementById('autosave').dataset.state === 'draft'")
    assert SheetDraft.objects.get().entries["g1-bid"] == "250"
    page.get_by_role("button", name="Als Entwurf speichern").click()
    page.wait_for_selector("text=Entwurf gespeichert")
    sheet = ScoreSheet.objects.get()
    assert sheet.version == 1 and sheet.entries["g1-c1-meld"] == "40"
    assert SheetDraft.objects.count() == 0
    context.close()
