"""The door in a real browser (issue 25): 30 pre-registered players checked in by "scanner" —
the personal link's address or the short code typed at once, then Enter, as a USB scanner
does — each marked paid with F8, the slip opened with F9; the field keeps the focus all along."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from binokel_tournament.models import Entrant, Membership, Mode, Role
from binokel_tournament.services.evening import players
from binokel_tournament.services.evening.registration import create_tournament, register_entrants
from tests.support import artifact

from .support import explained, login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DOOR_STATE = (
    "(() => { const p = document.getElementById('door-person'),"
    " d = document.getElementById('door-done'), q = document.getElementById('door-q');"
    " return JSON.stringify({person: p && p.dataset.start, done: d && d.textContent,"
    " focus: document.activeElement && document.activeElement.id, field: q && q.value,"
    " problem: (document.getElementById('door-problem') || {}).textContent}); })()"
)


def shown(page, number: int, text: str) -> str:
    """The door shows ``text`` for start number ``number``, the field empty and focused."""
    return (
        "(() => { const p = document.getElementById('door-person'),"
        " d = document.getElementById('door-done'), q = document.getElementById('door-q');"
        f" return p && p.dataset.start === '{number}' && d && d.textContent.includes('{text}')"
        " && document.activeElement === q && q.value === ''; })()"
    )


def wait_door(page, number: int, text: str) -> None:
    with explained(page, DOOR_STATE, f"{text!r} for {number}"):
        page.wait_for_function(shown(page, number, text))


def test_thirty_players_checked_in_by_scanner_paid_and_their_slips_printed(page, live_server):
    orga = get_user_model().objects.create_user("orga", password="binokel")
    t = create_tournament("Einlass", modes=[Mode.SINGLES], rounds=1)
    t.entry_fee_cents = 1000
    t.save()
    Membership.objects.create(tournament=t, user=orga, role=Role.ORGANISER)
    register_entrants(t.competitions.get(), [(f"Spieler {i:02d}", "", "SV") for i in range(1, 31)])
    links = players.ensure_links(t)
    register_entrants(t.competitions.get(), [("Ohne Zettel", "", "SV")])  # start number 31
    login(page)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"/desk/{t.slug}/einlass/")
    page.wait_for_function("document.activeElement.id === 'door-q'")
    for i, link in enumerate(links):
        number = link.entrant.start_number
        # a scanner types the QR code's address; every third person gives the short code
        typed = link.code if i % 3 == 2 else f"{live_server.url}/p/{link.token}/"
        page.keyboard.type(typed)
        page.keyboard.press("Enter")
        wait_door(page, number, "Angekommen.")
        page.keyboard.press("F8")
        wait_door(page, number, "Startgeld bezahlt.")
        if i == 0:  # F9 opens the slip to print, beside the door page
            with page.expect_popup() as opened:
                page.keyboard.press("F9")
            slip = opened.value
            slip.wait_for_load_state()
            assert f"nr={number}" in slip.url and "/export/slips/" in slip.url
            slip.close()
            page.wait_for_function("document.activeElement.id === 'door-q'")
        href = page.locator('#door-result [data-key="F9"]').get_attribute("href")
        response = page.request.get(href)
        assert response.ok and response.body().startswith(b"%PDF"), href
    page.wait_for_selector("text=30 von 31 angekommen · 30 bezahlt")
    page.screenshot(path=str(artifact("door-1366.png")))
    assert Entrant.objects.filter(checked_in_at__isnull=False, fee_paid=True).count() == 30
    assert t.audit_log.filter(action="entrant.check_in").count() == 30
    # a name search with several hits lists them; choosing one shows them as arrived
    page.keyboard.type("Spieler 1")
    page.keyboard.press("Enter")
    page.wait_for_selector("#door-candidates")
    page.locator("#door-candidates button", has_text="Spieler 12").click()
    page.wait_for_selector('#door-person[data-start="12"] #door-people li[data-here="1"]')
    assert page.locator("#door-arrive").count() == 0  # nothing to mark
    # a start number typed only shows the person; Enter on the empty field marks them
    page.wait_for_function("document.activeElement.id === 'door-q'")
    page.keyboard.type("31")
    page.keyboard.press("Enter")
    page.wait_for_selector('#door-person[data-start="31"] #door-arrive')
    page.wait_for_function(
        "document.activeElement.id === 'door-q' && document.getElementById('door-q').value === ''"
    )
    assert Entrant.objects.get(start_number=31, tournament=t).checked_in_at is None
    page.keyboard.press("Enter")
    wait_door(page, 31, "Angekommen.")
    page.wait_for_selector("text=31 von 31 angekommen")
    assert Entrant.objects.get(start_number=31, tournament=t).checked_in_at is not None
