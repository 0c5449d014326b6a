"""Issue 36: what a re-plan outdated on paper stays on the desk's list ("Zu drucken nach der
Neuplanung") per round and table, for both competitions and every desk account, until a
printout covers it (a download, ``export_pdf … --tables``, or "ist gedruckt"); a new seat at
the same table is no reprint."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from binokel_tournament.models import Entrant, Mode, Role, Seat
from binokel_tournament.services.evening.registration import register_entrant
from binokel_tournament.services.evening.seating import (
    SeatChange,
    generate_seating,
    reprints,
    tables_to_reprint,
)
from tests.support import start_round

from .support import make_tournament, member

pytestmark = pytest.mark.django_db


def places(t, competition):
    return {
        (r, n): table
        for r, n, table in Seat.objects.filter(
            table__round__tournament=t, table__competition=competition
        ).values_list("table__round__number", "entrant__start_number", "table__number")
    }


def moved_tables(before, after):
    """(round, table) of every table someone left or joined."""
    out = set()
    for key in set(before) | set(after):
        if before.get(key) != after.get(key):
            out |= {(key[0], t) for t in (before.get(key), after.get(key)) if t is not None}
    return out


def listed(page):
    """(round, table) -> kinds, as the page's list shows them; {} without a list."""
    if 'id="reprints"' not in page:
        return {}
    section = page.split('id="reprints"')[1].split("</section>")[0]
    out = {}
    for row in section.split('class="reprint-row"')[1:]:
        r = int(re.search(r'data-round="(\d+)"', row).group(1))
        tables = re.search(r'data-tables="([\d,]+)"', row).group(1).split(",")
        kinds = tuple(re.findall(r'data-kind="(\w+)"', row.split("</li>")[0]))
        for table in tables:
            out[(r, int(table))] = kinds
    return out


def test_a_new_seat_at_the_same_table_is_no_reprint():
    swap = [SeatChange(2, 5, "A", (4, 1), (4, 3)), SeatChange(2, 6, "B", (4, 3), (4, 1))]
    assert tables_to_reprint(swap) == {}
    moved = [*swap, SeatChange(3, 7, "C", (2, 1), (5, 2)), SeatChange(3, 8, "D", None, (6, 1))]
    assert tables_to_reprint(moved) == {3: [2, 5, 6]}


def test_the_list_to_reprint_stays_until_printed_for_both_competitions_and_every_desk(
    client, orga, kasse, tmp_path
):
    t = make_tournament(singles=15, pairs=8, rounds=3)
    member(t, orga, Role.ORGANISER)
    member(t, kasse, Role.HELPER)
    singles, pairs = t.competitions.get(mode=Mode.SINGLES), t.competitions.get(mode=Mode.PAIRS)
    generate_seating(singles)
    generate_seating(pairs)
    start_round(t.round_set.get(number=1))
    client.force_login(orga)
    seating_url = reverse("desk:seating", args=[t.slug])
    # printed before the re-plans: round 2's table cards at the desk, every round's plan by
    # the command
    cards = client.get(reverse("desk:export", args=[t.slug, "tablecards"]) + "?round=2")
    assert cards.status_code == 200
    call_command("export_pdf", "seating", "--tournament", t.slug, "--out", str(tmp_path / "p.pdf"))

    singles_before = places(t, singles)
    Entrant.objects.filter(competition=singles, name="Spieler 4").update(withdrawn=True)
    for name in ("Nachzügler A", "Nachzügler B", "Nachzügler C"):
        register_entrant(singles, name, late=True)
    replan = {"competition": singles.pk, "action": "replan", "seed": "0"}
    assert client.post(seating_url, replan).status_code == 302
    singles_moved = moved_tables(singles_before, places(t, singles))
    assert singles_moved
    expected = {
        key: ("seating", "tablecards") if key[0] == 2 else ("seating",) for key in singles_moved
    }
    first = client.get(seating_url).content.decode()
    assert listed(first) == expected
    assert listed(client.get(seating_url).content.decode()) == expected  # the next view too

    # the pairs' re-plan adds its tables and keeps the singles'
    pairs_before = places(t, pairs)
    Entrant.objects.filter(competition=pairs, name__in=["Paar 2 A", "Paar 5 A"]).update(
        withdrawn=True
    )
    replan_pairs = {"competition": pairs.pk, "action": "replan", "seed": "0"}
    assert client.post(seating_url, replan_pairs).status_code == 302
    pairs_moved = moved_tables(pairs_before, places(t, pairs))
    assert pairs_moved and not pairs_moved & singles_moved
    expected |= {
        key: ("seating", "tablecards") if key[0] == 2 else ("seating",) for key in pairs_moved
    }
    assert {(r.round, table): r.kinds for r in reprints(t) for table in r.tables} == expected

    # another desk account sees the same list on the dashboard and the seating page
    client.force_login(kasse)
    dashboard = client.get(reverse("desk:dashboard", args=[t.slug])).content.decode()
    assert listed(dashboard) == expected
    assert listed(client.get(seating_url).content.decode()) == expected

    # a download of some of round 2's cards takes those tables' cards off, no more
    round2 = sorted(table for r, table in expected if r == 2)
    some, rest = round2[:1], round2[1:]
    url = reverse("desk:export", args=[t.slug, "tablecards"])
    assert client.get(f"{url}?round=2&tische={some[0]}").status_code == 200
    expected[(2, some[0])] = ("seating",)
    assert listed(client.get(seating_url).content.decode()) == expected
    # the command's --tables takes off the rest
    if rest:
        out = str(tmp_path / "cards.pdf")
        tables = ",".join(str(n) for n in rest)
        call_command(
            "export_pdf", "tablecards", "--tournament", t.slug, "--round", "2",
            "--tables", tables, "--out", out,
        )  # fmt: skip
        for table in rest:
            expected[(2, table)] = ("seating",)
    assert listed(client.get(seating_url).content.decode()) == expected
    # the round's plan covers every table of round 2
    assert (
        client.get(reverse("desk:export", args=[t.slug, "seating"]) + "?round=2").status_code == 200
    )
    expected = {key: kinds for key, kinds in expected.items() if key[0] != 2}
    assert listed(client.get(seating_url).content.decode()) == expected
    # "ist gedruckt" (a helper may say so): round 3 is done too, the list goes
    assert client.post(seating_url, {"action": "reprinted", "round": "3"}).status_code == 302
    assert listed(client.get(seating_url).content.decode()) == {}
    assert (
        'id="reprints"' not in client.get(reverse("desk:dashboard", args=[t.slug])).content.decode()
    )
    # the helper still may not re-plan
    assert client.post(seating_url, replan).status_code == 403
