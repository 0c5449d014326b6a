"""The players' own side (issue 25, first slice): a personal link per person, the command that
prints them (contract), the personal page without login, and the links in the backup."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from binokel_tournament.models import Mode, PersonalLink, Tournament
from binokel_tournament.services.evening import players
from binokel_tournament.services.server.backup import backup_bytes, restore
from binokel_tournament.services.sheets.writer import save_sheet
from binokel_tournament.views.players import REFRESH_SECONDS

from .sheets import full_pair_table, full_three_table

pytestmark = pytest.mark.django_db


def player_links(*args: str) -> dict:
    out = StringIO()
    call_command("player_links", *args, stdout=out)
    return json.loads(out.getvalue())


def test_every_person_has_a_link_of_their_own_printed_as_the_contract_says(seated):
    printed = player_links("--tournament", seated.slug, "--base-url", "http://10.0.0.5:8000")
    people = printed["players"]
    assert set(printed) == {"players"}
    assert all(set(p) == {"start_number", "name", "url"} for p in people)
    singles = seated.entrants.filter(competition__mode=Mode.SINGLES).count()
    pairs = seated.entrants.filter(competition__mode=Mode.PAIRS)
    assert len(people) == singles + 2 * pairs.count()  # each partner has a link of their own
    pair = pairs.order_by("start_number").first()
    both = [p for p in people if p["start_number"] == pair.start_number]
    assert [p["name"] for p in both] == [pair.name, pair.partner]
    assert both[0]["url"] != both[1]["url"]
    assert all(p["url"].startswith("http://10.0.0.5:8000/p/") for p in people)
    assert [p["start_number"] for p in people] == sorted(p["start_number"] for p in people)
    # the links stay what they were: printed and sent once, valid all evening
    assert player_links("--tournament", seated.slug, "--base-url", "http://10.0.0.5:8000") == (
        printed
    )
    tokens = {p["url"].rstrip("/").rsplit("/", 1)[1] for p in people}
    assert len(tokens) == len(people) and all(len(t) >= 22 for t in tokens)


def personal(client, link: PersonalLink):
    return client.get(reverse("public:personal", args=[link.token]))


def test_the_personal_page_shows_my_tables_my_games_and_my_place(client, seated, orga):
    links = players.ensure_links(seated)
    table = seated.round_set.get(number=1).tables.filter(kind="three").order_by("number")[0]
    mine = table.seats.order_by("position")[0].entrant
    link = next(x for x in links if x.entrant_id == mine.pk)
    page = personal(client, link).content.decode()
    assert mine.name in page and f"Startnummer {mine.start_number}" in page
    for number in (1, 2, 3):
        assert f'id="round-{number}"' in page  # every round's table and seat
    companions = [str(s.entrant) for s in table.seats.exclude(entrant=mine)]
    assert all(c in page for c in companions)
    assert "Meine Spiele" not in page
    save_sheet(table, full_three_table(), orga, expected_version=0)  # a draft
    page = personal(client, link).content.decode()
    assert "Meine Spiele" in page and "noch nicht bestätigt" in page
    save_sheet(table, full_three_table(), orga, expected_version=1, confirm=True)
    page = personal(client, link).content.decode()
    assert "noch nicht bestätigt" not in page and "Platz " in page
    assert f'<meta http-equiv="refresh" content="{REFRESH_SECONDS}">' in page


def test_a_revoked_link_shows_nothing_and_the_person_gets_a_new_one(client, seated, orga):
    link = players.ensure_links(seated)[0]
    assert personal(client, link).status_code == 200
    new = players.revoke(link, orga)
    assert personal(client, link).status_code == 404
    assert personal(client, new).status_code == 200 and new.token != link.token
    assert client.get("/p/nichtsdergleichen12345/").status_code == 404
    assert [x.pk for x in players.ensure_links(seated) if x.entrant_id == link.entrant_id][
        0
    ] == new.pk


def test_the_page_is_kept_for_the_hall_and_renewed_by_a_table_entry(client, seated, orga):
    link = players.ensure_links(seated)[0]
    assert personal(client, link)["X-Binokel-Page"] == "made"
    assert personal(client, link)["X-Binokel-Page"] == "kept"
    table = link.entrant.seats.get(table__round__number=1).table
    if table.kind == "three":
        save_sheet(table, full_three_table(), orga, expected_version=0)  # a draft: my games
        assert personal(client, link)["X-Binokel-Page"] == "made"


def test_the_links_come_back_unchanged_from_a_backup_and_a_copy_gets_its_own(seated):
    links = players.ensure_links(seated)
    data = backup_bytes(seated)
    document = json.loads(data)
    assert [x["token"] for x in document["personal_links"]] == [x.token for x in links]
    Tournament.objects.filter(pk=seated.pk).update(slug="weg")  # the original stays here
    copy = restore(data, slug="kopie").tournament
    copied = players.ensure_links(copy)
    assert not {x.token for x in copied} & {x.token for x in links}
    assert len(copied) == len(links)


def test_backup_restore_backup_keeps_every_link_and_code_byte_for_byte(seated):
    """Registration on the club's server weeks before, the evening on the hall laptop: the
    links and codes travel unchanged, both ways."""
    from .test_backup import empty_the_database

    links = {
        (x.entrant.start_number, x.partner): (x.token, x.code) for x in players.ensure_links(seated)
    }
    first = backup_bytes(seated)
    empty_the_database()
    restored = restore(first).tournament
    assert backup_bytes(restored) == first
    again = {
        (x.entrant.start_number, x.partner): (x.token, x.code)
        for x in players.ensure_links(restored)
    }
    assert again == links


def test_after_a_replan_my_page_marks_the_changed_table(client, seated, orga):
    from binokel_tournament.services.evening.registration import update_entrant
    from binokel_tournament.services.evening.seating import replan_seating

    singles = seated.competitions.get(mode=Mode.SINGLES)
    first = singles.entrants.order_by("start_number").first()
    update_entrant(first, orga, withdrawn=True)
    summary = replan_seating(singles, seed=3, user=orga)
    moved = [c for c in summary.changes if c.after is not None and c.before is not None]
    assert moved, "the re-plan moved somebody"
    change = next(c for c in moved if c.before[0] != c.after[0])
    entrant = singles.entrants.get(start_number=change.start_number)
    link = next(x for x in players.ensure_links(seated) if x.entrant_id == entrant.pk)
    page = personal(client, link).content.decode()
    section = page.split(f'id="round-{change.round}"')[1].split("</section>")[0]
    assert f"Neu: Tisch {change.after[0]}" in section
    assert f"vorher Tisch {change.before[0]}" in section
    # someone the re-plan left where they were sees no mark
    kept = singles.entrants.exclude(
        start_number__in=[c.start_number for c in summary.changes]
    ).exclude(withdrawn=True)
    if kept.exists():
        other = next(x for x in players.ensure_links(seated) if x.entrant_id == kept[0].pk)
        assert "Neu: Tisch" not in personal(client, other).content.decode()
    # a fresh plan (not a re-plan) marks nobody
    from binokel_tournament.services.evening.seating import generate_seating

    generate_seating(singles, seed=4, user=orga)
    assert "Neu: Tisch" not in personal(client, link).content.decode()


def test_after_the_evening_my_certificate_as_pdf(client):
    import io

    import pdfplumber

    from binokel_tournament.services.demo import create_demo

    t, _created = create_demo(7, 0, scored_rounds=3, slug="ende")
    assert players.evening_over(t)
    link = players.ensure_links(t)[-1]
    page = personal(client, link).content.decode()
    assert 'id="certificate"' in page
    response = client.get(reverse("public:certificate", args=[link.token]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    with pdfplumber.open(io.BytesIO(response.content)) as pdf:
        assert len(pdf.pages) == 1
        text = pdf.pages[0].extract_text()
    assert link.entrant.name in text and "Urkunde" in text


def test_before_the_end_there_is_no_certificate(client, seated):
    link = players.ensure_links(seated)[0]
    assert 'id="certificate"' not in personal(client, link).content.decode()
    assert client.get(reverse("public:certificate", args=[link.token])).status_code == 404


def my_three_table(seated):
    """A singles player at a three-table of round 1, and that table."""
    singles = seated.competitions.get(mode=Mode.SINGLES)
    table = (
        seated.round_set.get(number=1)
        .tables.filter(kind="three", competition=singles)
        .order_by("number")[0]
    )
    me = table.seats.order_by("position")[0].entrant
    return next(x for x in players.links_of(me) if not x.partner), table


def test_before_anything_counts_my_page_says_so_instead_of_a_place(client, seated, orga):
    seated.show_interim = False  # only confirmed sheets count
    seated.save()
    link, table = my_three_table(seated)
    save_sheet(table, full_three_table(1), orga, expected_version=0)  # my first game, a draft
    page = personal(client, link).content.decode()
    assert "Summe: <strong>210</strong>" in page and "noch nicht bestätigt" in page
    assert "Noch keine Wertung" in page
    assert "Platz 1. =" not in page and "0 Punkte" not in page
    # once the sheet counts, the place follows the total the page shows
    save_sheet(table, full_three_table(), orga, expected_version=1, confirm=True)
    page = personal(client, link).content.decode()
    assert "Noch keine Wertung" not in page
    assert "Platz 1. · 2.520 Punkte" in page and "Summe: <strong>2.520</strong>" in page


def test_my_page_answers_304_until_what_it_shows_changes(client, seated, orga):
    link, table = my_three_table(seated)
    pairs = seated.competitions.get(mode=Mode.PAIRS)
    pair_table = seated.round_set.get(number=1).tables.filter(competition=pairs)[0]
    other = (
        seated.round_set.get(number=1)
        .tables.filter(kind="three", competition=table.competition)
        .exclude(pk=table.pk)[0]
    )
    save_sheet(other, full_three_table(1), orga, expected_version=0)  # the round starts
    first = personal(client, link)
    etag = first["ETag"]
    assert first.status_code == 200 and etag and first["Cache-Control"] == "no-cache"
    url = reverse("public:personal", args=[link.token])
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again["X-Binokel-Page"] == "unchanged"
    assert again.content == b""
    # a game in the Paare changes the hall's Paare ranking, not my page
    save_sheet(pair_table, full_pair_table(2), orga, expected_version=0)
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    # a game at my table does
    save_sheet(table, full_three_table(1), orga, expected_version=0)
    mine = client.get(url, headers={"If-None-Match": etag})
    assert mine.status_code == 200 and mine["ETag"] != etag
    assert "Meine Spiele" in mine.content.decode()


def test_a_confirmation_elsewhere_moves_my_place_on_the_kept_page(client, seated, orga):
    """My place and total follow every confirmed sheet in the hall, but the page around them
    is not made anew for it: it is served kept with the standing of now (and a new ETag)."""
    link, table = my_three_table(seated)
    save_sheet(table, full_three_table(), orga, expected_version=0, confirm=True)
    url = reverse("public:personal", args=[link.token])
    first = client.get(url)
    assert first["X-Binokel-Page"] == "made"
    assert "Platz 1. · 2.520 Punkte" in first.content.decode()
    others = (
        seated.round_set.get(number=1)
        .tables.filter(kind="three", competition=table.competition)
        .exclude(pk=table.pk)
    )
    # another table of three with the same games: my place is now shared
    save_sheet(others[0], full_three_table(), orga, expected_version=0, confirm=True)
    again = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 200 and again["X-Binokel-Page"] == "kept"
    assert again["ETag"] != first["ETag"]
    page = again.content.decode()
    assert "Platz 1. = · 2.520 Punkte" in page and "Platz 1. · " not in page
    assert client.get(url, headers={"If-None-Match": again["ETag"]}).status_code == 304
