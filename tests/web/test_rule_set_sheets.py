"""The desk and the printed sheet follow the tournament's rule set: only the kinds it plays,
its meld values, its minus points (Luxusfamilie), its total of eyes; and the enumerations of the
app mirror the engines' (defined once there)."""

from __future__ import annotations

import pytest
from django.urls import reverse

import pairing
import scoring
from binokel_tournament.exports import ExportOptions
from binokel_tournament.exports.pdf import ScoreSheetsExporter
from binokel_tournament.models import GAME_KIND_KEYS, GameKind, Mode, PartyResult, TableKind
from binokel_tournament.services.evening.registration import create_tournament, register_entrant
from binokel_tournament.services.evening.seating import generate_seating
from binokel_tournament.services.sheets import sheet_fields as F
from binokel_tournament.services.sheets.writer import save_sheet
from scoring.tables import TableKind as EngineTableKind
from tests.exports.reading import pdf_pages

pytestmark = pytest.mark.django_db


def test_the_apps_enumerations_mirror_the_engines():
    assert set(GameKind.values) == {k.value for k in scoring.GameKind}
    assert set(GAME_KIND_KEYS) == set(GameKind.values)
    assert len(set(GAME_KIND_KEYS.values())) == len(GAME_KIND_KEYS)  # one letter per kind
    assert set(TableKind.values) == {k.value for k in EngineTableKind}
    assert set(Mode.values) == {m.value for m in pairing.Mode}


def one_table(preset: str, creator=None, **rules: object):
    t = create_tournament(
        f"Turnier {preset}", modes=[Mode.SINGLES], rounds=1, preset=preset, creator=creator
    )
    if rules:
        t.rules_json = rules
        t.save()
    competition = t.competitions.get()
    for i in range(3):
        register_entrant(competition, f"Spieler {i + 1}")
    generate_seating(competition)
    return t, t.round_set.get().tables.get()


def sheet_page(client, t, table) -> str:
    return client.get(reverse("desk:sheet", args=[t.slug, table.pk])).content.decode()


def kind_options(html: str) -> list[str]:
    first = html.split(f'name="{F.game_field(1, "kind")}"', 1)[1].split("</select>", 1)[0]
    return [part.split('"', 1)[0] for part in first.split('<option value="')[1:]]


def test_the_desk_offers_only_the_kinds_the_rule_set_plays(desk_client, orga):
    t, table = one_table("preisbinokel", orga)
    assert kind_options(sheet_page(desk_client, t, table)) == ["played", "conceded"]
    kinds = ["played", "conceded", "durch", "aufgelegt", "bettel"]
    t2, table2 = one_table("ejl", orga, game_kinds=kinds)
    html = sheet_page(desk_client, t2, table2)
    assert kind_options(html) == kinds
    assert "<kbd>f</kbd> Durch aufgelegt" in html and "<kbd>e</kbd> Bettel" in html


def test_luxusfamilie_has_minus_points_240_eyes_and_its_own_meld_table(desk_client, orga):
    t, table = one_table("luxusfamilie", orga)
    html = sheet_page(desk_client, t, table)
    assert 'data-total-eyes="240"' in html
    assert f'name="{F.column_field(1, 2, "penalty")}"' in html
    assert "Luxusfamilie mit doppelter Familie" in html  # the meld table of the rule set
    # the rules of docs/rules.md "luxusfamilie" through the desk: 90 Machtpunkte -> 120, minus 20
    # before scaling
    entries = {
        F.game_field(1, "declarer"): "2",
        F.game_field(1, "bid"): "200",
        F.column_field(1, 1, "meld"): "40",
        F.column_field(1, 1, "tricks"): "90",
        F.column_field(1, 1, "penalty"): "20",
        F.column_field(1, 2, "meld"): "140",
        F.column_field(1, 2, "tricks"): "110",
        F.column_field(1, 3, "tricks"): "40",
    }
    outcome = save_sheet(table, entries, orga, expected_version=0)
    assert outcome.evaluation.error_count == 0, outcome.evaluation.errors
    expected = scoring.score_game(
        scoring.GameInput(
            scoring.GameKind.PLAYED,
            1,
            200,
            (
                scoring.PartyInput(meld=40, tricks=90, penalty=20),
                scoring.PartyInput(meld=140, tricks=110),
                scoring.PartyInput(tricks=40),
            ),
        ),
        t.rules(),
    )
    stored = PartyResult.objects.filter(game__number=1).order_by("entrant__start_number")
    seats = {s.entrant_id: s.position for s in table.seats.all()}
    points = {seats[r.entrant_id]: r.points for r in stored}
    assert tuple(points[p] for p in (1, 2, 3)) == expected.points


def test_the_printed_sheet_names_only_the_kinds_the_rule_set_plays():
    t, _table = one_table("preisbinokel")
    text = " ".join(pdf_pages(ScoreSheetsExporter(t).render(ExportOptions(round_number=1))))
    assert "g = gespielt" in text and "a = abgeschrieben" in text
    assert "= Durch" not in text


def test_every_game_kind_fact_comes_from_the_engine():
    """The engine's GameKind owns the kinds: the model's choices mirror it (the ORM needs a
    field), the letters and the settings form's labels are built from it, the statistics' and
    money's kinds are its own."""
    from binokel_tournament.forms import KIND_LABELS
    from charity import statistics
    from scoring import GameKind as Engine
    from scoring import donations as money

    assert list(GameKind.values) == [k.value for k in Engine]
    assert {k.value: k.letter for k in Engine} == GAME_KIND_KEYS
    assert list(KIND_LABELS) == list(Engine)
    assert {k.value for k in Engine if k.is_durch} == statistics.DURCH_KINDS
    assert money.CONCEDED == statistics.CONCEDED == Engine.CONCEDED
