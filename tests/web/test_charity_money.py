"""The charity evening's money at the desk: statements follow from the stored games (counted
here independently), Startgeld paid with one keystroke at registration, paid/open toggles,
extra donations, the settings form, and the total on dashboard and beamer. One demo for the
module (13 Einzel, 4 pairs, round 1 scored), rolled back at the end."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from binokel_tournament.models import AuditLog, Entrant, Mode, PartyResult, SheetStatus
from binokel_tournament.services.demo import create_demo
from binokel_tournament.services.money import charity
from tests.support import rolled_back


@pytest.fixture(scope="module")
def evening(django_db_setup, django_db_blocker):
    with rolled_back(django_db_blocker):
        yield create_demo(13, 4, scored_rounds=1, slug="benefiz")[0]


@pytest.fixture
def helper(client, evening, db):
    client.force_login(get_user_model().objects.get(username="kasse"))
    return client


@pytest.fixture
def organiser(client, evening, db):
    client.force_login(get_user_model().objects.get(username="orga"))
    return client


def donation_by_hand(lost: int) -> int:
    """The demo's rule written out: 50 cents per lost game, 1 € from the fifth."""
    return sum(50 if n < 5 else 100 for n in range(1, lost + 1))


def test_statements_follow_from_the_stored_games(evening, db):
    items = {i.entrant.start_number: i.statement for i in charity.statements(evening)}
    assert len(items) == 17
    lost: dict[int, int] = {}
    for r in PartyResult.objects.filter(
        entrant__tournament=evening, game__sheet__status=SheetStatus.CONFIRMED
    ).select_related("game", "entrant"):
        if r.is_declarer and not r.game.won and r.game.kind != "conceded":
            lost[r.entrant.start_number] = lost.get(r.entrant.start_number, 0) + 1
    assert sum(lost.values()) > 0  # the demo's round has lost games
    for number, s in items.items():
        assert s.lost == lost.get(number, 0), number
        assert s.donation_cents == donation_by_hand(s.lost)
        assert s.fee_cents == 800  # a pair pays once by default
    total = charity.evening(evening)
    assert total.fees_cents == 17 * 800
    assert total.donations_cents == sum(donation_by_hand(n) for n in lost.values())
    assert total.total_cents == 17 * 800 + total.donations_cents + 8550
    paid_fees = 800 * Entrant.objects.filter(tournament=evening, fee_paid=True).count()
    assert total.paid_cents == paid_fees + 8550


def test_the_total_read_from_plain_values_is_the_sum_of_the_statements(evening, db):
    """The dashboard and the beamer total every entrant without model instances; the money
    page totals its statements. Both agree, also with a withdrawn entrant who played (listed)
    and one who never did (not listed), and with pairs paying per player."""
    t = charity.update_charity_settings(evening, None, {"fee_per_player": True})
    played = Entrant.objects.filter(tournament=evening, results__isnull=False).distinct().first()
    never = Entrant.objects.create(
        tournament=evening,
        competition=played.competition,
        start_number=999,
        name="Nie Gespielt",
        withdrawn=True,
    )
    Entrant.objects.filter(pk=played.pk).update(withdrawn=True)
    try:
        items = charity.statements(t)
        numbers = {i.entrant.start_number for i in items}
        assert played.start_number in numbers and never.start_number not in numbers
        assert any(i.statement.players == 2 and i.statement.fee_cents == 1600 for i in items)
        assert charity.evening(t) == charity.evening(t, items)
    finally:
        never.delete()
        Entrant.objects.filter(pk=played.pk).update(withdrawn=False)
        charity.update_charity_settings(evening, None, {"fee_per_player": False})


def test_a_substitute_out_of_competition_pays_no_startgeld(evening, db):
    """A pair filling a table "außer Konkurrenz" is no paying entrant; its lost games still
    count as donations. The money page and the evening's total agree."""
    pair = Entrant.objects.filter(tournament=evening, competition__mode=Mode.PAIRS).first()
    before = charity.evening(evening)
    Entrant.objects.filter(pk=pair.pk).update(unranked=True)
    try:
        items = charity.statements(evening)
        mine = next(i.statement for i in items if i.entrant.pk == pair.pk)
        assert mine.fee_cents == 0
        after = charity.evening(evening)
        assert after == charity.evening(evening, items)
        assert before.fees_cents - after.fees_cents == 800
        assert after.donations_cents == before.donations_cents
    finally:
        Entrant.objects.filter(pk=pair.pk).update(unranked=False)


def test_pairs_pay_per_player_when_the_organiser_says_so(evening, db):
    changed = charity.update_charity_settings(evening, None, {"fee_per_player": True})
    pairs = [i for i in charity.statements(changed) if i.entrant.competition.mode == Mode.PAIRS]
    assert pairs and {i.statement.fee_cents for i in pairs} == {1600}


def test_startgeld_is_paid_with_the_registration(helper, evening):
    url = reverse("desk:entrants", args=[evening.slug, "singles"])
    page = helper.get(url).content.decode()
    assert 'name="fee_paid"' in page and "8,00" in page
    response = helper.post(
        url, {"name": "Späte Berta", "club": "", "fee_paid": "on", "categories": ["damen"]}
    )
    assert response.status_code == 302
    berta = Entrant.objects.get(tournament=evening, name="Späte Berta")
    assert berta.fee_paid and berta.categories == ["damen"]
    assert AuditLog.objects.filter(action="entrant.payment", object_id=str(berta.pk)).exists()


def test_the_desk_marks_paid_and_open_and_the_total_follows(helper, evening):
    entrant = Entrant.objects.filter(tournament=evening, fee_paid=False).first()
    before = charity.evening(evening)
    pay = reverse("desk:pay", args=[evening.slug, entrant.pk])
    response = helper.post(pay, {"what": "fee", "paid": "1", "next": "https://evil.example/"})
    assert response.status_code == 302 and "evil" not in response["Location"]
    entrant.refresh_from_db()
    assert entrant.fee_paid
    assert charity.evening(evening).paid_cents == before.paid_cents + 800
    helper.post(pay, {"what": "fee", "paid": "0"})
    entrant.refresh_from_db()
    assert not entrant.fee_paid


def test_extra_donations_count_in_the_total_on_every_screen(helper, evening):
    url = reverse("desk:money", args=[evening.slug])
    response = helper.post(
        url, {"action": "extra", "x-description": "Tombola", "x-amount": "12,50"}
    )
    assert response.status_code == 302
    total = charity.evening(evening)
    assert total.extra_cents == 8550 + 1250
    shown = f"{total.total_cents // 100:,}".replace(",", ".") + f",{total.total_cents % 100:02d}"
    for page in (
        helper.get(url),
        helper.get(reverse("desk:dashboard", args=[evening.slug])),
        helper.get(reverse("public:beamer", args=[evening.slug, "singles"])),
    ):
        assert shown in page.content.decode()
    bad = helper.post(url, {"action": "extra", "x-description": "Nichts", "x-amount": "zwölf"})
    assert bad.status_code == 200 and "kein Betrag" in bad.content.decode()


def test_the_organiser_sets_fee_and_tiers_in_euros(organiser, evening):
    url = reverse("desk:money", args=[evening.slug])
    data = {
        "action": "settings",
        "s-charity_purpose": "die Orgel",
        "s-entry_fee_cents": "7,50",
        "s-donation_tiers": "0,20; ab 3: 1",
        "s-prize_mode": "rank",
        "s-club_best": "2",
    }
    assert organiser.post(url, data).status_code == 302
    evening.refresh_from_db()
    assert evening.entry_fee_cents == 750
    assert evening.donation_tiers == [[1, 20], [3, 100]]
    assert evening.club_best == 2
    page = organiser.get(url).content.decode()
    assert "0,20; ab 3: 1,00" in page  # the tiers read back as typed
    bad = organiser.post(url, {**data, "s-donation_tiers": "viel"})
    assert bad.status_code == 200 and "verstehe ich nicht" in bad.content.decode()
    evening.refresh_from_db()
    assert evening.donation_tiers == [[1, 20], [3, 100]]
