"""Pre-filled score sheets: all sheets of a round in one PDF, laid out like the desk's entry
screen, each game row with its dealer, the rule box generated from the rule set."""

from __future__ import annotations

import re

import pytest
from reportlab.lib.units import mm

from binokel_tournament.exports import ExportError, ExportFile, ExportOptions
from binokel_tournament.exports.pdf import ScoreSheetsExporter
from binokel_tournament.models import Table, TableKind
from binokel_tournament.services.sheets.results import sheet_layout
from tests.dbsnapshot import rolled_back

from .reading import assert_fits_a4, lines, pdf_pages, read

# slow: every score sheet of a round rendered and read back (make check leaves it out)
pytestmark = [pytest.mark.slow, pytest.mark.django_db]

GAME_ROW = re.compile(r"^(\d+) (\d) (.+?\(\d+\))")


@pytest.fixture(scope="module")
def round_one(demo_snapshot, django_db_blocker) -> ExportFile:
    """The demo's sheets of round 1, rendered once for the tests that only read them (the
    reader in .reading parses them once too)."""
    with rolled_back(django_db_blocker):
        return ScoreSheetsExporter(demo_snapshot.restore()).render(ExportOptions(round_number=1))


def round_tables(tournament, number=1):
    return list(
        Table.objects.filter(round__tournament=tournament, round__number=number)
        .prefetch_related("seats__entrant")
        .select_related("round__tournament", "competition")
        .order_by("number")
    )


def test_all_sheets_of_a_round_come_in_table_order_then_a_blank_sheet_per_kind(demo, round_one):
    result = round_one
    assert result.filename == f"{demo.slug}-spielzettel-d1.pdf"
    assert result.content_type == "application/pdf"
    tables = round_tables(demo)
    kinds = {t.kind for t in tables}
    assert kinds == {TableKind.THREE, TableKind.FOUR_SITOUT, TableKind.PAIRS}
    pages = pdf_pages(result)
    assert len(pages) == len(tables) + len(kinds)
    for table, text in zip(tables, pages, strict=False):
        assert re.search(rf"\bTisch {table.number}\b", text)
        assert "Spielzettel · 1. Durchgang" in text
        assert demo.name in text
    blanks = pages[len(tables) :]
    assert all("Tisch ____" in text for text in blanks)
    assert [lines(b)[2].split(" Listenführer")[0] for b in blanks] == [
        "Dreiertisch · Einzel · 12 Spiele",
        "Paartisch · Paare · 12 Spiele",
        "Vierertisch (Geber setzt aus) · Einzel · 16 Spiele",
    ]


def test_a_sheet_names_the_parties_in_seat_order_like_the_desk(demo, round_one):
    pages = pdf_pages(round_one)
    rules = demo.rules()
    for table, text in zip(round_tables(demo), pages, strict=False):
        layout = sheet_layout(table, rules)
        numbers = " ".join(f"{c.number} · Nr. {c.entrant.start_number}" for c in layout.columns)
        names = " ".join(c.entrant.display_name for c in layout.columns)
        # the head's lines: the two-line "ohne / Stich" shares them with the parties' names
        assert any(line.endswith(numbers) for line in lines(text)), table.number
        assert any(line.endswith(names) for line in lines(text)), table.number
        header = next(line for line in lines(text) if line.startswith("Spiel Geber"))
        assert header.startswith("Spiel Geber Spielmacher Reizwert Art")
        subs = next(line for line in lines(text) if line.startswith(("Meldung", "Meld.")))
        meld = "Meld." if len(layout.columns) == 4 else "Meldung"  # narrow at a 4-table
        assert subs == " ".join([f"{meld} Stiche v Punkte Stand"] * len(layout.columns))
        scorer = layout.players[2]
        assert f"Listenführer/in: {scorer}" in text


def test_every_game_row_prints_the_dealer_of_that_game(demo, round_one):
    pages = pdf_pages(round_one)
    rules = demo.rules()
    checked_kinds = set()
    for table, text in zip(round_tables(demo), pages, strict=False):
        layout = sheet_layout(table, rules)
        rows = [m for m in map(GAME_ROW.match, lines(text)) if m]
        assert [int(m.group(1)) for m in rows] == list(range(1, layout.games + 1))
        for m in rows:
            game, seat = int(m.group(1)), int(m.group(2))
            expected = (game - 1) % len(layout.players) + 1
            assert seat == expected
            assert m.group(3) == layout.players[expected - 1]
        if table.kind == TableKind.FOUR_SITOUT:
            assert layout.games == 16
            assert all("setzt aus" in m.string for m in rows)
        else:
            assert not any("setzt aus" in m.string for m in rows)
        checked_kinds.add(table.kind)
    assert len(checked_kinds) == 3


def signature_lines(content: bytes, page: int) -> list[str]:
    """The text under the signature lines (the labels, one or two lines each)."""
    p = read(content).pages[page]
    top = min(w["top"] for w in read(content).words(page) if w["text"] == "Unterschrift")
    return lines(p.crop((0, top - 1, p.width, top + 8 * mm)).extract_text())


def signature_label(found: list[str], party: int, start_number: int, name: str) -> bool:
    """The label under a signature line: "Unterschrift 2 · 10 Name", or wrapped before the
    name (labels of neighbouring parties share the text lines)."""
    label = f"Unterschrift {party} · {start_number}"
    if any(f"{label} {name}" in line for line in found):
        return True
    return any(line.endswith(label) or f"{label} Unterschrift" in line for line in found) and any(
        name in line for line in found[1:]
    )


def test_totals_and_a_signature_line_per_party_at_the_foot(demo, round_one):
    result = round_one
    pages = pdf_pages(result)
    for index, (table, text) in enumerate(zip(round_tables(demo), pages, strict=False)):
        assert "Summe" in lines(text)
        found = signature_lines(result.content, index)
        for column in sheet_layout(table).columns:
            e = column.entrant
            assert signature_label(found, column.number, e.start_number, e.display_name), found


def test_the_rule_box_is_generated_from_the_tournaments_rule_set(demo, round_one):
    ejl_lines = demo.rules().describe(lang="de")
    text = pdf_pages(round_one)[0]
    assert "Wertung (Regelwerk ejl)" in text
    flat = " ".join(lines(text))
    for rule in ejl_lines:
        assert rule.split(":")[0][:18] in flat, rule

    demo.preset = "preisbinokel"
    demo.save()
    other = demo.rules().describe(lang="de")
    own = [rule for rule in other if rule not in ejl_lines]
    assert own, "the preset describes itself differently"
    first = read(ScoreSheetsExporter(demo).render(ExportOptions(round_number=1))).text(0)
    assert "Wertung (Regelwerk preisbinokel)" in first
    flat = " ".join(lines(first))
    for rule in own:
        assert rule[:25] in flat, rule
    games = [m for m in map(GAME_ROW.match, lines(first)) if m]
    assert len(games) == 15  # preisbinokel plays 15 games at a 3-table


def test_every_sheet_is_a4_landscape_and_nothing_leaves_the_page(demo, round_one):
    assert_fits_a4(round_one, landscape=True)


def test_without_a_round_every_seated_round_is_printed(demo):
    tables = Table.objects.filter(round__tournament=demo).count()
    pages = pdf_pages(ScoreSheetsExporter(demo).render())
    assert len(pages) == tables + 3 * 3  # three rounds, three kinds of blank sheet each
    assert sum("Spielzettel · 3. Durchgang" in p for p in pages) == tables // 3 + 3


def test_a_round_without_tables_is_a_message_not_an_empty_pdf(demo):
    with pytest.raises(ExportError, match="Durchgang 4 gibt es nicht"):
        ScoreSheetsExporter(demo).render(ExportOptions(round_number=4))
    Table.objects.filter(round__tournament=demo, round__number=3).delete()
    with pytest.raises(ExportError, match="Für den 3. Durchgang gibt es noch keine Tische"):
        ScoreSheetsExporter(demo).render(ExportOptions(round_number=3))


# --- ticks for what the desk asks per game and per party ------------------------------------

TICK_BOX = (2.2 * mm, 4 * mm)  # side of a tick box, in points


def tick_boxes(content: bytes, page: int) -> list[dict]:
    """The small square tick boxes of a page (outlined, not filled)."""
    return [
        r
        for r in read(content).pages[page].rects
        if TICK_BOX[0] <= r["width"] <= TICK_BOX[1]
        and abs(r["width"] - r["height"]) < 0.5
        and r["stroke"]
        and not r["fill"]
    ]


def words(content: bytes, page: int) -> list[dict]:
    return read(content).words(page)


def test_every_game_has_a_no_trick_tick_and_every_party_a_revoke_tick(demo, round_one):
    """The desk asks per game "Spielmacher ohne Stich" and per party "verworfen": the paper
    has a tick box for each, the party's in every cell group that is played (not where the
    dealer of a 4-table sits out)."""
    result = round_one
    tables = round_tables(demo)
    rules = demo.rules()
    for index, table in enumerate(tables):
        layout = sheet_layout(table, rules)
        parties = len(layout.columns)
        active = parties - 1 if table.kind == TableKind.FOUR_SITOUT else parties
        boxes = tick_boxes(result.content, index)
        assert len(boxes) == layout.games * (1 + active), table.number
        # one column of "ohne Stich" boxes, right of "Art", left of the first party
        found = words(result.content, index)
        art = next(w for w in found if w["text"] == "Art")
        first_party = next(w for w in found if w["text"] in ("Meldung", "Meld."))
        no_trick = [b for b in boxes if art["x1"] < b["x0"] < first_party["x0"]]
        assert len(no_trick) == layout.games
        assert len({round(b["x0"]) for b in no_trick}) == 1
        texts = [w["text"] for w in found]
        assert "ohne" in texts and "Stich" in texts
        assert texts.count("v") == parties  # the revoke column's head, once per party
    flat = " ".join(lines(pdf_pages(result)[0]))
    assert "ohne Stich: ankreuzen, wenn der Spielmacher keinen Stich gemacht hat" in flat
    assert "v: ankreuzen, wenn die Partei verworfen hat" in flat


def row_pitches(content: bytes, page: int) -> list[float]:
    """The distance between consecutive game numbers of a page, in mm."""
    numbers = [
        w
        for w in words(content, page)
        if w["text"].isdigit() and w["x1"] < 20 * mm and w["size"] > 10
    ]
    tops = [w["top"] for w in numbers]
    return [(b - a) / mm for a, b in zip(tops, tops[1:], strict=False)]


def test_rows_stay_readable_on_every_sheet_of_the_default_rules(demo, round_one):
    result = round_one
    pages = pdf_pages(result)
    assert len(pages) == len(round_tables(demo)) + 3  # a 16-game 4-table still fits one page
    for index in range(len(pages)):
        assert min(row_pitches(result.content, index)) >= 6.5


def game_numbers(found: list[str]) -> list[int]:
    """The game numbers of a page's rows (every row has the kinds the rule set plays to circle:
    "g a d" at ejl, "g a" at preisbinokel, which plays no Durch)."""
    return [int(line.split()[0]) for line in found if " g a" in line]


def test_a_sheet_with_many_games_continues_on_a_second_page(demo):
    demo.preset = "preisbinokel"  # 20 games at a 4-table
    demo.save()
    result = ScoreSheetsExporter(demo).render(ExportOptions(round_number=1))
    pages = pdf_pages(result)
    tables = round_tables(demo)
    assert len(pages) == len(tables) + 3 + 2  # the 4-table and its blank sheet take two pages
    four = [i for i, text in enumerate(pages) if lines(text)[2].startswith("Vierertisch")]
    assert len(four) == 4
    for first, second in (four[:2], four[2:]):
        one, two = lines(pages[first]), lines(pages[second])
        assert one[:2] == two[:2]  # same tournament and table
        assert "Blatt 1 von 2" in pages[first] and "Blatt 2 von 2" in pages[second]
        assert game_numbers(one) == list(range(1, 11))
        assert game_numbers(two) == list(range(11, 21))
        assert "Summe" not in one and "Summe" in two
        assert "Unterschrift" not in pages[first] and "Unterschrift" in pages[second]
        assert "weiter auf Blatt 2" in pages[first]
        # the same head on the continuation: parties, sub-columns
        assert [x for x in one if x.startswith("Meld")] == [x for x in two if x.startswith("Meld")]
    for index in range(len(pages)):
        assert min(row_pitches(result.content, index)) >= 6.5
        rules = [w for w in words(result.content, index) if w["text"] == "•"]
        assert rules and min(w["size"] for w in rules) >= 6.5, index  # the rule box stays legible
    assert_fits_a4(result, landscape=True)


def test_a_custom_rule_of_24_games_is_split_evenly(demo):
    demo.rules_json = {"games_per_round": {"three": 24, "pairs": 12, "four_sitout": 16}}
    demo.save()
    result = ScoreSheetsExporter(demo).render(ExportOptions(round_number=1))
    pages = pdf_pages(result)
    first, second = game_numbers(lines(pages[0])), game_numbers(lines(pages[1]))
    assert first + second == list(range(1, 25))
    assert len(first) == len(second) == 12
    assert "Tisch 1" in pages[1] and "Blatt 2 von 2" in pages[1]
    for index in range(len(pages)):
        assert min(row_pitches(result.content, index)) >= 6.5


def test_signature_labels_are_never_cut(demo):
    four = next(t for t in round_tables(demo) if t.kind == TableKind.FOUR_SITOUT)
    entrant = four.seats.order_by("position")[1].entrant
    entrant.name = "Hildegard Zügel-Häußermann"
    entrant.save()
    result = ScoreSheetsExporter(demo).render(ExportOptions(round_number=1))
    index = [t.pk for t in round_tables(demo)].index(four.pk)
    text = pdf_pages(result)[index]
    assert "…" not in text
    found = signature_lines(result.content, index)
    for column in sheet_layout(Table.objects.get(pk=four.pk)).columns:
        e = column.entrant
        assert signature_label(found, column.number, e.start_number, e.display_name)
    sizes = [w["size"] for w in words(result.content, index) if w["text"] == "Unterschrift"]
    assert len(sizes) == 4 and min(sizes) >= 6.5


def test_the_round_count_on_the_sheet_is_the_tournaments(demo):
    """One place for the number of rounds: a 4-round tournament prints "4 Durchgänge"."""
    demo.rounds = 4
    demo.save()
    flat = " ".join(
        lines(read(ScoreSheetsExporter(demo).render(ExportOptions(round_number=1))).text(0))
    )
    assert "4 Durchgänge" in flat and "3 Durchgänge" not in flat
