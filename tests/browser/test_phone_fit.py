"""Long names and small targets (issue 35): with a 120-letter name without a space in the field,
no public page (taken from the URL configuration, as the accessibility test does), no table
phone page and not the confirmation after an online sign-up scrolls sideways on a phone at
390 px, and the desk's entrant list keeps to the desk's width; every link, button and field of
those pages is a target of at least 44 × 44 px."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from binokel_tournament.models import Entrant, Membership, Mode, Role, Table, Tournament
from binokel_tournament.services.evening.registration import create_tournament
from binokel_tournament.services.server import public_cache
from tests.support import artifact

from .support import login, phone
from .test_accessibility import public_urls

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# a name as long as the register takes (120), without a space or a hyphen to break at
LONG = ("Wolfeschlegelsteinhausenbergerdorffwelchevoralternwarengewissenhaftschaferswessen" * 2)[
    :120
]
PHONE_WIDTH = 390
TARGET_PX = 44

# How wide the page is and how wide the phone shows it. A page wider than the phone makes a
# mobile browser zoom out, and innerWidth grows with it: the page must be no wider than the
# phone's 390 px.
WIDTHS = "[document.scrollingElement.scrollWidth, window.innerWidth]"

# every visible link, button and field smaller than 44 × 44 px (the honeypot, hidden from
# everyone, is no target)
SMALL_TARGETS = """(px) => {
  const small = [];
  for (const node of document.querySelectorAll(
      'a[href], button, input:not([type=hidden]), select, textarea, summary')) {
    if (node.closest('[aria-hidden=true]')) continue;
    const box = node.getBoundingClientRect();
    if (!box.width || !box.height || getComputedStyle(node).visibility === 'hidden') continue;
    if (box.width < px || box.height < px) {
      const words = (node.textContent || node.name || node.type || '').trim().slice(0, 40);
      const size = `${Math.round(box.width)}×${Math.round(box.height)}`;
      small.push(`${node.tagName.toLowerCase()} "${words}" ${size}`);
    }
  }
  return small;
}"""


def long_names(t: Tournament) -> None:
    """Everybody in the field gets a name of 120 letters (a pair: both), each a different one."""
    with public_cache.batched():
        for i, entrant in enumerate(Entrant.objects.filter(tournament=t).order_by("pk")):
            entrant.name = f"{i}{LONG}"[:120]
            if entrant.partner:
                entrant.partner = f"{i}P{LONG}"[:120]
            entrant.save()


def phone_pages(t: Tournament) -> list[str]:
    """Every public page of the evening and the phone page of a table of the round in play (no
    game entered yet: the game card with its fields and checkboxes)."""
    table = Table.objects.filter(round__tournament=t).order_by("-round__number", "number")[0]
    return [*public_urls(t), reverse("table:page", args=[table.entry_token])]


def open_signup() -> Tournament:
    ahead = create_tournament("Anmeldung vorab", modes=[Mode.SINGLES, Mode.PAIRS], rounds=3)
    ahead.competitions.update(registration_open=True)  # the form with all its fields
    return ahead


def sign_up_with_a_long_name(page, ahead: Tournament) -> str:
    """A player signs up online as a pair, both with 120-letter names: the confirmation."""
    page.goto(reverse("public:signup", args=[ahead.slug]))
    page.locator('input[name="mode"][value="pairs"]').check()
    page.fill("#id_name", "Ich" + LONG[3:])
    page.fill("#id_partner", "Du" + LONG[2:])
    page.locator("button[type=submit]").click()
    page.wait_for_selector("#signed-up")
    return page.url


def test_no_page_of_a_phone_scrolls_sideways_with_a_name_of_120_letters(
    browser, live_server, evening
):
    long_names(evening)
    ahead = open_signup()
    context, page = phone(browser, live_server)
    wide: dict[str, list[int]] = {}

    def measure(url: str) -> None:
        width, inner = page.evaluate(WIDTHS)
        if width > inner or inner != PHONE_WIDTH:
            wide[url] = [width, inner]

    for url in [*phone_pages(evening), reverse("public:signup", args=[ahead.slug])]:
        response = page.goto(url)
        assert response is not None and response.status == 200, url
        page.wait_for_load_state("load")
        measure(url)
    measure(sign_up_with_a_long_name(page, ahead))
    page.screenshot(path=str(artifact("signed-up-long-name-390.png")), full_page=True)
    # the door's check-in is the desk's page on a phone
    orga = get_user_model().objects.get_or_create(username="orga")[0]
    orga.set_password("binokel")
    orga.save()
    Membership.objects.get_or_create(
        tournament=evening, user=orga, defaults={"role": Role.ORGANISER}
    )
    login(page)
    checkin = reverse("desk:checkin", args=[evening.slug])
    page.goto(checkin)
    measure(checkin)
    context.close()
    # the desk's entrant list on the desk's laptop
    desk = browser.new_context(
        base_url=live_server.url, locale="de-DE", viewport={"width": 1280, "height": 900}
    )
    desk_page = desk.new_page()
    login(desk_page)
    for mode in ("singles", "pairs"):
        url = reverse("desk:entrants", args=[evening.slug, mode])
        desk_page.goto(url)
        width, inner = desk_page.evaluate(WIDTHS)
        if width > inner:
            wide[url] = [width, inner]
    desk_page.screenshot(path=str(artifact("entrants-long-names-1280.png")))
    desk.close()
    assert wide == {}, json.dumps(wide, indent=1)


def test_every_link_button_and_field_of_a_phone_page_is_a_target_of_44_px(
    browser, live_server, evening
):
    ahead = open_signup()
    context, page = phone(browser, live_server)
    small: dict[str, list[str]] = {}
    pages = [*phone_pages(evening), reverse("public:signup", args=[ahead.slug])]
    for url in pages:
        response = page.goto(url)
        assert response is not None and response.status == 200, url
        page.wait_for_load_state("load")
        if url.startswith("/tisch/"):
            page.wait_for_selector("#game-card")  # the card with its checkboxes
            page.screenshot(path=str(artifact("table-phone-targets-390.png")), full_page=True)
        found = page.evaluate(SMALL_TARGETS, TARGET_PX)
        if found:
            small[url] = found
    page.goto(reverse("public:tournament", args=[evening.slug]))
    page.screenshot(path=str(artifact("tournament-targets-390.png")), full_page=True)
    context.close()
    assert small == {}, json.dumps(small, indent=1, ensure_ascii=False)
