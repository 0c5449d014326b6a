"""The prize giving in a real browser: the desk helper records the first winner's choice,
the page moves on to the next winner, and the beamer shows who chooses next."""

from __future__ import annotations

import pytest

from binokel_tournament.models import Mode, Prize
from binokel_tournament.services.demo import create_demo
from binokel_tournament.services.prizes import contenders, prize_table

from .support import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_desk_records_a_prize_choice_and_the_beamer_names_the_next(page):
    t, _created = create_demo(6, 0, scored_rounds=1, slug="preise")
    singles = t.competitions.get(mode=Mode.SINGLES)
    before = prize_table(singles)
    first, juice = before.next_chooser, Prize.objects.get(competition=singles, position=3)
    login(page, "kasse")

    page.goto(f"/desk/{t.slug}/preise/singles/")
    panel = page.locator("#next-chooser")
    assert panel.get_attribute("data-entrant") == str(first.pk)
    panel.locator(f'button[data-prize="{juice.pk}"]').click()
    page.wait_for_selector(f'#next-chooser:not([data-entrant="{first.pk}"])')
    winner = page.locator(f'#prize-table tr[data-prize="{juice.pk}"] td.winner')
    assert first.display_name in winner.inner_text()

    juice.refresh_from_db()
    assert juice.chosen_by_id == first.pk
    after = prize_table(singles)
    second = contenders(singles)[0][1]
    assert after.next_chooser.pk == second.entrant_id and after.next_place == second.place
    assert panel.get_attribute("data-entrant") == str(after.next_chooser.pk)

    page.goto(f"/t/{t.slug}/preise/singles/")
    assert after.next_chooser.display_name in page.locator("#next-chooser").inner_text()
