"""English is complete: every desk and public page, read in English, shows no German word
of the German source catalogue. The words are taken from the catalogue's msgids (generated,
not hand-picked), less those the English catalogue uses too and those of the tournament's own
data (names, clubs, the venue, the purpose, the prizes: what the organiser typed)."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from binokel_tournament.models import Entrant, Prize, Tournament
from binokel_tournament.services.demo import create_demo
from scoring.presets import PRESETS

from .desk_urls import DESK_URLS
from .test_fuzz import PUBLIC_URLS

pytestmark = pytest.mark.django_db

CATALOGUE = settings.BASE_DIR / "binokel_tournament" / "locale" / "en" / "LC_MESSAGES" / "django.po"
WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{4,}")


def catalogue_words() -> tuple[set[str], set[str]]:
    """(the German msgids' words, the English msgstrs' words)."""
    text = CATALOGUE.read_text(encoding="utf-8")
    german: set[str] = set()
    english: set[str] = set()
    for entry in text.split("\n\n")[1:]:
        if entry.startswith("#~"):
            continue
        target = german
        for line in entry.splitlines():
            if line.startswith("msgid"):
                target = german
            elif line.startswith("msgstr"):
                target = english
            elif not line.startswith('"'):
                continue
            quoted = line[line.find('"') :]
            words = WORD.findall(re.sub(r"%\(\w+\)s|\{\w+\}|<[^>]+>", " ", quoted))
            target.update(words)
    return german, english


def visible_words(page: str) -> set[str]:
    page = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", page)
    page = re.sub(r"(?s)<[^>]+>", " ", page)
    return set(WORD.findall(html.unescape(page)))


def data_words(t: Tournament) -> set[str]:
    """What the organiser typed (German on purpose): names, clubs, venue, purpose, prizes."""
    texts = [t.name, t.venue, t.charity_purpose]
    texts += [x for e in Entrant.objects.filter(tournament=t) for x in (e.name, e.partner, e.club)]
    texts += list(Prize.objects.filter(tournament=t).values_list("description", flat=True))
    texts += list(t.extra_donations.values_list("description", flat=True))
    return {w for text in texts for w in WORD.findall(text or "")}


def test_every_page_in_english_shows_no_german_word():
    t, _created = create_demo(singles=13, pairs=4, scored_rounds=2, slug="english")
    t.public_pages = True
    t.save()
    german, english = catalogue_words()
    # a word the English texts use too is no sign of German (Binokel, Durch, Dabb, …): the
    # app's English catalogue, the engines' English messages (which keep the game's terms:
    # Familie, Paar), and the presets' names
    english |= set(WORD.findall((settings.BASE_DIR / "scoring" / "messages.py").read_text()))
    english |= {w for name in PRESETS for w in WORD.findall(name)}
    suspicious = german - english - data_words(t)
    client = Client()
    client.force_login(get_user_model().objects.get(username="orga"))
    client.cookies["django_language"] = "en"
    found: dict[str, set[str]] = {}
    urls = [u.url(t) for u in DESK_URLS if u.method == "GET"]
    urls += [p.path.format(slug=t.slug, mode="singles") for p in PUBLIC_URLS if p.method == "GET"]
    urls += [reverse("public:prizes", args=[t.slug, "singles"])]
    read = 0
    for url in sorted(set(urls)):
        response = client.get(url)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        read += 1
        hits = visible_words(response.content.decode()) & suspicious
        if hits:
            found[url] = hits
    # the table's phone page draws its words from a JSON block (script): read those too
    from binokel_tournament.models import Table

    table = Table.objects.filter(round__tournament=t, round__number=3).order_by("number")[0]
    phone = client.get(reverse("table:page", args=[table.entry_token])).content.decode()
    strings = phone.split('id="table-strings" type="application/json">')[1].split("</script>")[0]
    words = {w for text in json.loads(strings).values() for w in WORD.findall(text)}
    assert "Call" in words  # English, and read
    hits = words & suspicious
    if hits:
        found["table:page strings"] = hits
    assert found == {}
    assert read >= 30, read  # the pages were really read
    # the same check finds German where it is: the dashboard in German
    client.cookies["django_language"] = "de"
    german_page = client.get(reverse("desk:dashboard", args=[t.slug])).content.decode()
    assert len(visible_words(german_page) & suspicious) > 20
