"""The prize giving in a real browser: the desk helper records the first winner's choice,
the page moves on to the next winner, and the beamer shows who chooses next."""

from __future__ import annotations

import pytest

from binokel_tournament.models import Mode, Prize
from binokel_tournament.services.demo import create_demo
from binokel_tournament.services.money.prizes import contenders, prize_table

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


def test_a_returning_player_is_chosen_while_the_name_is_typed(page):
    """Registration: typing "mueller" offers the register's Anna Müller; choosing her fills
    the name and club, and the new entrant is linked to her."""
    from binokel_tournament.models import Entrant, Player

    t, _created = create_demo(6, 0, scored_rounds=0, slug="anmeldung")
    anna = Player.objects.create(name="Anna Müller", club="SV Ulm")
    login(page, "kasse")
    page.goto(f"/desk/{t.slug}/teilnehmer/singles/")
    page.locator("#id_name").press_sequentially("anna mueller")
    offer = page.locator(f'#suggest-player button[data-player="{anna.pk}"]')
    offer.click()
    assert page.locator("#id_player").input_value() == str(anna.pk)
    assert page.locator("#id_name").input_value() == "Anna Müller"
    assert page.locator("#id_club").input_value() == "SV Ulm"
    page.locator("#id_name").press("Enter")
    page.wait_for_selector("#entrants td:text-is('Anna Müller')")
    assert Entrant.objects.get(tournament=t, name="Anna Müller").player_id == anna.pk
