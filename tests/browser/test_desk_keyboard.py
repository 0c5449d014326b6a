"""The organiser's path in a real browser, by keyboard: register three entrants, seat them,
type a full 12-game sheet (digits plus one key per field), watch a validation error appear and
disappear, use the letter shortcuts for the extras, confirm, and find the totals on the
standings."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from binokel_tournament.models import Membership, Mode, Role, ScoreSheet, SheetStatus
from binokel_tournament.services.evening.registration import create_tournament
from tests.support import artifact

from .support import SETTLED, cell, game, login, settle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class Keys:
    """The keyboard, counting what the typist presses: digits, and every other key."""

    def __init__(self, page) -> None:
        self.keyboard = page.keyboard
        self.digits = 0
        self.other = 0

    def type(self, text: str) -> None:
        self.keyboard.type(text)
        self.digits += sum(ch.isdigit() for ch in text)
        self.other += sum(not ch.isdigit() for ch in text)

    def press(self, key: str) -> None:
        self.keyboard.press(key)
        self.other += 1


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
    page.wait_for_selector("#sheet[data-ready='1']")
    # the sheet opens with the cursor in game 1
    assert page.evaluate("document.activeElement.name") == "g1-declarer"

    per_game = []
    for n in range(1, 13):
        kb = Keys(page)
        kb.type("1")
        kb.press("Tab")
        kb.type("155" if n == 1 else "200")
        kb.press("Tab")
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
            settle(page)
            errors = page.locator("#g1-msg .error")
            assert "10" in errors.first.inner_text()  # a bid must be a multiple of 10
            for _ in range(5):  # back over the melds and tricks to the bid
                page.keyboard.press("Shift+Tab")
            assert page.evaluate("document.activeElement.name") == "g1-bid"
            page.keyboard.press("Control+a")
            page.keyboard.type("200")
            settle(page)
            assert page.locator("#g1-msg .error").count() == 0
        kb.press("Enter")
        if n > 1:
            per_game.append((kb.digits, kb.other))
    # digits plus one key per field: declarer, bid, three melds, two tricks = 7 fields
    assert set(per_game) == {(1 + 3 + 2 + 3 + 2 + 2 + 1, 7)}
    assert page.locator(cell(12, 3, "tricks")).input_value() == "40"
    settle(page)
    status = page.locator("#sheet-status").inner_text()
    assert "12 von 12" in status and "keine Fehler" in status
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


def open_sheet_of_three(page, name: str) -> None:
    """A tournament of three players A, B, C at one table; the organiser opens their sheet."""
    from binokel_tournament.services.evening.registration import register_entrant
    from binokel_tournament.services.evening.seating import generate_seating

    orga = get_user_model().objects.create_user("orga", password="binokel")
    t = create_tournament(name, modes=[Mode.SINGLES], rounds=1)
    Membership.objects.create(tournament=t, user=orga, role=Role.ORGANISER)
    competition = t.competitions.get()
    for player in ("A", "B", "C"):
        register_entrant(competition, player)
    generate_seating(competition)
    table = t.round_set.get().tables.get()
    login(page)
    page.goto(f"/desk/{t.slug}/zettel/{table.pk}/")
    page.wait_for_selector("#sheet[data-ready='1']")


def test_letters_are_the_extras_without_tabbing_through_them(page):
    open_sheet_of_three(page, "Tastenturnier")
    kb = page.keyboard
    # game 1 conceded: "a" in the bid field, then only the melds are in the Tab order
    kb.type("2")
    kb.press("Tab")
    kb.type("170")
    kb.press("a")
    assert page.locator(game(1, "kind")).input_value() == "conceded"
    kb.press("Tab")
    assert page.evaluate("document.activeElement.name") == "g1-c1-meld"
    kb.type("40")
    kb.press("Tab")
    assert page.evaluate("document.activeElement.name") == "g1-c2-meld"  # tricks skipped
    kb.press("Enter")
    # game 2: played, party 3 revoked ("v" in its field), the declarer took no trick ("o")
    kb.type("1")
    kb.press("Tab")
    kb.type("150")
    kb.press("o")
    assert page.locator(game(2, "notrick")).is_checked()
    kb.press("o")  # pressed again by habit: still ticked
    assert page.locator(game(2, "notrick")).is_checked()
    kb.press("Shift+O")  # unticks
    assert not page.locator(game(2, "notrick")).is_checked()
    kb.press("o")
    assert page.locator(game(2, "notrick")).is_checked()
    page.locator(cell(2, 3, "meld")).focus()
    kb.press("v")
    assert page.locator(cell(2, 3, "revoked")).is_checked()
    # "b" goes to the dealer field, Escape comes back to the game
    kb.press("b")
    assert page.evaluate("document.activeElement.name") == "g2-dealer"
    kb.press("Escape")
    assert page.evaluate("document.activeElement.name") == "g2-c1-meld"
    page.wait_for_function(SETTLED)
    assert "170" not in page.locator("#g1-msg").inner_text()
    assert page.locator("#g1-c1-out").inner_text().startswith("130")  # 90 + meld 40


def test_registration_reaches_every_field_by_tab_categories_included(page):
    orga = get_user_model().objects.create_user("orga", password="binokel")
    t = create_tournament("Tabturnier", modes=[Mode.SINGLES], rounds=1)
    Membership.objects.create(tournament=t, user=orga, role=Role.ORGANISER)
    login(page)
    page.goto(f"/desk/{t.slug}/teilnehmer/singles/")
    page.wait_for_selector("#quick-add")
    page.locator("#id_name").focus()
    reached = []
    for _i in range(20):
        reached.append(
            page.evaluate(
                "(() => { const e = document.activeElement;"
                " return e.name ? e.name + (e.value && e.type === 'checkbox' ? ':' + e.value : '')"
                " : e.tagName; })()"
            )
        )
        if reached[-1] == "BUTTON":
            break
        page.keyboard.press("Tab")
    boxes = [r for r in reached if r.startswith("categories:")]
    assert reached[:3] == ["name", "club", "unranked:on"], reached
    assert len(boxes) >= 3 and reached[-1] == "BUTTON", reached
    # a category ticked by keyboard alone is registered with the entrant
    page.locator("#id_name").focus()
    page.keyboard.type("Erna Kästle")
    page.locator(f'input[name="categories"][value="{boxes[0].split(":")[1]}"]').focus()
    page.keyboard.press("Space")
    page.keyboard.press("Enter")
    page.wait_for_selector("#entrants >> text=Erna Kästle")
    entrant = t.entrants.get()
    assert entrant.categories == [boxes[0].split(":")[1]]


def test_after_a_reload_the_last_stiche_still_fill_themselves_in(page):
    open_sheet_of_three(page, "Reloadturnier")
    page.locator(cell(1, 1, "tricks")).fill("150")
    page.locator(cell(1, 2, "tricks")).fill("60")
    assert page.locator(cell(1, 3, "tricks")).input_value() == "40"
    page.wait_for_function(SETTLED)
    page.reload()
    page.wait_for_selector("#sheet[data-ready='1']")
    assert page.locator(cell(1, 3, "tricks")).input_value() == "40"
    page.locator(cell(1, 2, "tricks")).fill("70")  # an earlier Stiche corrected
    assert page.locator(cell(1, 3, "tricks")).input_value() == "30"
