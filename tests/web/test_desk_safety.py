"""What can go wrong at a real desk: people who come back, sheets saved by accident, a
correction under the double check, rules changed after play, a stray URL."""

from __future__ import annotations

import pytest
from django.urls import reverse

from binokel_tournament.models import (
    Entrant,
    Mode,
    Round,
    ScoreSheet,
    Seat,
    SheetStatus,
    TableKind,
)
from binokel_tournament.services.errors import DeskError
from binokel_tournament.services.evening.registration import (
    delete_entrant,
    import_entrants,
    register_entrant,
    update_entrant,
)
from binokel_tournament.services.evening.seating import (
    plan_status,
    replan_seating,
)
from binokel_tournament.services.evening.standings import compute_standings
from binokel_tournament.services.rounds.writer import RoundChange, change_round
from binokel_tournament.services.sheets.writer import save_sheet
from scoring import GameInput, GameKind, PartyInput, check_game
from tests.support import start_round

from .sheets import full_three_table, game_entries, ticks
from .support import make_tournament

pytestmark = pytest.mark.django_db


def round_seats(entrant, number):
    return Seat.objects.filter(entrant=entrant, table__round__number=number).count()


def three_table(tournament, number=1):
    return tournament.round_set.get(number=number).tables.filter(kind=TableKind.THREE).first()


def test_a_withdrawn_entrant_who_comes_back_is_seated_again(seated):
    comp = seated.competitions.get(mode=Mode.SINGLES)
    start_round(seated.round_set.get(number=1))
    entrant = Entrant.objects.get(name="Spieler 5")
    update_entrant(entrant, withdrawn=True)
    assert plan_status(comp).withdrawn == [entrant.start_number]
    replan_seating(comp)
    assert round_seats(entrant, 2) == 0 and not plan_status(comp).out_of_date
    update_entrant(entrant, withdrawn=False)
    assert plan_status(comp).missing == [entrant.start_number]
    replan_seating(comp)
    assert [round_seats(entrant, n) for n in (1, 2, 3)] == [1, 1, 1]


def test_the_seating_page_warns_when_the_plan_no_longer_fits(desk_client, seated):
    entrant = Entrant.objects.get(name="Spieler 5")
    update_entrant(entrant, withdrawn=True)
    page = desk_client.get(reverse("desk:seating", args=[seated.slug])).content.decode()
    assert "passt nicht mehr" in page and str(entrant.start_number) in page


def test_withdrawn_entrants_who_never_played_leave_the_standings(seated, orga):
    comp = seated.competitions.get(mode=Mode.SINGLES)
    table = three_table(seated)
    save_sheet(table, full_three_table(), orga, expected_version=0, confirm=True)
    played = table.seats.get(position=1).entrant
    idle = Entrant.objects.filter(competition=comp).exclude(seats__table=table).first()
    for e in (played, idle):
        update_entrant(Entrant.objects.get(pk=e.pk), withdrawn=True)
    rows = {r.entrant.pk: r for r in compute_standings(comp).rows}
    assert idle.pk not in rows
    assert rows[played.pk].total == 2520 and rows[played.pk].place == 1


def test_saving_an_empty_sheet_saves_nothing_and_locks_nothing(seated, orga):
    table = three_table(seated, 2)
    with pytest.raises(DeskError, match="nichts eingetragen"):
        save_sheet(table, {"g1-kind": "played", "version": "0"}, orga, expected_version=0)
    assert not ScoreSheet.objects.exists()
    assert not Round.objects.get(pk=table.round.pk).locked


def test_a_round_whose_sheets_were_emptied_can_be_unlocked(seated, orga):
    table = three_table(seated)
    save_sheet(table, full_three_table(1), orga, expected_version=0)
    with pytest.raises(DeskError):
        change_round(table.round, RoundChange.UNLOCK, None)
    save_sheet(table, {}, orga, expected_version=1)
    change_round(Round.objects.get(pk=table.round.pk), RoundChange.UNLOCK, None)
    assert not Round.objects.get(pk=table.round.pk).locked


def test_a_correction_under_the_double_check_needs_a_second_person_again(seated, orga, kasse):
    seated.double_check = True
    seated.save()
    table = three_table(seated)
    save_sheet(table, full_three_table(), orga, expected_version=0)
    checked = ticks(full_three_table())
    save_sheet(table, {**full_three_table(), **checked}, kasse, expected_version=1, confirm=True)
    corrected = {**full_three_table(), **game_entries(1, 2, 250, [40, 100, 20], [65, 143, 42])}
    outcome = save_sheet(table, corrected, orga, expected_version=2, confirm=True)
    sheet = ScoreSheet.objects.get(table=table)
    assert sheet.status == SheetStatus.DRAFT and sheet.confirmed_by is None
    assert "zweite Person" in outcome.notice
    assert compute_standings(table.competition).rows[0].total == 0  # not counted meanwhile
    # the second person checks the one corrected game (the others were checked before)
    outcome = save_sheet(table, corrected, kasse, expected_version=3, confirm=True)
    assert not outcome.confirmed and "Spiel 1 einzeln" in outcome.notice
    only_1 = {"checked-g1": ticks(corrected)["checked-g1"]}
    save_sheet(table, {**corrected, **only_1}, kasse, expected_version=3, confirm=True)
    assert ScoreSheet.objects.get(table=table).status == SheetStatus.CONFIRMED


def test_a_bid_no_hand_can_make_is_kept_and_only_warned_about(seated, orga):
    # docs/rules.md "What an entry must satisfy" (warnings): the desk must be able to record what
    # was really bid; the engine warns (scoring.check_game) instead of refusing the entry
    table = three_table(seated)
    outcome = save_sheet(
        table, game_entries(1, 1, 2000, [60, 20, 0], [152, 58, 40]), orga, expected_version=0
    )
    assert "g1-bid" not in outcome.evaluation.errors
    assert outcome.evaluation.rows[0].points is not None
    game = GameInput(
        GameKind.PLAYED, 0, 2000, (PartyInput(60, 152), PartyInput(20, 58), PartyInput(0, 40))
    )
    assert [w.field for w in check_game(game).warnings] == ["bid"]


def test_import_rejects_overlong_values_row_by_row(tournament):
    comp = tournament.competitions.get(mode=Mode.SINGLES)
    report = import_entrants(comp, [["Name"], ["x" * 130], ["Anna"]])
    assert [e.name for e in report.created] == ["Anna"]
    assert report.rejected[0][0] == 2 and "120" in report.rejected[0][1]


def test_an_import_after_the_start_marks_late_arrivals(seated):
    start_round(seated.round_set.get(number=1))
    comp = seated.competitions.get(mode=Mode.SINGLES)
    report = import_entrants(comp, [["Name"], ["Späte Anna"]])
    assert report.created[0].late


def test_editing_keeps_the_registration_rules(seated):
    single = Entrant.objects.get(name="Spieler 1")
    with pytest.raises(DeskError, match="nur ein Name"):
        update_entrant(single, partner="Otto")
    with pytest.raises(DeskError, match="Spielplan"):
        update_entrant(Entrant.objects.get(pk=single.pk), start_number=99)
    assert Entrant.objects.get(pk=single.pk).partner == ""


def test_a_mistaken_registration_can_be_deleted_until_it_is_seated(seated):
    comp = seated.competitions.get(mode=Mode.SINGLES)
    mistake = register_entrant(comp, "Doppelt Angemeldet")
    delete_entrant(mistake)
    assert not Entrant.objects.filter(name="Doppelt Angemeldet").exists()
    with pytest.raises(DeskError, match="abgemeldet"):
        delete_entrant(Entrant.objects.get(name="Spieler 1"))


def test_deleting_asks_first_and_the_freed_number_goes_to_the_next_registration(
    desk_client, tournament
):
    comp = tournament.competitions.get(mode=Mode.SINGLES)
    mistake = register_entrant(comp, "Doppelt Angemeldet")
    later = register_entrant(comp, "Danach Gekommen")
    edit = reverse("desk:entrant_edit", args=[tournament.slug, mistake.pk])
    asked = desk_client.post(edit, {"delete": "1"})
    assert asked.status_code == 200 and 'id="confirm-delete"' in asked.content.decode()
    assert f"Startnummer {mistake.start_number} wird frei" in asked.content.decode()
    assert Entrant.objects.filter(pk=mistake.pk).exists()  # nothing deleted yet
    done = desk_client.post(edit, {"delete": "1", "confirmed": "1"})
    assert done.status_code == 302 and not Entrant.objects.filter(pk=mistake.pk).exists()
    again = register_entrant(comp, "Nachzügler")
    assert again.start_number == mistake.start_number  # no gap left
    assert register_entrant(comp, "Noch Einer").start_number == later.start_number + 1


def test_rules_cannot_change_once_sheets_exist(desk_client, seated, orga):
    from .support import form_defaults

    save_sheet(three_table(seated), full_three_table(1), orga, expected_version=0)
    data = {
        **form_defaults(),
        "name": seated.name,
        "rounds": "3",
        "competitions": ["singles", "pairs"],
        "rule_lost_factor": "3",
    }
    response = desk_client.post(reverse("desk:tournament_edit", args=[seated.slug]), data)
    assert response.status_code == 200 and "nicht mehr geändert" in response.content.decode()
    seated.refresh_from_db()
    assert seated.rules().lost_factor == 2
    data = {**data, "rule_lost_factor": "2", "rounds": "2", "competitions": ["singles"]}
    page = desk_client.post(reverse("desk:tournament_edit", args=[seated.slug]), data)
    html = page.content.decode()
    assert "3 Durchgänge" in html and "hat schon Teilnehmer" in html


def test_stray_table_ids_are_not_found_and_other_tournaments_tables_are_hidden(desk_client, seated):
    other = make_tournament(singles=9, pairs=0, modes=[Mode.SINGLES])
    from binokel_tournament.services.evening.seating import generate_seating

    generate_seating(other.competitions.get())
    foreign = three_table(other)
    assert desk_client.get(reverse("desk:sheet", args=[seated.slug, 999999])).status_code == 404
    url = reverse("desk:sheet_check", args=[seated.slug, foreign.pk])
    assert desk_client.post(url, {}).status_code == 404


def test_the_live_check_needs_a_login(client, seated):
    url = reverse("desk:sheet_check", args=[seated.slug, three_table(seated).pk])
    response = client.post(url, {"g1-bid": "200"})
    assert response.status_code == 302 and "/anmelden/" in response["Location"]


def test_names_are_escaped_everywhere(desk_client, client, tournament):
    comp = tournament.competitions.get(mode=Mode.SINGLES)
    register_entrant(comp, "<script>alert(1)</script>")
    for response in (
        desk_client.get(reverse("desk:entrants", args=[tournament.slug, "singles"])),
        client.get(reverse("public:standings", args=[tournament.slug, "singles"])),
    ):
        html = response.content.decode()
        assert "<script>alert(1)</script>" not in html and "&lt;script&gt;" in html


def test_a_round_with_a_draft_can_still_be_locked(seated, orga):
    table = three_table(seated, 2)
    save_sheet(table, full_three_table(1), orga, expected_version=0)
    round_obj = Round.objects.get(pk=table.round.pk)
    round_obj.locked = False
    round_obj.save()
    start_round(round_obj)
    assert Round.objects.get(pk=round_obj.pk).locked
