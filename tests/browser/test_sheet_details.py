"""More of the desk in a real browser: two laptops on one sheet, and a 4-table whose dealer
sits out and moves after a Durch."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from binokel_tournament.models import Membership, Mode, Role, ScoreSheet, TableKind
from binokel_tournament.services.registration import create_tournament, register_entrant
from binokel_tournament.services.seating import generate_seating

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def seated_tournament(players: int):
    t = create_tournament("Browserturnier", modes=[Mode.SINGLES], rounds=1)
    comp = t.competitions.get()
    for i in range(players):
        register_entrant(comp, f"Spieler {i + 1}")
    generate_seating(comp)
    for user in get_user_model().objects.all():  # the desks made so far organise it
        Membership.objects.create(tournament=t, user=user, role=Role.ORGANISER)
    return t


def login(page, username: str) -> None:
    page.goto("/anmelden/")
    page.fill("#id_username", username)
    page.fill("#id_password", "binokel")
    page.keyboard.press("Enter")
    page.wait_for_url("**/desk/**")


def type_game(page, n: int, declarer: str, bid: str, melds, tricks) -> None:
    page.locator(f'[name="g{n}-declarer"]').fill(declarer)
    page.locator(f'[name="g{n}-bid"]').fill(bid)
    for col, value in melds.items():
        page.locator(f'[name="g{n}-c{col}-meld"]').fill(value)
    for col, value in tricks.items():
        page.locator(f'[name="g{n}-c{col}-tricks"]').fill(value)


def test_two_desks_on_one_sheet_never_overwrite_each_other(browser, live_server):
    for name in ("orga", "kasse"):
        get_user_model().objects.create_user(name, password="binokel")
    t = seated_tournament(3)
    table = t.round_set.get().tables.get()
    url = f"/desk/{t.slug}/zettel/{table.pk}/"
    desks = []
    for name in ("orga", "kasse"):
        context = browser.new_context(base_url=live_server.url)
        page = context.new_page()
        page.set_default_timeout(10_000)
        login(page, name)
        page.goto(url)
        desks.append((context, page))
    (_ca, first), (_cb, second) = desks
    type_game(first, 1, "1", "200", {1: "60", 2: "20", 3: "0"}, {1: "152", 2: "58", 3: "40"})
    first.get_by_role("button", name="Als Entwurf speichern").click()
    first.wait_for_selector("text=Entwurf gespeichert")
    type_game(second, 1, "2", "250", {1: "40", 2: "100", 3: "20"}, {1: "65", 2: "143", 3: "42"})
    second.get_by_role("button", name="Als Entwurf speichern").click()
    second.wait_for_selector("#conflict")
    assert "orga" in second.locator(".messages").inner_text()
    assert second.locator('[name="g1-bid"]').input_value() == "250"  # nothing typed is lost
    sheet = ScoreSheet.objects.get()
    assert sheet.version == 1 and sheet.entries["g1-bid"] == "200"
    # the second desk looked at the other version and saves its own on purpose
    second.get_by_role("button", name="Als Entwurf speichern").click()
    second.wait_for_selector("text=Entwurf gespeichert")
    assert ScoreSheet.objects.get().entries["g1-bid"] == "250"
    for context, _page in desks:
        context.close()


def test_at_a_four_table_the_dealer_sits_out_and_a_durch_moves_the_deal(page):
    get_user_model().objects.create_user("orga", password="binokel")
    t = seated_tournament(4)
    table = t.round_set.get().tables.get()
    assert table.kind == TableKind.FOUR_SITOUT
    login(page, "orga")
    page.goto(f"/desk/{t.slug}/zettel/{table.pk}/")
    assert page.locator('[name="g16-declarer"]').count() == 1  # 16 games at a 4-table
    # game 1: seat 1 deals and sits out; seat 3 plays a Durch
    page.locator('[name="g1-kind"]').select_option("durch")
    type_game(page, 1, "3", "300", {}, {2: "0", 3: "250"})
    page.locator('[name="g1-c4-tricks"]').fill("0")
    page.locator('[name="g1-c4-tricks"]').dispatch_event("input")
    page.wait_for_function("document.getElementById('g1-c3-out').textContent.includes('1.000')")
    assert "setzt aus" in page.locator("#g1-c1-out").inner_text()
    # the Durch player deals game 2 and sits out there
    assert page.locator('[name="g2-dealer"]').get_attribute("placeholder") == "3"
    assert "setzt aus" in page.locator("#g2-c3-out").inner_text()
    # typing in the sitting-out dealer's column is refused next to the field
    type_game(page, 2, "1", "200", {3: "20"}, {})
    page.locator('[name="g2-c3-meld"]').dispatch_event("input")
    page.wait_for_function("document.getElementById('g2-msg').textContent.includes('aus')")
