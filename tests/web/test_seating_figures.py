"""The seating page shows the quality figures the pairing engine measured when the plan was
made (or re-planned), without loading the plan again; the club figure C is given for every
round, and after a re-plan the played rounds are marked as such."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

import pairing
from binokel_tournament.models import Entrant, Mode
from binokel_tournament.services.evening import seating
from binokel_tournament.services.evening.registration import register_entrant
from binokel_tournament.services.evening.seating import (
    engine_entrants,
    generate_seating,
    plan_from_db,
    replan_seating,
    seating_figures,
)
from tests.support import start_round

pytestmark = pytest.mark.django_db


def figure_rows(page: str) -> list[tuple[str, str, str]]:
    table = page.split('class="data quality"')[1].split("</table>")[0]
    return re.findall(
        r"<tr><td>(.*?)</td><td class=\"num\">(-?\d+)</td><td class=\"num\">(-?\d+)</td>", table
    )


def test_the_page_shows_what_generate_seating_measured(desk_client, tournament, monkeypatch):
    comp = tournament.competitions.get(mode=Mode.SINGLES)
    summary = generate_seating(comp, seed=3)
    loaded = []
    real = seating.plan_from_db
    monkeypatch.setattr(seating, "plan_from_db", lambda c: loaded.append(c.mode) or real(c))
    page = desk_client.get(reverse("desk:seating", args=[tournament.slug])).content.decode()
    assert Mode.SINGLES not in loaded  # the figures were kept, the plan is not read again
    rows = figure_rows(page)
    quality = summary.quality
    assert rows[:3] == [
        ("R: wiederholte Begegnungen", str(quality.repeats.value), str(quality.repeats.bound)),
        ("F: meiste Durchgänge am Vierertisch", *map(str, vars(quality.four_tables).values())),
        ("S: Ausgleich von Geben und Schreiben", *map(str, vars(quality.seat_balance).values())),
    ]
    clubs = pairing.clubs_by_round(summary.plan, engine_entrants(list(comp.entrants.all())))
    assert rows[3:] == [
        (f"C: Vereinskollegen an einem Tisch im {n}. Durchgang", str(c.value), str(c.bound))
        for n, c in enumerate(clubs, start=1)
    ]
    assert rows[3][1:] == (str(quality.clubs.value), str(quality.clubs.bound))  # round 1 = C


def test_after_a_re_plan_the_club_figure_covers_every_round_and_names_the_played_ones(seated):
    comp = seated.competitions.get(mode=Mode.SINGLES)
    start_round(seated.round_set.get(number=1))
    Entrant.objects.filter(name="Spieler 2").update(withdrawn=True)
    register_entrant(comp, "Späte Spielerin", club="Verein 1", late=True)
    summary = replan_seating(comp, seed=1)
    lines = seating_figures(comp)
    labels = [line.label for line in lines]
    assert labels == [
        "R: wiederholte Begegnungen",
        "F: meiste Durchgänge am Vierertisch",
        "S: Ausgleich von Geben und Schreiben",
        "D: Plätze, die sich durch die Neuplanung geändert haben",
        "C: Vereinskollegen an einem Tisch im 1. Durchgang (gespielt)",
        "C: Vereinskollegen an einem Tisch im 2. Durchgang",
        "C: Vereinskollegen an einem Tisch im 3. Durchgang",
    ]
    assert (lines[3].value, lines[3].bound) == (
        summary.quality.changes.value,
        summary.quality.changes.bound,
    )
    played_round = lines[4]
    assert played_round.value == played_round.bound  # a played round cannot change


def test_a_plan_without_stored_figures_is_measured_once(seated):
    comp = seated.competitions.get(mode=Mode.SINGLES)
    comp.seating_figures = None
    comp.save()
    plan = plan_from_db(comp)
    quality = pairing.check_plan(plan, engine_entrants(list(comp.entrants.all())))
    lines = seating_figures(comp)
    assert (lines[0].value, lines[0].bound) == (quality.repeats.value, quality.repeats.bound)
    assert len(lines) == 3 + 3  # R, F, S and C for each of the three rounds
