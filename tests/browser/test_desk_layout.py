"""The desk on a laptop: at 1366 px (the most common laptop width) the top menu is one line in
German and in English, with both competitions (nothing wraps under a finger or the mouse)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from binokel_tournament.models import Membership, Mode, Role
from binokel_tournament.services.evening.registration import create_tournament
from tests.support import artifact

from .support import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TOPS = (
    "[...document.querySelectorAll('header.top nav a')]"
    ".map(a => [a.textContent, a.getBoundingClientRect().top])"
)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_top_menu_is_one_line_at_1366(browser, live_server, lang):
    orga = get_user_model().objects.create_user("orga", password="binokel")
    t = create_tournament("Laptopturnier", modes=[Mode.SINGLES, Mode.PAIRS], rounds=3)
    Membership.objects.create(tournament=t, user=orga, role=Role.ORGANISER)
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 1366, "height": 768}, locale="de-DE"
    )
    page = context.new_page()
    login(page)
    if lang == "en":
        context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.goto(f"/desk/{t.slug}/")
    assert page.locator("header.top nav a").count() >= 11
    tops = page.evaluate(TOPS)
    spread = max(top for _text, top in tops) - min(top for _text, top in tops)
    assert spread < 8, tops  # one line (baselines differ by a pixel), not two
    top = page.evaluate("document.querySelector('header.top').getBoundingClientRect().height")
    assert top < 60, top
    page.screenshot(path=str(artifact(f"desk-dashboard-1366-{lang}.png")))
    context.close()
