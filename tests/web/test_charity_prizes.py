"""The prize table at the desk: winners choose in rank order (the desk records it; a choice
out of turn or of a taken prize is refused and changes nothing), choices can be taken back,
places get prizes by rank when the organiser says so, special prizes find their winners.
One demo for the module (13 Einzel, 4 pairs, round 1 scored), rolled back at the end."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from binokel_tournament.models import Mode, Prize, PrizeMode, Special
from binokel_tournament.services.demo import create_demo
from binokel_tournament.services.evening.standings import compute_standings
from binokel_tournament.services.money import prizes
from binokel_tournament.services.money.charity import update_charity_settings
from tests.support import rolled_back


@pytest.fixture(scope="module")
def evening(django_db_setup, django_db_blocker):
    with rolled_back(django_db_blocker):
        yield create_demo(13, 4, scored_rounds=1, slug="benefiz-preise")[0]


@pytest.fixture
def helper(client, evening, db):
    client.force_login(get_user_model().objects.get(username="kasse"))
    return client


def singles(t):
    return t.competitions.get(mode=Mode.SINGLES)


def test_winners_choose_in_rank_order_and_the_desk_records_it(helper, evening):
    competition = singles(evening)
    url = reverse("desk:prizes", args=[evening.slug, "singles"])
    ranked = [r for r in compute_standings(competition).rows if r.place is not None]
    table = prizes.prize_table(competition)
    assert table.next_chooser.pk == ranked[0].entrant.pk
    page = helper.get(url).content.decode()
    assert ranked[0].entrant.display_name in page and "Jetzt wählt" in page
    honey = Prize.objects.get(competition=competition, description="Glas Honig vom Imker")
    out_of_turn = {"action": "choose", "prize": honey.pk, "entrant": ranked[1].entrant.pk}
    response = helper.post(url, out_of_turn, follow=True)
    assert "Jetzt wählt jemand anderes" in response.content.decode()
    honey.refresh_from_db()
    assert honey.chosen_by is None
    in_turn = {**out_of_turn, "entrant": ranked[0].entrant.pk}
    assert helper.post(url, in_turn).status_code == 302
    honey.refresh_from_db()
    assert honey.chosen_by_id == ranked[0].entrant.pk
    again = helper.post(url, {**in_turn, "entrant": ranked[1].entrant.pk}, follow=True)
    assert "schon gewählt" in again.content.decode()
    table = prizes.prize_table(competition)
    assert table.next_chooser.pk == ranked[1].entrant.pk
    assert honey not in table.open_prizes
    helper.post(url, {"action": "undo", "prize": honey.pk})
    honey.refresh_from_db()
    assert honey.chosen_by is None
    assert prizes.prize_table(competition).next_chooser.pk == ranked[0].entrant.pk


def test_in_rank_mode_places_get_the_prizes_in_order(evening, db):
    changed = update_charity_settings(evening, None, {"prize_mode": PrizeMode.RANK})
    competition = singles(changed)
    ranked = [r for r in compute_standings(competition).rows if r.place is not None]
    rows = prizes.prize_table(competition).rows
    places = [r for r in rows if not r.prize.special]
    assert [r.entrant.pk for r in places] == [r.entrant.pk for r in ranked[: len(places)]]
    specials = {r.prize.special: r for r in rows if r.prize.special}
    assert specials[Special.LATERNE].entrant.pk == ranked[-1].entrant.pk
    women = [r for r in ranked if "damen" in (r.entrant.categories or [])]
    best_woman = specials[Special.BEST_WOMAN].entrant
    assert (best_woman.pk if best_woman else None) == (women[0].entrant.pk if women else None)
    with pytest.raises(prizes.DeskError):
        prizes.record_choice(places[0].prize, ranked[0].entrant, None)


def test_the_organiser_adds_and_removes_prizes(client, evening, db):
    client.force_login(get_user_model().objects.get(username="orga"))
    url = reverse("desk:prizes", args=[evening.slug, "pairs"])
    data = {"action": "add", "mode": "pairs", "description": "Zwei Kinokarten", "value": "20"}
    assert client.post(url, data).status_code == 302
    prize = Prize.objects.get(description="Zwei Kinokarten")
    assert prize.value_cents == 2000 and prize.position == 4
    twice = {**data, "description": "Noch eine Laterne", "special": "laterne"}
    client.post(url, twice)
    response = client.post(url, twice)
    assert "gibt es in der Wertung schon" in response.content.decode()
    client.post(url, {"action": "remove", "prize": prize.pk})
    assert not Prize.objects.filter(pk=prize.pk).exists()


def test_withdrawn_entrants_win_nothing_and_are_marked_wherever_places_are_listed(
    client, evening, db
):
    """Issue 23: the rote Laterne went to a player out after round 1, shown as a plain
    place. One definition of who may win, the rule printed beside each prize, and the mark
    "(abgemeldet)" on the desk, the beamer and the prize table."""
    from binokel_tournament.models import Entrant, PartyResult

    changed = update_charity_settings(evening, None, {"prize_mode": PrizeMode.RANK})
    competition = singles(changed)
    ranked = [r for r in compute_standings(competition).rows if r.place is not None]
    first, last = ranked[0].entrant, ranked[-1].entrant
    Entrant.objects.filter(pk__in=[first.pk, last.pk]).update(withdrawn=True)
    # two games of 1000 in the competition: the Tausender and the report's highest game
    # follow the same rule (the earlier round, then the lower start number)
    results = PartyResult.objects.filter(entrant__competition=competition).order_by("id")
    a, b = (
        results.exclude(entrant__in=[first, last])[:1].get(),
        results.filter(entrant__start_number__gt=1)
        .exclude(entrant__in=[first, last])
        .order_by("-entrant__start_number")[:1]
        .get(),
    )
    kept = {a.pk: a.points, b.pk: b.points}
    PartyResult.objects.filter(pk__in=[a.pk, b.pk]).update(points=1000)
    try:
        table = prizes.prize_table(competition)
        winners = {r.entrant.pk for r in table.rows if r.entrant is not None}
        assert first.pk not in winners and last.pk not in winners
        specials = {r.prize.special: r for r in table.rows if r.prize.special}
        laterne = specials[Special.LATERNE].entrant
        complete = [r for r in ranked if r.entrant.pk not in (first.pk, last.pk)]
        assert laterne.pk == complete[-1].entrant.pk
        from binokel_tournament.services.money.statistics import evening_statistics

        highest = evening_statistics(changed, Mode.SINGLES).stats.highest_game
        assert specials[Special.TAUSENDER].entrant.pk == highest.entrant_id
        client.force_login(get_user_model().objects.get(username="orga"))
        page = client.get(reverse("desk:prizes", args=[changed.slug, "singles"])).content.decode()
        assert "bei Gleichstand der frühere Durchgang" in page
        assert "ohne Abgemeldete" in page
        for url in (
            reverse("desk:standings", args=[changed.slug, "singles"]),
            reverse("public:beamer", args=[changed.slug, "singles"]),
        ):
            html = client.get(url).content.decode()
            assert f"{first.display_name} (abgemeldet)" in html, url
    finally:
        Entrant.objects.filter(pk__in=[first.pk, last.pk]).update(withdrawn=False)
        for pk, points in kept.items():
            PartyResult.objects.filter(pk=pk).update(points=points)
        update_charity_settings(evening, None, {"prize_mode": evening.prize_mode})


def test_one_prize_per_person_is_the_clubs_setting_and_labels_have_no_nested_brackets(
    client, evening, db
):
    """Issue 36: a setting "ein Preis je Person" (off by default: a place and a special prize
    may go to one person); a special prize reads "Grablicht (Rote Laterne)", or just the
    description where it names the kind already -- never "… (Rote Laterne (letzter Platz))"."""
    assert evening.one_prize_per_person is False
    client.force_login(get_user_model().objects.get(username="orga"))
    assert (
        'name="s-one_prize_per_person"'
        in client.get(reverse("desk:money", args=[evening.slug])).content.decode()
    )
    changed = update_charity_settings(
        evening, None, {"prize_mode": PrizeMode.RANK, "one_prize_per_person": True}
    )
    competition = singles(changed)
    rows = prizes.prize_table(competition).rows
    winners = [r.entrant.pk for r in rows if r.entrant is not None]
    assert winners and len(winners) == len(set(winners))
    laterne = Prize.objects.get(competition=competition, special=Special.LATERNE)
    assert "unter denen ohne anderen Preis" in prizes.special_rule(laterne)
    Prize.objects.filter(pk=laterne.pk).update(description="Rote Laterne: Grablicht")
    page = client.get(reverse("public:prizes", args=[evening.slug, "singles"])).content.decode()
    assert "Rote Laterne: Grablicht" in page
    assert "Rote Laterne: Grablicht (" not in page and "((" not in page
    Prize.objects.filter(pk=laterne.pk).update(description="Grablicht")
    page = client.get(reverse("public:prizes", args=[evening.slug, "singles"])).content.decode()
    assert "Grablicht (Rote Laterne)" in page
    assert "letzter Platz)" not in page
