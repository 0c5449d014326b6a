"""The demo tournament and `simulate`: really dealt hands, scored through the desk's service."""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.db.models import Sum

from binokel_tournament.models import Game, PartyResult, ScoreSheet, SheetStatus, Tournament
from binokel_tournament.services.evening.simulation import simulate_game
from scoring import achievable_pair_totals, achievable_totals, get_preset

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_demo_is_idempotent_and_scores_two_rounds():
    first = run("demo", "--singles", "12", "--pairs", "4")
    assert "angelegt" in first and "orga / binokel" in first
    second = run("demo", "--singles", "12", "--pairs", "4")
    assert "schon vorhanden" in second
    t = Tournament.objects.get()
    assert t.entrants.count() == 16
    confirmed = ScoreSheet.objects.filter(status=SheetStatus.CONFIRMED)
    assert set(confirmed.values_list("table__round__number", flat=True)) == {1, 2}
    assert confirmed.count() == 2 * (4 + 2)
    assert not ScoreSheet.objects.filter(table__round__number=3).exists()


def test_demo_games_come_from_real_hands():
    run("demo", "--singles", "12", "--pairs", "4")
    singles_melds = achievable_totals(12)
    pair_melds = achievable_pair_totals()
    for result in PartyResult.objects.select_related("game__sheet__table").exclude(meld=None):
        allowed = pair_melds if result.game.sheet.table.kind == "pairs" else singles_melds
        assert result.meld in allowed
    played = Game.objects.filter(kind="played")
    assert played.count() > 100
    for game in played.annotate(eyes=Sum("parties__tricks"))[:200]:
        assert game.eyes == 250
    kinds = set(Game.objects.values_list("kind", flat=True))
    assert "played" in kinds
    assert len(set(Game.objects.values_list("bid", flat=True))) > 5  # bids vary with the hands


def test_simulate_fills_round_three():
    run("demo", "--singles", "12", "--pairs", "4")
    out = run("simulate", "--round", "3")
    assert "6 Spielzettel" in out
    assert (
        ScoreSheet.objects.filter(table__round__number=3, status=SheetStatus.CONFIRMED).count() == 6
    )
    assert "0 Spielzettel" in run("simulate", "--round", "3")


def test_the_committed_fixture_is_what_the_demo_command_makes():
    """fixtures/demo.json comes from `manage.py demo --dump`; the generator is deterministic,
    so a fresh demo under another slug has the same seating and the same points."""
    from django.conf import settings

    from binokel_tournament.services.demo import create_demo
    from binokel_tournament.services.evening.standings import compute_standings

    call_command("loaddata", str(settings.BASE_DIR / "fixtures" / "demo.json"), verbosity=0)
    loaded = Tournament.objects.get(slug="benefizbinokel-demo")
    fresh, created = create_demo(slug="demo-check")
    assert created

    def summary(t):
        out = {}
        for c in t.competitions.order_by("mode"):
            out[c.mode] = [
                (r.entrant.start_number, r.entrant.display_name, r.round_points, r.place)
                for r in compute_standings(c).rows
            ]
        return out

    assert summary(loaded) == summary(fresh)
    assert len(summary(loaded)["singles"]) == 46 and len(summary(loaded)["pairs"]) == 12


def test_a_demo_of_any_size_gets_its_own_slug_and_is_idempotent():
    first = run("demo", "--entrants", "7", "--pairs", "0")
    assert "benefizbinokel-demo-7-0" in first and "7 Einzel, 0 Paare" in first
    assert "schon vorhanden" in run("demo", "--entrants", "7", "--pairs", "0")
    t = Tournament.objects.get(slug="benefizbinokel-demo-7-0")
    assert list(t.competitions.values_list("mode", flat=True)) == ["singles"]
    kinds = sorted(t.round_set.get(number=1).tables.values_list("kind", flat=True))
    assert kinds == ["four_sitout", "three"]  # 7 = a 3-table and a 4-table
    assert ScoreSheet.objects.filter(table__round__tournament=t, status="confirmed").count() == 4
    run("demo", "--entrants", "7", "--pairs", "0", "--slug", "probe")
    assert Tournament.objects.filter(slug="probe").exists()


def test_a_field_the_engine_cannot_seat_is_a_clear_error():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        run("demo", "--entrants", "2", "--pairs", "0")
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("preset", ["ejl", "dabb"])
def test_simulated_games_split_the_eyes_of_the_rule_set(preset):
    # dabb has no last-trick bonus: its tricks add up to 240, ejl's to 250 (RULES.md)
    rules = get_preset(preset)
    rng = random.Random(7)
    played = [simulate_game(rng, 3, "three", rules) for _ in range(300)]
    sums = {sum(g["tricks"]) for g in played if g["kind"] in ("played", "durch")}
    assert sums == {rules.total_eyes}


def test_the_demo_has_round_three_started_for_the_tables_phones():
    run("demo", "--singles", "12", "--pairs", "4")
    t = Tournament.objects.get()
    started = dict(t.round_set.values_list("number", "locked"))
    assert started == {1: True, 2: True, 3: True}
    assert t.round_set.get(number=3).started_at is not None


def test_a_demo_without_scores_has_round_one_started_and_the_rest_planned():
    run("demo", "--singles", "12", "--pairs", "4", "--scored-rounds", "0")
    t = Tournament.objects.get()
    assert dict(t.round_set.values_list("number", "locked")) == {1: True, 2: False, 3: False}
    assert not ScoreSheet.objects.exists()


def test_verify_checks_every_tournament_when_none_is_named():
    import json

    run("demo", "--singles", "6", "--pairs", "0")
    run("demo", "--entrants", "7", "--pairs", "0")
    assert Tournament.objects.count() == 2
    report = json.loads(run("verify"))
    assert report["problems"] == []
    tables = ScoreSheet.objects.values_list("table_id", flat=True)
    assert set(report["sheets"]) == {str(pk) for pk in tables}
    one = json.loads(run("verify", "--tournament", "benefizbinokel-demo-7-0"))
    assert 0 < len(one["sheets"]) < len(report["sheets"])


def test_simulate_says_when_the_double_check_leaves_sheets_to_confirm():
    run("demo", "--singles", "12", "--pairs", "4")
    Tournament.objects.update(double_check=True)
    out = run("simulate", "--round", "3")
    assert "6 Spielzettel" in out and "Vier-Augen-Prinzip: 6 Zettel warten" in out
    assert not ScoreSheet.objects.filter(table__round__number=3, status=SheetStatus.CONFIRMED)
