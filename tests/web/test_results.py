"""Score sheets at the desk: scoring through the engine, drafts that lose nothing, confirmation,
the double check, conflicts, corrections with an audit trail."""

from __future__ import annotations

import pytest

from binokel_tournament.models import AuditLog, PartyResult, ScoreSheet, SheetStatus, TableKind
from binokel_tournament.services.errors import DeskError
from binokel_tournament.services.evening.standings import compute_standings
from binokel_tournament.services.sheets.inputs import opened_text
from binokel_tournament.services.sheets.operations import SheetConflict
from binokel_tournament.services.sheets.results import evaluate, sheet_layout
from binokel_tournament.services.sheets.words import sheet_audit_lines
from binokel_tournament.services.sheets.writer import save_sheet

from .sheets import full_pair_table, full_three_table, game_entries, ticks

pytestmark = pytest.mark.django_db


def first_table(tournament, kind=TableKind.THREE, round_number=1):
    return (
        tournament.round_set.get(number=round_number)
        .tables.filter(kind=kind)
        .order_by("number")
        .first()
    )


def test_the_worked_examples_are_scored_on_the_sheet(seated):
    table = first_table(seated)
    rules = seated.rules()
    entries = {}
    entries.update(game_entries(1, 1, 200, [60, 20, 0], [152, 58, 40]))
    entries.update(game_entries(2, 2, 250, [40, 100, 20], [65, 143, 42]))
    entries.update(game_entries(3, 1, 230, [80, 0, 40], [146, 54, 50]))
    entries.update(game_entries(4, 3, 180, [60, 20, 40], [0, 75, 175]))
    entries.update(game_entries(5, 1, 170, [None, 40, 0], None, kind="conceded"))
    entries.update(game_entries(6, 2, 200, None, [0, 250, 0], kind="durch"))
    entries.update(game_entries(7, 1, 150, [100, 0, 20], [120, 80, 50], revoked=[1]))
    entries.update(game_entries(8, 1, 200, [40, 60, 0], [170, 50, 30], revoked=[2]))
    ev = evaluate(sheet_layout(table, rules), entries, rules)
    points = [tuple(r.points.values()) for r in ev.rows[:8]]
    assert points == [
        (210, 80, 40),
        (110, -500, 60),
        (-460, 50, 90),
        (0, 100, 220),
        (-170, 130, 90),
        (0, 1000, 0),
        (-300, 80, 70),
        (210, 60, 30),
    ]
    assert ev.error_count == 0 and not ev.complete and ev.entered_games == 8
    assert ev.running[1][7] == 210 + 110 - 460 + 0 - 170 + 0 - 300 + 210


def test_after_a_durch_the_durch_player_deals_the_next_game(seated):
    table = first_table(seated)
    rules = seated.rules()
    entries = game_entries(1, 2, 200, None, [0, 250, 0], kind="durch")
    ev = evaluate(sheet_layout(table, rules), entries, rules)
    assert [r.dealer for r in ev.rows[:4]] == [1, 2, 3, 1]


def test_dealers_rotate_over_the_seats_by_default(seated):
    table = first_table(seated)
    rules = seated.rules()
    ev = evaluate(sheet_layout(table, rules), {}, rules)
    assert [r.dealer for r in ev.rows] == [1, 2, 3] * 4


def test_engine_messages_land_on_the_form_fields(seated):
    table = first_table(seated)
    rules = seated.rules()
    entries = game_entries(1, 1, 155, [60, 20, 0], [150, 58, 40])
    ev = evaluate(sheet_layout(table, rules), entries, rules)
    assert "g1-bid" in ev.errors
    assert any(k.startswith("g1-c") and k.endswith("-tricks") for k in ev.errors)
    assert ev.rows[0].points is None


def test_a_draft_with_errors_keeps_everything_typed(seated, orga):
    table = first_table(seated)
    entries = {**full_three_table(3), "g2-bid": "15x"}
    outcome = save_sheet(table, entries, orga, expected_version=0)
    sheet = ScoreSheet.objects.get(table=table)
    assert sheet.status == SheetStatus.DRAFT and sheet.version == 1
    assert sheet.entries["g2-bid"] == "15x"
    assert sheet.entries == entries
    assert sheet.error_count == 1 and outcome.evaluation.errors["g2-bid"]
    # valid games are stored with their points, the broken one is not
    assert sorted(sheet.games.values_list("number", flat=True)) == [1, 3]
    assert table.round.__class__.objects.get(pk=table.round.pk).locked


def test_confirming_an_incomplete_sheet_saves_it_as_draft_and_says_why(seated, orga):
    table = first_table(seated)
    outcome = save_sheet(table, full_three_table(5), orga, expected_version=0, confirm=True)
    assert not outcome.confirmed and "12" in outcome.notice
    assert ScoreSheet.objects.get(table=table).status == SheetStatus.DRAFT


def test_a_confirmed_sheet_counts_in_the_standings(seated, orga):
    table = first_table(seated)
    save_sheet(table, full_three_table(), orga, expected_version=0, confirm=True)
    sheet = ScoreSheet.objects.get(table=table)
    assert sheet.status == SheetStatus.CONFIRMED and sheet.confirmed_by == orga
    standings = compute_standings(table.competition)
    by_number = {r.entrant.start_number: r for r in standings.rows}
    seats = [s.entrant.start_number for s in table.seats.order_by("position")]
    assert [by_number[n].total for n in seats] == [210 * 12, 80 * 12, 40 * 12]
    assert by_number[seats[0]].metrics["declarer_wins"] == 12
    assert standings.rows[0].entrant.start_number == seats[0]


def test_pair_table_points_go_to_both_pairs(seated, orga):
    table = first_table(seated, TableKind.PAIRS)
    save_sheet(table, full_pair_table(), orga, expected_version=0, confirm=True)
    points = PartyResult.objects.filter(game__sheet__table=table, game__number=1)
    assert sorted(points.values_list("points", flat=True)) == [110, 300]


def test_double_check_refuses_confirmation_by_the_person_who_entered(seated, orga, kasse):
    seated.double_check = True
    seated.save()
    table = first_table(seated)
    entries = full_three_table()
    outcome = save_sheet(table, {**entries, **ticks(entries)}, orga, 0, confirm=True)
    assert not outcome.confirmed and "Vier-Augen" in outcome.notice
    sheet = ScoreSheet.objects.get(table=table)
    assert sheet.status == SheetStatus.DRAFT and sheet.entered_by == orga
    # the second person must tick every game: a look and a click is not enough
    outcome = save_sheet(table, sheet.entries, kasse, sheet.version, confirm=True)
    assert not outcome.confirmed and "einzeln" in outcome.notice
    half = dict(list(ticks(entries).items())[:6])
    outcome = save_sheet(table, {**sheet.entries, **half}, kasse, sheet.version, confirm=True)
    assert not outcome.confirmed and "Spiele 7, 8, 9, 10, 11, 12" in outcome.notice
    outcome = save_sheet(table, {**sheet.entries, **ticks(entries)}, kasse, sheet.version, True)
    assert outcome.confirmed
    sheet.refresh_from_db()
    assert sheet.entered_by == orga and sheet.confirmed_by == kasse


def test_a_game_changed_since_the_form_was_opened_is_a_conflict_and_nothing_is_written(
    seated, orga, kasse
):
    table = first_table(seated)
    save_sheet(table, full_three_table(2), orga, expected_version=0)
    opened = ScoreSheet.objects.get(table=table).entries  # orga's page shows version 1
    kasse_bid = {**opened, "g2-bid": "190"}
    save_sheet(table, kasse_bid, kasse, expected_version=1)
    orga_typed = {**opened, "g1-bid": "160", "g2-bid": "180", "opened": opened_text(opened)}
    with pytest.raises(SheetConflict) as err:
        save_sheet(table, orga_typed, orga, expected_version=1)
    (conflict,) = err.value.conflicts
    assert conflict.number == 2 and conflict.author == kasse.username
    assert conflict.theirs["g2-bid"] == "190" and conflict.mine["g2-bid"] == "180"
    sheet = ScoreSheet.objects.get(table=table)
    assert sheet.version == 2 and sheet.entries["g1-bid"] == "200"  # nothing of orga's save
    # orga keeps their version knowingly: now it is written, game 1 too
    resolved = {**orga_typed, "keep-g2": "mine", "current-g2": conflict.stamp}
    save_sheet(table, resolved, orga, expected_version=2)
    sheet = ScoreSheet.objects.get(table=table)
    assert (sheet.entries["g1-bid"], sheet.entries["g2-bid"]) == ("160", "180")


def test_posting_the_whole_form_changes_only_the_games_that_differ(seated, orga, kasse):
    table = first_table(seated)
    save_sheet(table, full_three_table(4), orga, expected_version=0)
    opened = ScoreSheet.objects.get(table=table).entries
    save_sheet(table, {**opened, "g3-bid": "190"}, kasse, expected_version=1)  # kasse: game 3
    # orga's form (opened on version 1) posts every row: game 2 changed, the untouched rows
    # post only their default kind
    posted = {**opened, "g2-bid": "170", "opened": opened_text(opened)}
    posted.update({f"g{n}-kind": "played" for n in range(5, 13)})
    outcome = save_sheet(table, posted, orga, expected_version=1)
    assert outcome.changed == (2,)
    sheet = ScoreSheet.objects.get(table=table)
    assert sheet.entries["g3-bid"] == "190" and sheet.entries["g2-bid"] == "170"
    assert not any(k.startswith("g5-") for k in sheet.entries)  # an untouched row is no game
    assert sheet.game_sources == {**{str(n): "desk" for n in range(1, 5)}}


def test_correcting_a_confirmed_sheet_is_recorded_and_updates_standings(seated, orga, kasse):
    table = first_table(seated)
    save_sheet(table, full_three_table(), kasse, expected_version=0, confirm=True)
    corrected = {**full_three_table(), **game_entries(12, 2, 250, [40, 100, 20], [65, 143, 42])}
    save_sheet(table, corrected, orga, expected_version=1)  # corrections: the organiser
    log = AuditLog.objects.filter(action="sheet.correct").get()
    assert log.user == orga and list(log.after["games"]) == ["12"]
    assert log.before["games"]["12"]["g12-declarer"] == "1"
    assert log.after["games"]["12"]["g12-declarer"] == "2"
    assert "Spiel 12: Spielmacher: 1 → 2" in sheet_audit_lines(log.before, log.after)[0]
    seats = [s.entrant for s in table.seats.order_by("position")]
    totals = {r.entrant.pk: r.total for r in compute_standings(table.competition).rows}
    assert totals[seats[1].pk] == 80 * 11 - 500


def test_a_confirmed_sheet_cannot_be_broken_by_a_correction(seated, orga):
    table = first_table(seated)
    save_sheet(table, full_three_table(), orga, expected_version=0, confirm=True)
    with pytest.raises(DeskError):
        save_sheet(table, {**full_three_table(), "g3-bid": "151"}, orga, expected_version=1)
    sheet = ScoreSheet.objects.get(table=table)
    assert sheet.status == SheetStatus.CONFIRMED and sheet.entries["g3-bid"] == "200"


def test_scorer_totals_that_differ_are_flagged_not_rejected(seated, orga):
    table = first_table(seated)
    entries = {**full_three_table(), "written-total-c1": "2500", "g1-c2-written": "80"}
    outcome = save_sheet(table, entries, orga, expected_version=0, confirm=True)
    assert outcome.confirmed
    sheet = ScoreSheet.objects.get(table=table)
    assert sheet.scorer_mismatch
    assert outcome.evaluation.total_mismatch == {1}


def test_four_table_dealer_sits_out_and_scores_zero(db, orga):
    from binokel_tournament.models import Mode
    from binokel_tournament.services.evening.seating import generate_seating

    from .support import make_tournament

    t = make_tournament(singles=10, pairs=0, modes=[Mode.SINGLES])
    generate_seating(t.competitions.get())
    table = first_table(t, TableKind.FOUR_SITOUT)
    rules = t.rules()
    layout = sheet_layout(table, rules)
    assert layout.games == 16
    # game 1: seat 1 deals and sits out; columns 2,3,4 play
    entries = game_entries(1, 3, 200, [20, 60, 0], [58, 152, 40], columns=(2, 3, 4))
    entries.update(game_entries(2, 1, 200, [60, 20, 0], [152, 58, 40], columns=(1, 3, 4)))
    ev = evaluate(layout, entries, rules)
    assert ev.rows[0].points == {1: 0, 2: 80, 3: 210, 4: 40}
    assert ev.rows[1].points == {1: 210, 2: 0, 3: 80, 4: 40}
    bad = game_entries(1, 2, 200, [20, 20, 60, 0], [0, 58, 152, 40], columns=(1, 2, 3, 4))
    ev = evaluate(layout, bad, rules)
    assert "g1-c1-meld" in ev.errors


def test_after_a_durch_at_a_pair_table_the_desk_is_asked_for_the_dealer(seated):
    table = first_table(seated, TableKind.PAIRS)
    rules = seated.rules()
    layout = sheet_layout(table, rules)
    entries = game_entries(1, 1, 300, None, [250, 0], kind="durch", columns=(1, 2))
    ev = evaluate(layout, entries, rules)
    assert ev.rows[0].points == {1: 1000, 2: 0}
    assert ev.rows[1].notes and "Geber" in ev.rows[1].notes[0]
    assert not ev.errors  # a hint, not an error
    ev = evaluate(layout, {**entries, "g2-dealer": "3"}, rules)
    assert ev.rows[1].notes == [] and ev.rows[1].dealer == 3
