""" "Öffentliche Seiten" off means off: every URL of the URL conf that answers without a login
(the public pages, a player's own page and certificate, the online registration and its
confirmation, the cup, the beamer, the standings) answers 404 for the evening, the home page
and the Verein's page do not name it, the static site is refused, and only the tables' links
stay open (the phones need them during play). The URLs are read from the URL conf, so a
public page added later is tested too (or this test says it does not know its arguments)."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from binokel_tournament.models import Mode, Series, Table
from binokel_tournament.services.demo import create_demo
from binokel_tournament.services.evening import signup
from binokel_tournament.services.evening.players import ensure_links

pytestmark = pytest.mark.django_db

# what answers without a login but is no page of an evening: the login, the language switch
NOT_AN_EVENING = {"login", "logout", "set_language", "public:home", "public:verein"}
OPEN_WHEN_OFF = "table"  # the tables' links: a switch of their own (Tische erfassen am Handy)


def routes(resolver: URLResolver, namespace: str = "") -> list[tuple[str, list[str]]]:
    """(URL name with namespace, its arguments) of every URL outside the desk and the admin."""
    out = []
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            ns = entry.namespace or ""
            # the desk, the admin and the club server's API (a Verein's key, no public page)
            if ns in ("desk", "admin", "api") or str(entry.pattern).startswith("i18n/"):
                continue
            out += routes(entry, f"{namespace}{ns}:" if ns else namespace)
        elif isinstance(entry, URLPattern) and entry.name:
            out.append((namespace + entry.name, list(entry.pattern.converters)))
    return out


@pytest.fixture
def evening():
    t, _created = create_demo(9, 4, scored_rounds=3, slug="privat")
    t.public_pages = True
    t.save()
    series = Series.objects.filter(tournaments=t).first()  # the demo counts for a cup
    if series is None:
        series = Series.objects.create(slug="privat-cup", name="Privat-Cup", verein=t.verein)
        series.tournaments.add(t)
    link = ensure_links(t)[0]
    table = Table.objects.filter(round__tournament=t).order_by("round__number", "number")[0]
    return t, series, link, table


def url_of(name: str, params: list[str], world) -> str:
    t, series, link, table = world
    values = {"slug": t.slug, "mode": Mode.SINGLES, "token": link.token}
    if name == "public:series":
        values["slug"] = series.slug
    if name == "public:verein":
        values["slug"] = t.verein.slug
    if name.startswith(f"{OPEN_WHEN_OFF}:"):
        values["token"] = table.entry_token
    unknown = set(params) - set(values)
    assert not unknown, f"{name}: which {unknown}? Say it here."
    return reverse(name, kwargs={p: values[p] for p in params})


def test_every_public_url_answers_404_for_an_evening_without_public_pages(client, evening):
    t = evening[0]
    found = routes(get_resolver())
    names = {name for name, _params in found}
    assert {"public:personal", "public:signup", "public:beamer", "table:page"} <= names
    evening_urls = [
        (name, url_of(name, params, evening))
        for name, params in found
        if name not in NOT_AN_EVENING and not name.startswith(f"{OPEN_WHEN_OFF}:")
    ]
    # with public pages every one of them is there (so the 404s below are the switch's)
    for name, url in evening_urls:
        assert client.get(url).status_code == 200, (name, url)
    assert t.name in client.get(reverse("public:home")).content.decode()

    t.public_pages = False
    t.save()
    answers = {name: client.get(url).status_code for name, url in evening_urls}
    assert answers == dict.fromkeys(answers, 404)
    assert client.post(reverse("public:signup", args=[t.slug]), {"name": "X"}).status_code == 404
    for name in ("public:home", "public:verein"):
        page = client.get(url_of(name, [p for n, p in found if n == name][0], evening))
        assert page.status_code == 200 and t.name not in page.content.decode(), name
    # the tables' links stay open: the phones need them during play
    table_page = client.get(url_of("table:page", ["token"], evening))
    assert table_page.status_code == 200


def test_without_public_pages_no_online_registration_and_no_static_site(evening, tmp_path):
    t = evening[0]
    t.public_pages = False
    t.save()
    competition = t.competitions.get(mode=Mode.SINGLES)
    competition.registration_open = True
    competition.save()
    state = signup.state(competition)
    assert not state.open and "öffentlichen Seiten" in state.reason  # the desk says why
    with pytest.raises(CommandError, match="keine öffentlichen Seiten"):
        call_command(
            "export_site", "--tournament", t.slug, "--out", str(tmp_path), stdout=io.StringIO()
        )
    assert not any(tmp_path.iterdir())


def test_the_setting_says_what_stays_open(client, evening):
    from django.contrib.auth import get_user_model

    t = evening[0]
    client.force_login(get_user_model().objects.get(username="orga"))
    page = client.get(reverse("desk:tournament_edit", args=[t.slug])).content.decode()
    assert "keine persönlichen Seiten" in page and "Offen bleiben nur die Links der Tische" in page
