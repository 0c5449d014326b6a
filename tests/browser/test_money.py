"""The money page in a real browser: a row's "offen" buttons mark the Startgeld and the
donation paid (each row's buttons post through one of the page's two forms), and the page
comes back at that row saying "bezahlt"."""

from __future__ import annotations

import pytest

from binokel_tournament.models import Entrant
from binokel_tournament.services.demo import create_demo
from binokel_tournament.services.money import charity

from .support import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_fee_and_donation_are_marked_paid_from_their_row(page):
    t, _created = create_demo(8, 0, scored_rounds=1, slug="kasse")
    owing = [i for i in charity.statements(t) if i.statement.donation_cents]
    item = owing[-1]
    number = item.entrant.start_number
    Entrant.objects.filter(pk=item.entrant.pk).update(fee_paid=False, donation_paid=False)
    others = Entrant.objects.filter(tournament=t).exclude(pk=item.entrant.pk)
    before = {e.pk: (e.fee_paid, e.donation_paid) for e in others}
    login(page, "kasse")
    page.goto(f"/desk/{t.slug}/geld/")
    for what in ("fee", "donation"):
        button = page.locator(f"button[data-{what}='{number}']")
        assert button.inner_text() == "offen"
        button.click()
        page.wait_for_selector(f"button[data-{what}='{number}'].paid")
        assert page.url.endswith(f"#e{number}")
    fresh = Entrant.objects.get(pk=item.entrant.pk)
    assert fresh.fee_paid and fresh.donation_paid
    assert {e.pk: (e.fee_paid, e.donation_paid) for e in others.all()} == before  # nobody else
