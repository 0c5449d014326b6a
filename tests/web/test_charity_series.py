"""Series (cups) and the player register: returning players are found by name and linked
explicitly at the desk, a series adds up the evenings (points or cup points, best n, only
those at every evening), duplicates are merged and entries deleted on request; the static
site carries it all. Two small evenings for the module, rolled back at the end."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from binokel_tournament.models import AuditLog, Entrant, Mode, Player, Series, SeriesMethod
from binokel_tournament.services.demo import create_demo
from binokel_tournament.services.evening.standings import compute_standings
from binokel_tournament.services.money import series as service
from charity.series import DEFAULT_CUP_POINTS
from tests.support import rolled_back


@pytest.fixture(scope="module")
def evenings(django_db_setup, django_db_blocker):
    """Two evenings with the same six players (the demo generator is deterministic); the
    second evening's entrants are not yet in the register."""
    with rolled_back(django_db_blocker):
        first, _c = create_demo(6, 0, scored_rounds=1, slug="abend-1")
        second, _c = create_demo(6, 0, scored_rounds=1, slug="abend-2")
        Entrant.objects.filter(tournament=second).update(player=None)
        Player.objects.filter(entries__isnull=True, partner_entries__isnull=True).delete()
        yield first, second


def link_all(t) -> None:
    for e in t.entrants.all():
        service.link_player(e, service.candidates(e.name)[0], None)


def totals(t) -> dict[str, tuple[int, int]]:
    rows = compute_standings(t.competitions.get(mode=Mode.SINGLES)).rows
    return {r.entrant.name: (r.place, r.total) for r in rows}


def test_returning_players_are_linked_explicitly_and_the_cup_adds_up(client, evenings):
    first, second = evenings
    client.force_login(get_user_model().objects.get(username="kasse"))
    url = reverse("desk:player_links", args=[second.slug])
    page = client.get(url).content.decode()
    entrants = list(second.entrants.order_by("start_number"))
    for e in entrants:
        (player,) = service.candidates(e.name)
        assert player.entries.get().tournament == first
        assert f'data-link="{player.pk}"' in page
        response = client.post(url, {"entrant": e.pk, "action": "link", "player": player.pk})
        assert response.status_code == 302
    assert not Entrant.objects.filter(tournament=second, player__isnull=True).exists()

    cup = service.create_series("Cup", None, mode=Mode.SINGLES, require_all=True)
    service.update_series(cup, None, {}, [first, second])
    standings = service.series_standings(cup)
    one, two = totals(first), totals(second)
    assert standings.unlinked == 0 and len(standings.lines) == 6
    for line in standings.lines:
        assert line.row.place is not None and line.row.complete
        assert line.row.total == one[line.name][1] + two[line.name][1]
    assert [x.row.total for x in standings.lines] == sorted(
        (x.row.total for x in standings.lines), reverse=True
    )

    service.update_series(cup, None, {"method": SeriesMethod.CUP, "best": 1}, [first, second])
    for line in service.series_standings(Series.objects.get(pk=cup.pk)).lines:
        best_place = min(one[line.name][0], two[line.name][0])
        assert line.row.total == DEFAULT_CUP_POINTS[best_place - 1]
        assert line.row.counted.count(True) == 1


def test_only_those_at_every_evening_are_placed(evenings, db):
    first, second = evenings
    link_all(second)
    cup = service.create_series("Streng", None, mode=Mode.SINGLES, require_all=True)
    service.update_series(cup, None, {}, [first, second])
    missing = second.entrants.order_by("start_number").first()
    service.unlink_player(missing, None)
    lines = service.series_standings(cup).lines
    unplaced = [x for x in lines if x.row.place is None]
    assert [x.name for x in unplaced] == [missing.name] and lines[-1] is unplaced[0]
    assert service.series_standings(cup).unlinked == 1


def test_duplicates_are_merged_and_entries_deleted_on_request(client, evenings, db):
    first, second = evenings
    entrant = first.entrants.order_by("start_number").first()
    original = entrant.player
    duplicate = Player.objects.create(name=entrant.name, club="")
    other = second.entrants.get(name=entrant.name)
    service.link_player(other, duplicate, None)
    client.force_login(get_user_model().objects.get(username="orga"))
    register = reverse("desk:players")
    client.post(register, {"action": "merge", "player": original.pk, "other": duplicate.pk})
    duplicate.refresh_from_db()
    assert duplicate.merged_into_id == original.pk  # nothing moves: the merge can be undone
    cup = service.create_series("Zusammen", None, mode=Mode.SINGLES)
    service.update_series(cup, None, {}, [first, second])
    line = next(x for x in service.series_standings(cup).lines if x.name == entrant.name)
    assert [v is not None for v in line.row.values] == [True, True]  # one person, two evenings
    page = client.get(register).content.decode()
    assert f"zählt als #{original.pk}" in page
    client.post(register, {"action": "split", "player": duplicate.pk})
    duplicate.refresh_from_db()
    assert duplicate.merged_into_id is None
    assert list(duplicate.distinct_from.all()) == [original]  # not offered as one again
    assert AuditLog.objects.filter(action__in=["player.merge", "player.split"]).count() == 2
    client.force_login(get_user_model().objects.get(username="kasse"))
    assert client.get(register).status_code == 404  # the register is the organisers' (item 18)
    client.force_login(get_user_model().objects.get(username="orga"))
    client.post(register, {"action": "delete", "player": original.pk})
    entrant.refresh_from_db()
    assert entrant.player is None and entrant.name  # the evening keeps the name


def test_the_public_cup_names_only_who_agreed_and_the_site_has_it_all(client, evenings, db):
    first, second = evenings
    link_all(second)
    cup = service.create_series("Öffentlich", None, mode=Mode.SINGLES)
    service.update_series(cup, None, {}, [first, second])
    shy = first.entrants.order_by("start_number").first().player
    Player.objects.filter(pk=shy.pk).update(consent=False)
    Player.objects.exclude(pk=shy.pk).update(consent=True)
    page = client.get(reverse("public:series", args=[cup.slug])).content.decode()
    assert shy.name not in page and "(ohne Namen)" in page
    assert Player.objects.exclude(pk=shy.pk).filter(entries__tournament=first).first().name in page

    out = Path(call_command_out(first))
    index = (out / "index.html").read_text()
    # read after the evening: the total in the past, with its date
    assert "Heute Abend" not in index and "erspielt:" in index.split('id="evening-total"')[1]
    for name in ("rangliste-singles.html", "rangliste-singles-d1.html", "statistik.html"):
        assert f'href="{name}"' in index and (out / name).exists()
    assert f'href="cup-{cup.slug}.html"' in index
    standings = (out / "rangliste-singles.html").read_text()
    for name in totals(first):
        assert name in standings
    assert "<svg" in (out / "statistik.html").read_text()


def call_command_out(t) -> str:
    import io
    import tempfile

    out = tempfile.mkdtemp(prefix="site-")
    call_command("export_site", "--tournament", t.slug, "--out", out, stdout=io.StringIO())
    return out
