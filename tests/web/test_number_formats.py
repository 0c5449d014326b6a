"""One locale per page: every desk and public page read in German writes its points, amounts and
percentages the German way (1.220, 6,50 €, 82,3 %), and read in English the English way (1,220,
€6.50, 82.3%); never "Games 1,212" beside "82,3 %" and "1.075,00 €"."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation

from binokel_tournament import numbers
from binokel_tournament.models import Prize
from binokel_tournament.services.demo import create_demo
from binokel_tournament.services.evening.players import ensure_links

from .desk_urls import DESK_URLS
from .test_fuzz import PUBLIC_URLS

pytestmark = pytest.mark.django_db

# a number written the other language's way: (pattern, what it is)
EDGE = r"(?<![\d.,])", r"(?![\d.,]*\d)"
GERMAN = [
    (r"\d+,\d{1,2}", "decimal comma"),
    (r"\d{1,3}(?:\.\d{3})+", "point between thousands"),
    (r"\d+(?:[.,]\d+)*[\u00a0 ]?€", "euro sign after the amount"),
]
ENGLISH = [
    (r"\d+\.\d{1,2}", "decimal point"),
    (r"\d{1,3}(?:,\d{3})+", "comma between thousands"),
    (r"€[\u00a0 ]?−?\d+(?:[.,]\d+)*", "euro sign before the amount"),
]


def visible_text(page: str) -> str:
    page = re.sub(r"(?is)<(script|style|svg)\b.*?</\1>", " ", page)
    page = re.sub(r"(?s)<[^>]+>", " ", page)
    return html.unescape(page)


def written(text: str, patterns: list[tuple[str, str]]) -> dict[str, list[str]]:
    """What of ``text`` is written in the style of ``patterns``."""
    out = {}
    for pattern, name in patterns:
        hits = re.findall(EDGE[0] + pattern + EDGE[1], text)
        if hits:
            out[name] = sorted(set(hits))[:5]
    return out


def test_the_filters_write_one_language():
    with translation.override("de"):
        assert (numbers.points(1212), numbers.euro(107500), numbers.percent(0.823)) == (
            "1.212",
            "1.075,00\u00a0€",
            "82,3\u00a0%",
        )
        assert numbers.euro(-50) == "−0,50\u00a0€"
    with translation.override("en"):
        assert (numbers.points(1212), numbers.euro(107500), numbers.percent(0.823)) == (
            "1,212",
            "€1,075.00",
            "82.3%",
        )
        assert numbers.euro(-50) == "−€0.50"


@pytest.fixture
def german_afterwards():
    """The desk's language middleware leaves the last request's language active in this
    thread: the tests after this one expect German."""
    yield
    translation.activate("de")


def test_every_page_writes_its_numbers_in_its_own_language(german_afterwards):
    t, _created = create_demo(singles=13, pairs=4, scored_rounds=2, slug="zahlen")
    t.public_pages = True
    t.save()
    # amounts above a thousand and a prize with a value: grouping and decimals on one page
    Prize.objects.filter(competition__tournament=t).update(value_cents=107550)
    link = ensure_links(t)[0]
    urls = [u.url(t) for u in DESK_URLS if u.method == "GET"]
    urls += [p.path.format(slug=t.slug, mode="singles") for p in PUBLIC_URLS if p.method == "GET"]
    urls += [
        reverse("public:prizes", args=[t.slug, "singles"]),
        reverse("public:statistics", args=[t.slug]),
        reverse("public:personal", args=[link.token]),
    ]
    client = Client()
    client.force_login(get_user_model().objects.get(username="orga"))
    for language, other, own in (("de", ENGLISH, GERMAN), ("en", GERMAN, ENGLISH)):
        client.cookies["django_language"] = language
        found: dict[str, dict[str, list[str]]] = {}
        seen: set[str] = set()
        read = 0
        for url in sorted(set(urls)):
            response = client.get(url)
            if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
                continue
            read += 1
            text = visible_text(response.content.decode())
            wrong = written(text, other)
            if wrong:
                found[url] = wrong
            seen |= set(written(text, own))
        assert found == {}, language
        assert read >= 30, read
        # and the pages did show numbers of every kind, in their own language
        assert len(seen) == 3, (language, seen)
