"""Issue 23's evening, scripted at the service level (SQLite and PostgreSQL alike): an import
with a duplicate and a category column, three rounds planned for singles and pairs, round 1
played, one single withdraws and three arrive, the singles are re-planned, the evening is
finished. Nothing one step did may silently change what another printed or awarded."""

from __future__ import annotations

import pytest

from binokel_tournament.models import Entrant, Mode, PrizeMode, Seat, Special
from binokel_tournament.services.evening.registration import (
    create_tournament,
    import_entrants,
    register_entrant,
)
from binokel_tournament.services.evening.seating import generate_seating, replan_seating
from binokel_tournament.services.evening.simulation import simulate_round
from binokel_tournament.services.evening.standings import compute_standings
from binokel_tournament.services.money import charity, prizes
from binokel_tournament.services.money.prizes import add_prize
from binokel_tournament.services.money.statistics import evening_statistics
from tests.support import start_round

pytestmark = pytest.mark.django_db


def places(competition):
    return {
        (r, n): (table, seat)
        for r, n, table, seat in Seat.objects.filter(table__competition=competition).values_list(
            "table__round__number", "entrant__start_number", "table__number", "position"
        )
    }


def test_a_whole_evening_never_misleads_the_organiser():
    t = create_tournament("Benefizbinokel Skript", rounds=3)
    singles, pairs = t.competitions.get(mode=Mode.SINGLES), t.competitions.get(mode=Mode.PAIRS)
    register_entrant(singles, "Käthe Häußler", club="Binokelfreunde Esslingen")
    rows = [["Name", "Verein", "Kategorie"]]
    rows += [[f"Spieler {i}", f"Verein {i % 4}", "Damen" if i % 3 == 0 else ""] for i in range(14)]
    rows.append(["Kaethe Haeussler", "Binokelfreunde Esslingen", "Damen"])
    first = import_entrants(singles, rows)
    assert first.pending and first.pending[0].row.name == "Kaethe Haeussler"
    assert not first.created  # nothing stored before the decision
    line = first.pending[0].row.line
    report = import_entrants(singles, rows, decisions={line: "merge"})
    assert len(report.created) == 14 and len(report.merged) == 1
    assert Entrant.objects.get(name="Käthe Häußler").categories == ["damen"]
    for i in range(8):
        register_entrant(pairs, f"Paar {i} A", f"Paar {i} B")
    generate_seating(singles)
    generate_seating(pairs)
    start_round(t.round_set.get(number=1), None)
    simulate_round(t.round_set.get(number=1), None, seed=3)
    pairs_before, singles_before = places(pairs), places(singles)

    gone = Entrant.objects.filter(competition=singles).order_by("start_number")[3]
    Entrant.objects.filter(pk=gone.pk).update(withdrawn=True)
    for name in ("Spät Eins", "Spät Zwei", "Spät Drei"):
        register_entrant(singles, name, late=True)
    summary = replan_seating(singles)

    assert places(pairs) == pairs_before  # the pairs' tables and seats: unchanged
    after = places(singles)
    expected = {
        key
        for key in set(singles_before) | set(after)
        if key[0] > 1 and singles_before.get(key) != after.get(key)
    }
    assert {(c.round, c.start_number) for c in summary.changes} == expected
    assert all(c.after is None for c in summary.changes if c.start_number == gone.start_number)

    for number in (2, 3):
        start_round(t.round_set.get(number=number), None)
        simulate_round(t.round_set.get(number=number), None, seed=number)
    charity.update_charity_settings(t, None, {"prize_mode": PrizeMode.RANK})
    for description in ("Präsentkorb", "Gutschein", "Apfelsaft"):
        add_prize(singles, None, description)
    for special in (Special.LATERNE, Special.TAUSENDER, Special.BEST_WOMAN):
        add_prize(singles, None, str(special.label), special=special)
    t.refresh_from_db()
    singles.refresh_from_db()

    table = prizes.prize_table(singles)
    rows_by_id = {r.entrant.pk: r for r in compute_standings(singles).rows}
    for award in table.rows:
        if award.entrant is None:
            continue
        assert not award.entrant.withdrawn and not award.entrant.unranked, award
    laterne = next(r for r in table.rows if r.prize.special == Special.LATERNE).entrant
    assert laterne is not None and all(p is not None for p in rows_by_id[laterne.pk].round_points)
    tausender = next(r for r in table.rows if r.prize.special == Special.TAUSENDER).entrant
    highest = evening_statistics(t, Mode.SINGLES).stats.highest_game
    if highest is not None and highest.points >= 1000:
        assert tausender is not None and tausender.pk == highest.entrant_id
    else:
        assert tausender is None
    assert gone.pk not in {r.entrant.pk for r in table.rows if r.entrant is not None}
