"""Issue 36: registration at the desk takes typing at full speed. Names typed while the last
one is on its way used to go into the old page ("Carla CürtenDora Dürr", a lost "Emil Eßer",
"ottlieb Weißhaar"): the quick form now sends in the background and is empty at once. Thirty
names at 20 ms a key, Enter after each and no pause: all thirty entrants, exact, in order."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from binokel_tournament.models import Membership, Mode, Role
from binokel_tournament.services.evening.registration import create_tournament
from tests.support import artifact

from .support import login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Anna Aßmann", "Bernd Bäuerle", "Carla Cürten", "Dora Dürr", "Emil Eßer", "Frieda Fäßler",
    "Gottlieb Weißhaar", "Hans Höß", "Ida Irrgang", "Jörg Jäckle", "Karl Kühnle", "Lore Lämmle",
    "Max Müßle", "Nora Nägele", "Otto Öchsle", "Paula Pfäffle", "Quirin Quäl", "Rosa Rößler",
    "Sepp Schäufele", "Trude Täuber", "Uli Übele", "Vroni Vögele", "Willi Wößner",
    "Xaver Xäppler", "Yvonne Yßel", "Zenzi Zäh", "Albert Ärmel", "Berta Bölle",
    "Conrad Cäsar", "Doris Dörfle",
]  # fmt: skip


def test_thirty_names_typed_at_full_speed_are_thirty_exact_entrants(page):
    orga = get_user_model().objects.create_user("orga", password="binokel")
    t = create_tournament("Tippturnier", modes=[Mode.SINGLES], rounds=1)
    Membership.objects.create(tournament=t, user=orga, role=Role.ORGANISER)
    login(page)
    page.goto(f"/desk/{t.slug}/teilnehmer/singles/")
    page.wait_for_selector("#quick-add[data-pending='0']")  # the script is ready
    page.locator("#id_name").focus()
    for name in NAMES:
        page.keyboard.type(name, delay=20)
        page.keyboard.press("Enter")
    page.wait_for_selector("#quick-add[data-pending='0']")
    page.wait_for_function(
        f"document.querySelectorAll('#entrants tbody tr').length === {len(NAMES)}"
    )
    competition = t.competitions.get()
    stored = list(competition.entrants.order_by("start_number").values_list("start_number", "name"))
    assert stored == list(enumerate(NAMES, start=1))
    shown = page.locator("#entrants tbody tr td:nth-child(2)").all_inner_texts()
    assert sorted(shown) == sorted(NAMES)
    assert (
        page.locator("#quick-add-status")
        .inner_text()
        .startswith(f"{NAMES[-1]} hat die Startnummer 30")
    )
    assert page.locator("#id_name").input_value() == ""
    assert page.evaluate("document.activeElement.id") == "id_name"
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifact("quick-registration-phone.png")), full_page=False)


def test_a_refused_entry_is_named_and_put_back_when_nothing_new_was_typed(page):
    orga = get_user_model().objects.create_user("orga", password="binokel")
    t = create_tournament("Fehlerturnier", modes=[Mode.SINGLES], rounds=1)
    Membership.objects.create(tournament=t, user=orga, role=Role.ORGANISER)
    login(page)
    page.goto(f"/desk/{t.slug}/teilnehmer/singles/")
    page.wait_for_selector("#quick-add[data-pending='0']")
    page.locator("#id_name").focus()
    too_long = "X" * 121  # the form takes 120 characters
    page.evaluate("document.getElementById('id_name').removeAttribute('maxlength')")
    page.keyboard.insert_text(too_long)
    page.keyboard.press("Enter")
    page.wait_for_selector("#quick-add-status li.error")
    assert "ist nicht angemeldet" in page.locator("#quick-add-status").inner_text()
    assert page.locator("#id_name").input_value() == too_long
    assert t.competitions.get().entrants.count() == 0
