"""One sheet, one protocol, in real browsers: what the desk and the tables' phones tripped over
when they wrote the same sheet through two protocols (each of these failed before):

- the organiser corrects one game of a phone table under the four-eyes check: the other games
  stay, and the phone is told of that one game only;
- a desk save stores no untouched rows: the phone is told of nothing it did not get, and its
  next game is taken; after keeping its own version of a game the card moves on;
- the paper check is typed blind into its own form, compared game by game, decided, and the
  board shows what is undecided;
- the four-eyes check lists every game to compare (before → after on a correction) and takes
  only games ticked one by one;
- starting the next round while one still has open tables asks first and names them."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from binokel_tournament.models import Membership, Role, Round, ScoreSheet
from binokel_tournament.services.sheets import sheet_fields as F
from binokel_tournament.services.sheets.table_entry import opponents, save_game, table_by_token
from binokel_tournament.services.sheets.writer import save_sheet
from tests.support import artifact
from tests.web.sheets import full_three_table

from .support import STATE_TIMEOUT_MS, explained, game, login, phone_table
from .test_table_phone import PHONE_STATE
from .test_table_truth import GAME, open_phone, type_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(db, settings):
    settings.TABLE_POLL_SECONDS = 1  # the phones look for changes every second here
    return phone_table()


def four_eyes(table):
    t = table.round.tournament
    t.double_check = True
    t.save()
    kasse = get_user_model().objects.create_user("kasse", password="binokel")
    Membership.objects.create(tournament=t, user=kasse, role=Role.HELPER)
    return t


def phone_games(table, numbers, bid=200) -> None:
    for n in numbers:
        save_game(table_by_token(table.entry_token), n, {**GAME, "bid": bid}, f"seed-{n}", "")


def desk(browser, live_server, username="orga"):
    context = browser.new_context(base_url=live_server.url, locale="de-DE")
    page = context.new_page()
    page.set_default_timeout(STATE_TIMEOUT_MS)
    login(page, username)
    return context, page


def open_sheet(page, table, path: str = "") -> None:
    page.goto(f"/desk/{table.round.tournament.slug}/zettel/{table.pk}/{path}")
    page.wait_for_selector("#sheet[data-ready='1']")


def bids(table) -> dict[int, str]:
    entries = ScoreSheet.objects.get(table=table).entries
    return {n: f[F.game_field(n, "bid")] for n, f in F.parts(entries).items() if n}


def test_a_correction_of_one_game_keeps_the_phones_other_games(browser, live_server, table):
    four_eyes(table)
    phone_games(table, (1, 2, 3, 4))
    phone_context, phone_page = open_phone(browser, live_server, table)
    phone_page.locator('#game-card[data-game="5"]').wait_for()
    context, page = desk(browser, live_server)
    open_sheet(page, table)
    # the organiser sees the table's games, not the empty form of the paper check
    assert page.locator(game(1, "bid")).input_value() == "200"
    assert page.locator("#paper-start").is_visible()
    page.locator(game(2, "bid")).fill("190")
    page.get_by_role("button", name="Als Entwurf speichern").click()
    page.wait_for_selector("text=Entwurf gespeichert")
    assert bids(table) == {1: "200", 2: "190", 3: "200", 4: "200"}
    notice = phone_page.locator('#notices .notice[data-game="2"]')
    with explained(phone_page, PHONE_STATE, "the notice of the correction of game 2"):
        notice.wait_for()
    assert notice.inner_text() == "Die Turnierleitung hat Spiel 2 geändert: Reizwert 200 → 190"
    assert phone_page.locator("#notices .notice").count() == 1  # nothing else was touched
    assert phone_page.locator("#games tfoot td").nth(1).inner_text() != "0"
    # the phone goes on with game 5: nobody stored it (an untouched row is no game)
    type_game(phone_page, 5, "200")
    phone_page.wait_for_function(
        "document.getElementById('status').dataset.state === 'ok'", timeout=STATE_TIMEOUT_MS
    )
    assert bids(table)[5] == "200" and set(bids(table)) == {1, 2, 3, 4, 5}
    phone_page.screenshot(path=str(artifact("one-protocol-phone-390.png")), full_page=True)
    context.close()
    phone_context.close()


def test_after_keeping_its_own_version_the_phone_offers_the_next_game(browser, live_server, table):
    phone_games(table, (1, 2, 3, 4))
    phone_context, phone_page = open_phone(browser, live_server, table)
    phone_page.locator('#game-card[data-game="5"]').wait_for()
    type_game(phone_page, 5, "200", save=False)
    # meanwhile the desk enters game 5 from the paper with another bid
    orga = get_user_model().objects.get(username="orga")
    sheet = ScoreSheet.objects.get(table=table)
    with_five = {**sheet.entries, **{k: v for k, v in full_three_table(5).items() if "g5-" in k}}
    save_sheet(table_by_token(table.entry_token), {**with_five, "g5-bid": "180"}, orga, 4)
    phone_page.locator("#save-game").tap()
    card = phone_page.locator("#conflict-card")
    with explained(phone_page, PHONE_STATE, "the conflict card of game 5"):
        card.wait_for()
    assert "Fassung der Turnierleitung" in card.inner_text() and "180" in card.inner_text()
    phone_page.locator("#keep-mine").tap()
    with explained(phone_page, PHONE_STATE, "the card of game 6"):
        phone_page.locator('#game-card[data-game="6"]').wait_for()
    phone_page.wait_for_function("document.getElementById('status').dataset.state === 'ok'")
    assert bids(table)[5] == "200"
    phone_context.close()


def test_the_paper_check_is_typed_blind_compared_and_decided(browser, live_server, table):
    four_eyes(table)
    phone_games(table, range(1, 13))
    numbers = [c.start_number for c in opponents(table)]
    from binokel_tournament.services.sheets.table_entry import confirm_at_table

    confirm_at_table(table_by_token(table.entry_token), numbers, 12)
    context, page = desk(browser, live_server, "kasse")
    open_sheet(page, table)
    page.locator("#paper-start").click()
    page.wait_for_selector("#paper-entry")
    page.wait_for_selector("#sheet[data-ready='1']")
    assert page.locator(game(1, "bid")).input_value() == ""  # blind: nothing of the phone
    # the paper as the scorer wrote it: game 5 was bid 190 on paper
    values = full_three_table()
    values[F.game_field(5, "bid")] = "190"
    page.evaluate(
        """values => { for (const [name, value] of Object.entries(values)) {
            const input = document.querySelector(`[name="${name}"]`);
            if (input.tagName === 'SELECT') input.value = value; else input.value = value; } }""",
        values,
    )
    page.get_by_role("button", name="Papier speichern und vergleichen").click()
    page.wait_for_selector("#differences")
    rows = page.locator("#differences tbody tr")
    assert rows.count() == 1 and rows.first.get_attribute("data-game") == "5"
    assert "Reizwert 200" in rows.first.inner_text() and "Reizwert 190" in rows.first.inner_text()
    assert bids(table)[5] == "200"  # the paper is its own record
    page.screenshot(path=str(artifact("paper-check-differences.png")), full_page=True)
    board = page.context.new_page()
    board.goto(f"/desk/{table.round.tournament.slug}/tische/?round=1")
    assert "Papier weicht ab: Spiel 5" in board.locator(f"#board-{table.number}").inner_text()
    # the phone was right; then the paper typist confirms (two pairs of eyes: phone, paper)
    page.get_by_role("button", name="Handy gilt").click()
    page.wait_for_selector("text=Spiel 5: der Zettel gilt.")
    page.get_by_role("button", name="Prüfen und bestätigen").click()
    page.wait_for_selector("text=Spielzettel bestätigt")
    assert ScoreSheet.objects.get(table=table).status == "confirmed"
    context.close()


def test_the_four_eyes_check_compares_game_by_game(browser, live_server, table):
    four_eyes(table)
    orga = get_user_model().objects.get(username="orga")
    t_table = table_by_token(table.entry_token)
    save_sheet(t_table, full_three_table(), orga, 0)
    context, page = desk(browser, live_server, "kasse")
    open_sheet(page, table)
    checks = page.locator("#four-eyes li")
    assert checks.count() == 12 and "(orga)" in checks.first.inner_text()
    page.screenshot(path=str(artifact("four-eyes-desk.png")), full_page=True)
    page.get_by_role("button", name="Prüfen und bestätigen").click()
    page.wait_for_selector("text=einzeln mit dem Papier vergleichen")
    assert ScoreSheet.objects.get(table=table).status == "draft"  # a look and a click: no
    for box in page.locator('#four-eyes input[type="checkbox"]').all():
        box.check()
    page.get_by_role("button", name="Prüfen und bestätigen").click()
    page.wait_for_selector("text=Spielzettel bestätigt")
    # the organiser corrects game 10 afterwards: the second person sees exactly that change
    sheet = ScoreSheet.objects.get(table=table)
    save_sheet(t_table, {**sheet.entries, "g10-bid": "250"}, orga, sheet.version)
    open_sheet(page, table)
    checks = page.locator("#four-eyes li")
    assert checks.count() == 1
    assert "Spiel 10: Reizwert: 200 → 250" in checks.first.inner_text()
    page.locator('#four-eyes input[type="checkbox"]').check()
    page.get_by_role("button", name="Prüfen und bestätigen").click()
    page.wait_for_selector("text=Spielzettel bestätigt")
    context.close()


def test_the_next_round_starts_only_after_asking_about_open_tables(browser, live_server, db):
    from binokel_tournament.models import Mode
    from binokel_tournament.services.evening.registration import (
        create_tournament,
        register_entrant,
    )
    from binokel_tournament.services.evening.seating import generate_seating
    from tests.support import start_round

    orga = get_user_model().objects.create_user("orga", password="binokel")
    t = create_tournament("Zwei Durchgänge", modes=[Mode.SINGLES], rounds=2)
    Membership.objects.create(tournament=t, user=orga, role=Role.ORGANISER)
    for i in range(6):
        register_entrant(t.competitions.get(), f"Spieler {i + 1}")
    generate_seating(t.competitions.get())
    start_round(t.round_set.get(number=1), orga)
    context, page = desk(browser, live_server)
    page.goto(f"/desk/{t.slug}/")
    page.get_by_role("button", name="Durchgang 2 starten").first.click()
    page.wait_for_selector("#rounds-open")
    assert "Durchgang 1: Tisch 1, 2" in page.locator("#rounds-open").inner_text()
    assert not Round.objects.get(tournament=t, number=2).locked
    page.get_by_role("button", name="Ja, Durchgang 2 jetzt starten").click()
    page.wait_for_selector("text=Durchgang 2 läuft")
    assert Round.objects.get(tournament=t, number=2).locked
    context.close()
