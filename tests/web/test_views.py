"""The desk and public pages through Django's test client."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils.html import escape

from binokel_tournament.models import Entrant, Mode, ScoreSheet, SheetStatus, TableKind

from .sheets import full_three_table, game_entries
from .support import form_defaults

pytestmark = pytest.mark.django_db


def test_the_desk_needs_a_login(client, tournament):
    response = client.get(reverse("desk:dashboard", args=[tournament.slug]))
    assert response.status_code == 302 and "/anmelden/" in response["Location"]


def test_desk_pages_render_in_german_by_default(desk_client, seated):
    for name, args in [
        ("desk:dashboard", [seated.slug]),
        ("desk:entrants", [seated.slug, "singles"]),
        ("desk:seating", [seated.slug]),
        ("desk:overview", [seated.slug]),
        ("desk:standings", [seated.slug, "pairs"]),
        ("desk:audit", [seated.slug]),
        ("desk:tournament_edit", [seated.slug]),
    ]:
        response = desk_client.get(reverse(name, args=args))
        assert response.status_code == 200, name
    page = desk_client.get(reverse("desk:seating", args=[seated.slug])).content.decode()
    assert "wiederholte Begegnungen" in page and "Durchgang" in page


def test_english_is_available(desk_client, seated):
    desk_client.post(reverse("set_language"), {"language": "en", "next": "/"})
    page = desk_client.get(reverse("desk:seating", args=[seated.slug])).content.decode()
    assert "repeated meetings" in page and "Round" in page


def test_quick_add_registers_and_returns_to_the_empty_line(desk_client, tournament):
    url = reverse("desk:entrants", args=[tournament.slug, "pairs"])
    response = desk_client.post(url, {"name": "Anna", "partner": "Bernd", "club": "CVJM"})
    assert response.status_code == 302
    entrant = Entrant.objects.get(name="Anna")
    assert entrant.partner == "Bernd" and entrant.start_number == 14
    page = desk_client.get(url).content.decode()
    assert "Anna / Bernd" in page and "Startnummer 14" in page


def test_quick_add_without_partner_shows_the_error(desk_client, tournament):
    url = reverse("desk:entrants", args=[tournament.slug, "pairs"])
    response = desk_client.post(url, {"name": "Anna"})
    assert response.status_code == 200
    assert "Ein Paar braucht zwei Namen." in response.content.decode()


def test_generating_seating_from_the_desk(desk_client, tournament):
    url = reverse("desk:seating", args=[tournament.slug])
    comp = tournament.competitions.get(mode=Mode.SINGLES)
    response = desk_client.post(url, {"competition": comp.pk, "seed": "0", "action": "generate"})
    assert response.status_code == 302
    assert comp.tables.count() == 9  # 3 tables x 3 rounds
    page = desk_client.get(url).content.decode()
    assert "Spieler 1" in page


def test_a_refused_entrant_count_is_explained(desk_client, orga):
    from binokel_tournament.services.evening.registration import create_tournament, register_entrant

    t = create_tournament("Klein", modes=[Mode.SINGLES], creator=orga)
    comp = t.competitions.get()
    for i in range(5):
        register_entrant(comp, f"P{i}")
    response = desk_client.post(
        reverse("desk:seating", args=[t.slug]),
        {"competition": comp.pk, "action": "generate"},
        follow=True,
    )
    assert "außer Konkurrenz" in response.content.decode()
    assert comp.tables.count() == 0


def test_sheet_page_shows_the_dealer_of_every_game(desk_client, seated):
    table = seated.round_set.get(number=1).tables.filter(kind=TableKind.THREE).first()
    page = desk_client.get(reverse("desk:sheet", args=[seated.slug, table.pk])).content.decode()
    first = table.seats.get(position=1).entrant
    assert page.count('name="g12-dealer"') == 1
    assert f"{first.name} ({first.start_number})" in page


def test_live_check_returns_points_and_errors_out_of_band(desk_client, seated):
    table = seated.round_set.get(number=1).tables.filter(kind=TableKind.THREE).first()
    url = reverse("desk:sheet_check", args=[seated.slug, table.pk])
    data = {
        **game_entries(1, 1, 200, [60, 20, 0], [152, 58, 40]),
        "g2-bid": "155",
        "g2-declarer": "1",
    }
    response = desk_client.post(url, data, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="g1-c1-out" hx-swap-oob="true"' in html and "<strong>210</strong>" in html
    # g2's row shows the engine's own message for its bid (155 is no multiple of 10)
    g2_messages = html.split('id="g2-msg"', 1)[1].split('id="g2-dealer-name"', 1)[0]
    assert escape(engine_bid_message(155)) in g2_messages
    assert escape(engine_bid_message(155)) not in html.split('id="g2-msg"', 1)[0]
    assert '[name="g2-bid"]' in html
    assert not ScoreSheet.objects.exists()  # checking saves nothing


def engine_bid_message(bid: int) -> str:
    """What the scoring engine says about this bid, in German (as the desk shows it)."""
    from scoring import GameInput, GameKind, PartyInput, validate_game

    game = GameInput(GameKind.PLAYED, 0, bid, (PartyInput(),) * 3)
    (message,) = [e.text("de") for e in validate_game(game) if e.field == "bid"]
    return message


def test_saving_a_draft_and_confirming_through_the_page(desk_client, seated):
    table = seated.round_set.get(number=1).tables.filter(kind=TableKind.THREE).first()
    url = reverse("desk:sheet", args=[seated.slug, table.pk])
    response = desk_client.post(url, {**full_three_table(4), "version": "0", "draft": "1"})
    assert response.status_code == 302
    sheet = ScoreSheet.objects.get(table=table)
    assert sheet.status == SheetStatus.DRAFT
    response = desk_client.post(url, {**full_three_table(), "version": "1", "confirm": "1"})
    assert response.status_code == 302
    sheet.refresh_from_db()
    assert sheet.status == SheetStatus.CONFIRMED
    overview = desk_client.get(reverse("desk:overview", args=[seated.slug])).content.decode()
    assert "1 bestätigt" in overview


def test_a_conflicting_save_shows_the_other_version(desk_client, seated, kasse):
    from binokel_tournament.services.sheets.writer import save_sheet

    table = seated.round_set.get(number=1).tables.filter(kind=TableKind.THREE).first()
    save_sheet(table, {**full_three_table(2), "g2-bid": "190"}, kasse, expected_version=0)
    url = reverse("desk:sheet", args=[seated.slug, table.pk])
    response = desk_client.post(url, {**full_three_table(5), "version": "0", "draft": "1"})
    assert response.status_code == 409
    html = response.content.decode()
    assert "kasse" in html and 'id="conflict"' in html and 'name="keep-g2"' in html
    assert 'name="g5-bid" value="200"' in html  # what this desk typed is still in the form
    assert ScoreSheet.objects.get(table=table).version == 1


def test_public_pages_need_no_login_and_can_be_switched_off(client, seated):
    for name, args in [
        ("public:tournament", [seated.slug]),
        ("public:standings", [seated.slug, "singles"]),
        ("public:beamer", [seated.slug, "singles"]),
        ("public:where", [seated.slug]),
    ]:
        assert client.get(reverse(name, args=args)).status_code == 200, name
    seated.public_pages = False
    seated.save()
    assert client.get(reverse("public:standings", args=[seated.slug, "singles"])).status_code == 404


def test_where_do_i_sit_finds_every_round(client, seated):
    entrant = Entrant.objects.get(name="Spieler 4")
    page = client.get(
        reverse("public:where", args=[seated.slug]), {"q": "spieler 4"}
    ).content.decode()
    for n in (1, 2, 3):
        assert f"{n}. Durchgang" in page
    page2 = client.get(
        reverse("public:where", args=[seated.slug]), {"q": str(entrant.start_number)}
    )
    assert "Spieler 4" in page2.content.decode()


def test_beamer_sends_every_place_for_the_screen_to_page_through(client, db):
    from .support import make_tournament

    t = make_tournament(singles=33, pairs=0, modes=[Mode.SINGLES])
    url = reverse("public:beamer", args=[t.slug, "singles"])
    html = client.get(url).content.decode()
    starts = re.findall(r'<tr data-start="(\d+)">', html)
    assert sorted(map(int, starts)) == sorted(t.entrants.values_list("start_number", flat=True))
    assert "binokel/beamer.js" in html  # the script fits the rows to the screen (browser test)


def test_beamer_rows_escape_names_and_show_each_round_grouped(client, db):
    from binokel_tournament.services.demo import create_demo

    t = create_demo(9, 4, scored_rounds=2, slug="beamer-rows")[0]
    entrant = t.entrants.filter(competition__mode=Mode.SINGLES).order_by("start_number").first()
    entrant.name = '<b onclick="x()">Max & Co</b>'
    entrant.save(update_fields=["name"])
    html = client.get(reverse("public:beamer", args=[t.slug, "singles"])).content.decode()
    assert "&lt;b onclick=&quot;x()&quot;&gt;Max &amp; Co&lt;/b&gt;" in html
    assert "<b onclick" not in html
    row = re.search(rf'<tr data-start="{entrant.start_number}">(.*?)</tr>', html)
    assert row is not None
    cells = re.findall(r'<td class="num(?! metric)[^"]*">(.*?)</td>', row.group(1))  # no tie-breaks
    assert len(cells) == 4  # start number, round 1, round 2, total
    total = re.fullmatch(r"<strong>(.*)</strong>", cells[-1])
    assert total is not None
    shown = [int(c.replace(".", "").replace("−", "-")) for c in [*cells[1:3], total.group(1)]]
    assert shown[0] + shown[1] == shown[2] and abs(shown[2]) >= 1000  # grouped as 1.234


def test_tournament_setup_with_a_changed_rule(desk_client):
    data = {
        **form_defaults(),
        "name": "Herbstbinokel",
        "date": "2026-11-28",
        "venue": "Gemeindehaus",
        "rounds": "3",
        "competitions": ["singles"],
        "rule_lost_factor": "3",
        "rule_games_three": "15",
    }
    response = desk_client.post(reverse("desk:tournament_new"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    from binokel_tournament.models import Tournament

    t = Tournament.objects.get(name="Herbstbinokel")
    assert t.rules().lost_factor == 3 and t.rules().games_for("three") == 15
    assert t.rules_json == {
        "lost_factor": 3,
        "games_per_round": {"three": 15, "pairs": 12, "four_sitout": 16},
    }
    assert list(t.competitions.values_list("mode", flat=True)) == ["singles"]


def test_switching_the_preset_does_not_keep_the_old_presets_values(desk_client, tournament):
    data = {
        **form_defaults(),
        "name": tournament.name,
        "rounds": "3",
        "preset": "klassisch",
        "competitions": ["singles", "pairs"],
    }
    response = desk_client.post(reverse("desk:tournament_edit", args=[tournament.slug]), data)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.preset == "klassisch" and tournament.rules_json == {}
    assert tournament.rules().conceded_opponent_mode == "per_player"


def test_an_english_browser_still_gets_the_german_desk(desk_client, seated):
    page = desk_client.get(
        reverse("desk:seating", args=[seated.slug]), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9"
    ).content.decode()
    assert "wiederholte Begegnungen" in page


def test_the_history_of_a_sheet_shows_each_corrected_field(desk_client, seated, orga):
    from binokel_tournament.services.sheets.writer import save_sheet

    table = seated.round_set.get(number=1).tables.filter(kind=TableKind.THREE).first()
    save_sheet(table, full_three_table(), orga, expected_version=0, confirm=True)
    corrected = {**full_three_table(), "g7-bid": "210"}
    save_sheet(table, corrected, orga, expected_version=1)
    sheet = ScoreSheet.objects.get(table=table)
    page = desk_client.get(
        reverse("desk:audit", args=[seated.slug]), {"type": "ScoreSheet", "id": sheet.pk}
    ).content.decode()
    assert "bestätigten Zettel korrigiert" in page and "Durchgang 1 · Tisch" in page
    assert "sheet.correct" not in page.replace('data-action="sheet.correct"', "")
    assert "Spiel 7: Reizwert: 200 → 210" in page


def test_odd_round_and_page_parameters_are_ignored_not_errors(client, seated):
    for url, params in [
        (reverse("public:standings", args=[seated.slug, "singles"]), {"round": "²"}),
        (reverse("public:standings", args=[seated.slug, "singles"]), {"round": "9" * 30}),
        (reverse("public:beamer", args=[seated.slug, "singles"]), {"page": "²"}),
        (reverse("public:beamer", args=[seated.slug, "singles"]), {"page": "9" * 30}),
    ]:
        assert client.get(url, params).status_code == 200


def test_where_do_i_sit_names_the_roles_the_engine_gives_each_seat(client, seated):
    from binokel_tournament.models import Seat

    url = reverse("public:where", args=[seated.slug])
    for seat in Seat.objects.filter(table__round__number=1).select_related("table", "entrant"):
        page = client.get(url, {"q": str(seat.entrant.start_number)}).content.decode()
        line = next(x for x in page.split("<li>") if x.startswith("1. Durchgang"))
        pair = seat.table.kind == TableKind.PAIRS
        first, third = seat.position == 1, seat.position == 3
        assert ("gibt das erste Spiel, Partner/in schreibt" in line) == (pair and first)
        assert ("(gibt das erste Spiel)" in line) == (not pair and first)
        assert ("(schreibt)" in line) == (not pair and third)


def test_the_tournament_form_offers_every_preset(desk_client):
    from binokel_tournament.forms import TournamentForm
    from scoring import PRESETS

    form = TournamentForm()
    assert [value for value, _label in form.fields["preset"].choices] == list(PRESETS)
    data = {
        **form_defaults(),
        "name": "Luxusabend",
        "rounds": "3",
        "preset": "luxusfamilie",
        "competitions": ["singles"],
    }
    response = desk_client.post(reverse("desk:tournament_new"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    from binokel_tournament.models import Tournament

    t = Tournament.objects.get(name="Luxusabend")
    assert t.preset == "luxusfamilie" and t.rules_json == {}
    assert t.rules().penalty_values == (20, 50, 100)
    page = desk_client.get(reverse("desk:tournament_edit", args=[t.slug])).content.decode()
    assert "Luxusfamilie mit doppelter Familie" in page and "Minuspunkte" in page


def test_meld_values_game_kinds_and_regional_switches_are_set_in_the_form(desk_client):
    data = {
        **form_defaults(),
        "name": "Talbinokel",
        "rounds": "3",
        "competitions": ["singles", "pairs"],
        "rule_suit_doppelfamilie_plain": "1500",
        "rule_suit_doppelfamilie_trump": "1500",
        "rule_eight_U": "200",
        "rule_game_kinds": ["played", "conceded", "durch", "aufgelegt", "bettel"],
        "rule_bettel_won": "500",
        "rule_rundlauf_value": "250",
        "rule_rundlauf_with_familie_value": "250",
        "rule_lost_factor": "1",
        "rule_lost_extra": "100",
        "rule_eyes_K": "10",
        "rule_eyes_O": "0",
        "rule_eyes_U": "0",
        "rule_eyes_A": "10",
    }
    response = desk_client.post(reverse("desk:tournament_new"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    from binokel_tournament.models import Tournament
    from scoring import GameKind

    rules = Tournament.objects.get(name="Talbinokel").rules()
    double = next(m for m in rules.suit_melds if m.key == "doppelfamilie")
    assert (double.plain, double.trump) == (1500, 1500)
    assert dict(rules.eight_of_a_rank)["U"] == 200
    assert rules.plays(GameKind.BETTEL) and rules.bettel_won == 500
    assert (rules.rundlauf_value, rules.rundlauf_with_familie_value) == (250, 250)
    assert (rules.lost_factor, rules.lost_extra) == (1, 100)
    assert rules.total_eyes == 250  # the counting variant A 10, 10 10, K 10


def test_a_rule_the_engine_refuses_is_shown_in_the_form(desk_client):
    data = {
        **form_defaults(),
        "name": "Falsch",
        "rounds": "3",
        "competitions": ["singles"],
        "rule_trick_scaling": "60:2, 30:3",
        "rule_penalty_values": "zwanzig",
    }
    response = desk_client.post(reverse("desk:tournament_new"), data)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Bitte ganze Zahlen" in page
    data["rule_penalty_values"] = "20, 50"
    page = desk_client.post(reverse("desk:tournament_new"), data).content.decode()
    assert "Die Schwellen müssen ab 0 ansteigen (jetzt 30)." in page


def test_a_rule_set_without_pair_tables_takes_no_pairs_competition(desk_client):
    data = {
        **form_defaults(),
        "name": "Luxus zu zweit",
        "rounds": "3",
        "preset": "luxusfamilie",
        "competitions": ["singles", "pairs"],
    }
    response = desk_client.post(reverse("desk:tournament_new"), data)
    assert response.status_code == 200
    assert "keine Paartische" in response.content.decode()


def test_with_the_sevens_the_form_shows_the_diss_and_sets_its_value(desk_client):
    # RULES.md "Decisions (2026-11-27)": with the sevens the trump seven (Diss) counts 10
    from binokel_tournament.forms import TournamentForm
    from binokel_tournament.models import Tournament

    data = {
        **form_defaults(),
        "name": "Siebenerabend",
        "rounds": "3",
        "competitions": ["singles", "pairs"],
        "rule_sevens": "on",
        "rule_hand_three": "14",
        "rule_hand_pairs": "11",
    }
    response = desk_client.post(reverse("desk:tournament_new"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    t = Tournament.objects.get(name="Siebenerabend")
    diss = next(m for m in t.rules().suit_melds_in_play if m.key == "diss")
    assert (diss.plain, diss.trump) == (0, 10)
    assert "diss" not in str(t.rules_json)  # the engine adds it: nothing to store
    edit = reverse("desk:tournament_edit", args=[t.slug])
    assert "Trumpf-Sieben (Diss) (7)" in desk_client.get(edit).content.decode()
    shown: dict[str, object] = {"preset": "ejl", "competitions": ["singles", "pairs"]}
    for name, field in TournamentForm(instance=t).fields.items():
        if field.initial is True:
            shown[name] = "on"
        elif field.initial not in (None, False) and name != "competitions":
            shown[name] = field.initial
    shown.update(name=t.name, rounds="3", rule_suit_diss_trump="0")
    response = desk_client.post(edit, shown)
    assert response.status_code == 302, response.content.decode()[:2000]
    t.refresh_from_db()
    diss = next(m for m in t.rules().suit_melds_in_play if m.key == "diss")
    assert (diss.plain, diss.trump) == (0, 0)
