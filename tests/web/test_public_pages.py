"""What players see on their phones: names found however they are typed, withdrawn entrants'
played rounds, and a standings table that keeps place, name, rounds and total on a phone."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from binokel_tournament.models import Mode, ScoreSheet
from binokel_tournament.services.evening.registration import create_tournament, register_entrant
from binokel_tournament.services.evening.seating import generate_seating
from binokel_tournament.services.names import NameQuery, fold


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("Muller", "Hans Müller"),
        ("Mueller", "Hans Müller"),
        ("muller", "Hans Müller"),
        ("MÜLLER", "Hans Mueller"),
        ("Strasser", "Eva Straßer"),
        ("straßer", "Eva Strasser"),
        ("haeussler oz", "Anna Häußler-Özdemir"),
        ("jose", "José Ruiz"),
    ],
)
def test_a_name_is_found_however_it_is_typed(typed, name):
    assert NameQuery(typed).found_in(name)


def test_folding_keeps_different_names_apart():
    assert not NameQuery("Meier").found_in("Hans Müller")
    assert not NameQuery("Müller Eva").found_in("Hans Müller")  # every word must occur
    assert not NameQuery("").found_in("Hans Müller")
    assert fold("Häußler-Özdemir  José") == "haussler ozdemir jose"


@pytest.fixture
def hall(db):
    t = create_tournament("Öffentlich", modes=[Mode.SINGLES], rounds=3)
    competition = t.competitions.get()
    names = ["Hans Müller", "Eva Straßer", "Christa Dürr"] + [f"Spieler {i}" for i in range(6)]
    for name in names:
        register_entrant(competition, name, club="Verein Übersee")
    generate_seating(competition)
    return t


def where(client, t, query: str) -> str:
    return client.get(reverse("public:where", args=[t.slug]), {"q": query}).content.decode()


@pytest.mark.parametrize("typed", ["Muller", "Mueller", "muller", "hans MÜLLER"])
def test_where_do_i_sit_finds_mueller_however_it_is_typed(client, hall, typed):
    html = where(client, hall, typed)
    assert "Hans Müller" in html
    assert len(re.findall(r"<li>\d\. Durchgang", html)) == 3  # all three rounds


def test_where_do_i_sit_finds_strasser_for_strasser_with_eszett(client, hall):
    assert "Eva Straßer" in where(client, hall, "Strasser")
    assert "Niemand gefunden" in where(client, hall, "Strasserin")


def test_a_withdrawn_entrant_is_found_with_the_rounds_played(client, hall):
    christa = hall.entrants.get(name="Christa Dürr")
    played = christa.seats.get(table__round__number=1).table
    ScoreSheet.objects.create(table=played)
    christa.withdrawn = True
    christa.save()
    html = where(client, hall, "Duerr")
    assert "Christa Dürr" in html and "abgemeldet" in html
    rounds = re.findall(r"<li>(\d)\. Durchgang: <strong>Tisch (\d+)</strong>", html)
    assert rounds == [("1", str(played.number))]


def test_standings_cells_say_what_a_phone_may_leave_out(client, hall):
    html = client.get(reverse("public:standings", args=[hall.slug, "singles"])).content.decode()
    row = re.search(r"<tbody><tr>(.*?)</tr>", html).group(1)
    classes = re.findall(r'<td class="([^"]*)">', row)
    assert classes[:4] == ["place", "num start", "name", "club"]
    assert classes[4:8] == ["num round"] * 3 + ["num total"]
    assert set(classes[8:]) <= {"num metric"}  # the tie-breaks, hidden on a phone
