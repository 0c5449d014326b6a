"""The live public pages and the static site are made by the same builders
(``binokel_tournament.pages``): for every page the site writes, the live page lists the same
people, prizes and figures in the same order. One demo evening (two rounds scored, prizes,
categories, a cup, one player who asked not to be named: neither name nor club shows), rolled
back at the end."""

from __future__ import annotations

import io
import re
import tempfile
from html import unescape
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from binokel_tournament.models import Entrant, Mode, Series
from binokel_tournament.services.demo import create_demo
from binokel_tournament.services.money import prizes as prize_service
from tests.support import rolled_back


@pytest.fixture(scope="module")
def evening(django_db_setup, django_db_blocker):
    with rolled_back(django_db_blocker):
        t, _created = create_demo(14, 4, scored_rounds=2, slug="seiten")
        t.entrants.filter(start_number=3).update(public_name=False, club="TV Verborgen")
        competition = t.competitions.get(mode=Mode.SINGLES)
        last = competition.prizes.filter(special="").order_by("position", "pk").last()
        prize_service.record_choice(last, prize_service.prize_table(competition).next_chooser, None)
        out = Path(tempfile.mkdtemp(prefix="seiten-"))
        call_command("export_site", "--tournament", t.slug, "--out", str(out), stdout=io.StringIO())
        yield t, out


def text(html: str) -> str:
    """The page's visible text, one space between tags."""
    body = html.split("<body", 1)[-1]
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", body)))


def in_order(page: str, words: list[str]) -> list[str]:
    """Which of ``words`` the page shows, in the order it shows them first."""
    found = []
    for word in words:
        match = re.search(rf"(?<![\w]){re.escape(word)}(?![\w])", page)
        if match:
            found.append((match.start(), word))
    return [word for _at, word in sorted(found)]


def shown_names(t) -> list[str]:
    """Every name a public page may show: consenting entrants by name, the others by number."""
    names = []
    for e in Entrant.objects.filter(tournament=t):
        if e.public_name:
            names.extend(filter(None, (e.name, e.partner)))
        else:
            names.append(f"Startnummer {e.start_number}")
    return names


def pairs(t) -> list[tuple[str, str]]:
    """(live URL, site file) for every page both have."""
    result = [(reverse("public:statistics", args=[t.slug]), "statistik.html")]
    for c in t.competitions.all():
        args = [t.slug, c.mode]
        result += [
            (reverse("public:standings", args=args), f"rangliste-{c.mode}.html"),
            (reverse("public:standings", args=args) + "?round=1", f"rangliste-{c.mode}-d1.html"),
            (reverse("public:subrankings", args=args), f"kategorien-{c.mode}.html"),
            (reverse("public:prizes", args=args), f"preise-{c.mode}.html"),
        ]
    for series in Series.objects.filter(tournaments=t):
        result.append((reverse("public:series", args=[series.slug]), f"cup-{series.slug}.html"))
    return result


def test_the_site_writes_every_page_the_live_side_has(evening):
    t, out = evening
    for _url, name in pairs(t):
        assert (out / name).exists(), name


@pytest.mark.django_db
def test_each_page_lists_the_same_in_the_same_order_live_and_on_the_site(client, evening):
    t, out = evening
    names = shown_names(t)
    prizes = [p.description for c in t.competitions.all() for p in c.prizes.all()]
    hidden = Entrant.objects.get(tournament=t, start_number=3)
    for url, name in pairs(t):
        live_html = client.get(url).content.decode()
        site_html = (out / name).read_text(encoding="utf-8")
        live = text(re.sub(r'<p class="beamer-next".*?</p>', "", live_html))  # "Jetzt wählt": live
        site = text(site_html)
        for words in (names, prizes):
            shown = in_order(site, words)
            assert in_order(live, words) == shown, (url, name)
        assert in_order(site, names + prizes), name  # every page lists somebody or something
        assert hidden.name not in live and hidden.name not in site, name
        for html in (live_html, site_html):  # nor beside the club
            rows = re.findall(r"<tr\b.*?</tr>", html, flags=re.S)
            assert not [
                r for r in rows if hidden.club in r and in_order(text(r), ["Startnummer 3"])
            ]


@pytest.mark.django_db
def test_the_tournament_page_and_the_site_index_say_the_same_total(client, evening):
    t, out = evening
    live = text(client.get(reverse("public:tournament", args=[t.slug])).content.decode())
    site = text((out / "index.html").read_text(encoding="utf-8"))
    said = re.search(r"Am [^:]+ für [^:]+ erspielt: [\d.,]+ €", site)
    assert said and said.group(0) in live


def header_cells(html: str, table: str = "") -> list[str]:
    """The column headers of the page's (first, or the named) table, as text."""
    html = html.split(table, 1)[1] if table else html
    head = re.search(r"<thead>(.*?)</thead>", html, flags=re.S)
    assert head, table
    return [text(th).strip() for th in re.findall(r"<th\b.*?</th>", head.group(1), flags=re.S)]


@pytest.mark.django_db
def test_the_standings_have_one_set_of_columns_live_on_the_beamer_on_the_site_and_in_the_pdf(
    client, evening
):
    """Place, number, name, club, the rounds, the total and the tie-breaks: the live standings,
    the beamer, the static site and the PDF show the same columns in the same order."""
    from binokel_tournament.exports.pdf.standings import StandingsExporter
    from binokel_tournament.services.evening.standings import compute_standings

    t, out = evening
    for c in t.competitions.all():
        standings = compute_standings(c)
        assert standings.metrics  # the tie-breaks are there to be compared
        args = [t.slug, c.mode]
        live = header_cells(client.get(reverse("public:standings", args=args)).content.decode())
        beamer = client.get(reverse("public:beamer", args=args)).content.decode()
        site = header_cells((out / f"rangliste-{c.mode}.html").read_text(encoding="utf-8"))
        pdf = [col.label for col in StandingsExporter(t)._columns(standings)]
        assert [m.label for m in standings.metrics][-1] in live
        assert live == header_cells(beamer, 'id="beamer-table"') == site == pdf, c.mode
        # and each row has a cell under every column
        row = re.search(r'<tbody id="beamer-rows".*?<tr\b.*?</tr>', beamer, flags=re.S)
        assert row and len(re.findall(r"<td\b", row.group(0))) == len(live)
