"""Players are of every age (issue 25): axe-core — from the npm registry (tests/browser/axe,
pinned; `make install-test` installs it), injected by Playwright into Debian's chromium —
reports no serious or critical violation on the personal page, the table's phone page, the
check-in page and every public page (taken from the URL configuration), at 390 px; the body
text is at least 16 px."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from binokel_tournament.models import Membership, Mode, Role, Series, Table, Tournament
from binokel_tournament.services.evening import players
from binokel_tournament.services.evening.registration import create_tournament
from tests.support import artifact, require

from .support import login, phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")


NOT_PAGES = {"public:certificate"}  # a PDF, not a page


def public_routes() -> list[tuple[str, tuple[str, ...]]]:
    """(name, URL keywords) of every named page route of the public namespace."""
    found = []
    for pattern in get_resolver().url_patterns:
        if isinstance(pattern, URLResolver) and pattern.namespace == "public":
            for inner in pattern.url_patterns:
                assert isinstance(inner, URLPattern) and inner.name
                if f"public:{inner.name}" not in NOT_PAGES:
                    found.append((f"public:{inner.name}", tuple(inner.pattern.converters)))
    return found


def public_urls(t: Tournament) -> list[str]:
    link = players.ensure_links(t)[-1]
    series = Series.objects.get_or_create(slug="cup-a11y", defaults={"name": "Cup"})[0]
    series.tournaments.add(t)
    values = {"slug": t.slug, "mode": "singles", "token": link.token}
    special = {"public:series": {"slug": series.slug}, "public:verein": {"slug": t.verein.slug}}
    urls = []
    for name, keywords in public_routes():
        kwargs = {}
        for keyword in keywords:
            value = special.get(name, {}).get(keyword, values.get(keyword))
            assert value is not None, f"{name}: teach this test the URL keyword {keyword!r}"
            kwargs[keyword] = value
        url = reverse(name, kwargs=kwargs)
        urls.append(url + (f"?q={link.entrant.start_number}" if name == "public:where" else ""))
    return urls


def violations(page) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        "async () => JSON.stringify(await axe.run(document, {resultTypes: ['violations']}))"
    )
    found = json.loads(result)["violations"]
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "nodes": [n["html"][:160] for n in v["nodes"][:3]],
        }
        for v in found
        if v["impact"] in SERIOUS
    ]


def body_text_px(page) -> float:
    return float(page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)"))


def test_no_serious_violation_at_390_px_and_body_text_of_16_px(browser, live_server, evening):
    require(
        AXE.exists(), "axe-core is not installed: make install-test (npm ci in tests/browser/axe)"
    )
    orga, _new = get_user_model().objects.get_or_create(username="orga")
    orga.set_password("binokel")
    orga.save()
    Membership.objects.get_or_create(
        tournament=evening, user=orga, defaults={"role": Role.ORGANISER}
    )
    table = Table.objects.filter(round__tournament=evening, round__locked=True).first()
    if table is None:
        table = Table.objects.filter(round__tournament=evening).order_by("-round__number")[0]
    ahead = create_tournament("Anmeldung vorab", modes=[Mode.SINGLES, Mode.PAIRS], rounds=3)
    ahead.competitions.update(registration_open=True)  # the form with all its fields
    pages = [
        *public_urls(evening),
        reverse("public:signup", args=[ahead.slug]),
        reverse("table:page", args=[table.entry_token]),
    ]
    context, page = phone(browser, live_server)
    found: dict[str, object] = {}
    for url in pages:
        response = page.goto(url)
        assert response is not None and response.status == 200, url
        page.wait_for_load_state("load")
        problems = violations(page)
        if problems:
            found[url] = problems
        if body_text_px(page) < 16:
            found[url + " (body text)"] = body_text_px(page)
        for part, name in (("/anmelden/", "signup"), ("/anmeldung/", "signed-up"), ("/p/", "me")):
            if part in url:
                page.screenshot(path=str(artifact(f"{name}-390.png")), full_page=True)
    page.goto(public_urls(evening)[0])
    login(page)
    checkin = reverse("desk:checkin", args=[evening.slug])
    page.goto(checkin)
    problems = violations(page)
    if problems:
        found[checkin] = problems
    if body_text_px(page) < 16:
        found[checkin + " (body text)"] = body_text_px(page)
    page.screenshot(path=str(artifact("checkin-390.png")), full_page=True)
    context.close()
    assert found == {}, json.dumps(found, indent=1, ensure_ascii=False)
