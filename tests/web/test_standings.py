"""Standings: ranking by total, tie-breaks from the rule set, shared places, constant queries."""

from __future__ import annotations

import pytest

from binokel_tournament.models import Competition, Entrant, Mode
from binokel_tournament.services.evening.registration import create_tournament, register_entrant
from binokel_tournament.services.evening.seating import generate_seating
from binokel_tournament.services.evening.standings import (
    StandingRow,
    compute_standings,
    rank,
    tie_break_metrics,
)
from binokel_tournament.services.sheets.writer import save_sheet

from .sheets import game_entries

pytestmark = pytest.mark.django_db


def seat_order(table):
    return [s.entrant for s in table.seats.order_by("position")]


def sheet_with(table, user, games):
    entries = {}
    for n, g in enumerate(games, start=1):
        entries.update(game_entries(n, *g))
    # pad with conceded-free neutral games: declarer 1 wins 150 with tricks only
    for n in range(len(games) + 1, 13):
        entries.update(game_entries(n, 1, 150, [0, 0, 0], [150, 50, 50]))
    save_sheet(table, entries, user, expected_version=0, confirm=True)  # as its organiser


def single_table_tournament(organiser):
    t = create_tournament("T", modes=[Mode.SINGLES], rounds=1, creator=organiser)
    comp = t.competitions.get()
    for i in range(3):
        register_entrant(comp, f"P{i + 1}")
    generate_seating(comp)
    return t, comp, t.round_set.get().tables.get()


def test_declarer_wins_are_counted_per_entrant(orga):
    t, comp, table = single_table_tournament(orga)
    a, b, c = seat_order(table)
    sheet_with(table, orga, [(2, 150, [0, 0, 0], [50, 150, 50])])
    rows = {r.entrant.pk: r for r in compute_standings(comp).rows}
    assert rows[a.pk].metrics["declarer_wins"] == 11 and rows[b.pk].metrics["declarer_wins"] == 1
    assert rows[c.pk].metrics["declarer_wins"] == 0


def row(number, total, wins, rounds):
    entrant = Entrant(start_number=number, name=f"E{number}")
    return StandingRow(
        entrant=entrant, round_points=rounds, total=total, games=36, sums={"declarer_wins": wins}
    )


def test_equal_totals_are_broken_by_declarer_wins_then_best_round():
    rows = [
        row(1, 900, 3, [300, 300, 300]),
        row(2, 900, 5, [300, 300, 300]),
        row(3, 900, 3, [500, 200, 200]),
        row(4, 950, 0, [0, 0, 950]),
    ]
    ranked = rank(rows, tie_break_metrics(["declarer_wins", "best_round"]))
    assert [r.entrant.start_number for r in ranked] == [4, 2, 3, 1]
    assert [r.place for r in ranked] == [1, 2, 3, 4]


def test_the_rule_sets_tie_break_order_is_followed():
    rows = [
        row(1, 900, 3, [300, 300, 300]),
        row(2, 900, 5, [300, 300, 300]),
        row(3, 900, 3, [500, 200, 200]),
    ]
    ranked = rank(rows, tie_break_metrics(["best_round", "declarer_wins"]))
    assert [r.entrant.start_number for r in ranked] == [3, 2, 1]


def test_shared_places_are_shown_as_such(orga):
    t, comp, table = single_table_tournament(orga)
    a, b, c = seat_order(table)
    entries = {}
    for n in range(1, 13):
        # declarer rotates 1,2,3 so each wins 4 games with the same points
        d = (n - 1) % 3 + 1
        tricks = [50, 50, 50]
        tricks[d - 1] = 150
        entries.update(game_entries(n, d, 150, [0, 0, 0], tricks))
    save_sheet(table, entries, orga, expected_version=0, confirm=True)
    standings = compute_standings(comp)
    assert {r.place for r in standings.rows} == {1}
    assert all(r.shared and r.place_label == "1. =" for r in standings.rows)


def test_unranked_entrants_are_listed_without_a_place(orga):
    t, comp, table = single_table_tournament(orga)
    a, b, c = seat_order(table)
    c.unranked = True
    c.save()
    sheet_with(table, orga, [])
    rows = compute_standings(comp).rows
    assert rows[-1].entrant == c and rows[-1].place is None and rows[-1].place_label == "a. K."
    assert [r.place for r in rows[:2]] == [1, 2]


def test_standings_after_a_round_ignore_later_rounds(seated, orga):
    comp = seated.competitions.get(mode=Mode.SINGLES)
    for number in (1, 2):
        for table in seated.round_set.get(number=number).tables.filter(competition=comp):
            sheet_with(table, orga, [])
    after_one = compute_standings(comp, after_round=1)
    full = compute_standings(comp)
    assert after_one.rounds == [1] and full.rounds == [1, 2]  # the last round with results
    assert compute_standings(comp, after_round=3).rounds == [1, 2, 3]
    assert sum(r.total for r in full.rows) == 2 * sum(r.total for r in after_one.rows)


def test_standings_take_a_constant_number_of_queries(seated, orga, django_assert_max_num_queries):
    comp = Competition.objects.get(tournament=seated, mode=Mode.SINGLES)
    for table in seated.round_set.get(number=1).tables.filter(competition=comp):
        sheet_with(table, orga, [])
    with django_assert_max_num_queries(4):
        rows = compute_standings(comp).rows
    assert len(rows) == 9


# --- the tie-break registry -------------------------------------------------------------------


def test_the_registry_holds_exactly_the_engines_tie_breaks():
    from binokel_tournament.services.evening.standings import TIE_BREAKS
    from scoring import TIE_BREAKS as ENGINE_TIE_BREAKS

    assert set(TIE_BREAKS) == set(ENGINE_TIE_BREAKS)
    for key, metric in TIE_BREAKS.items():
        assert metric.key == key and str(metric.label) and str(metric.order_label)


def test_an_unknown_tie_break_is_an_error():
    with pytest.raises(ValueError, match="head_to_head"):
        tie_break_metrics(["declarer_wins", "head_to_head"])


def test_the_rule_set_form_offers_every_order_of_the_registered_tie_breaks():
    from binokel_tournament.forms import TournamentForm
    from binokel_tournament.services.evening.standings import TIE_BREAKS, tie_break_choices

    values = [value for value, _label in tie_break_choices()]
    assert values[-1] == "" and len(values) == len(set(values))
    assert "declarer_wins,best_round" in values and "best_round,declarer_wins" in values
    assert {v for v in values if "," not in v and v} == set(TIE_BREAKS)
    labels = dict(tie_break_choices())
    assert str(labels["declarer_wins,best_round"]) == "gewonnenen Spielen, dann bestem Durchgang"
    field = TournamentForm().fields["rule_tie_breaks"]
    assert [value for value, _label in field.choices] == values


def test_best_round_breaks_a_tie_from_the_round_points():
    rows = [row(1, 900, 0, [300, 300, 300]), row(2, 900, 0, [100, 100, 700])]
    ranked = rank(rows, tie_break_metrics(["best_round"]))
    assert [r.entrant.start_number for r in ranked] == [2, 1]
    assert ranked[0].metrics == {"total": 900, "best_round": 700}


def test_a_late_arrival_shows_a_dash_for_the_rounds_before_it_came(client):
    """Not 0: nobody played there (issue 23). Desk, public page, beamer, the static site's
    table and the standings PDF agree, and sorting by that round still works."""
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    from binokel_tournament.exports.pdf.standings import StandingsExporter
    from binokel_tournament.services.demo import create_demo
    from tests.exports.reading import lines, pdf_pages

    t, _created = create_demo(singles=6, pairs=0, scored_rounds=1)
    t.public_pages = True
    t.save()
    late = register_entrant(t.competitions.get(), "Spät Kommer")
    row = next(r for r in compute_standings(t.competitions.get()).rows if r.entrant == late)
    assert row.round_points == [None] and row.total == 0
    client.force_login(get_user_model().objects.get(username="orga"))
    for url in (
        reverse("desk:standings", args=[t.slug, "singles"]),
        reverse("public:standings", args=[t.slug, "singles"]),
        reverse("public:beamer", args=[t.slug, "singles"]),
        reverse("desk:standings", args=[t.slug, "singles"]) + "?sort=round_1",
        reverse("public:standings", args=[t.slug, "singles"]) + "?sort=-round_1",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        line = html.split("Spät Kommer")[1].split("</tr>")[0]
        assert ">–<" in line and 'round">0<' not in line, url
    pdf = StandingsExporter(t).render()
    text = [ln for page in pdf_pages(pdf) for ln in lines(page) if "Spät Kommer" in ln]
    assert text and " – " in text[0] + " ", text
