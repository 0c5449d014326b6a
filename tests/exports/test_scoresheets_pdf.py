"""Pre-filled score sheets: all sheets of a round in one PDF, laid out like the desk's entry
screen, each game row with its dealer, the rule box generated from the rule set."""

from __future__ import annotations

import re

import pytest

from binokel_tournament.exports import ExportError, ExportOptions
from binokel_tournament.exports.pdf import ScoreSheetsExporter
from binokel_tournament.models import Table, TableKind
from binokel_tournament.services.results import sheet_layout

from .reading import assert_fits_a4, lines, pdf_pages

pytestmark = pytest.mark.django_db

GAME_ROW = re.compile(r"^(\d+) (\d) (.+?\(\d+\))")


def round_tables(tournament, number=1):
    return list(
        Table.objects.filter(round__tournament=tournament, round__number=number)
        .prefetch_related("seats__entrant")
        .select_related("round__tournament", "competition")
        .order_by("number")
    )


def test_all_sheets_of_a_round_come_in_table_order_then_a_blank_sheet_per_kind(demo):
    result = ScoreSheetsExporter(demo).render(ExportOptions(round_number=1))
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


def test_a_sheet_names_the_parties_in_seat_order_like_the_desk(demo):
    pages = pdf_pages(ScoreSheetsExporter(demo).render(ExportOptions(round_number=1)))
    rules = demo.rules()
    for table, text in zip(round_tables(demo), pages, strict=False):
        layout = sheet_layout(table, rules)
        numbers = " ".join(f"{c.number} · Nr. {c.entrant.start_number}" for c in layout.columns)
        names = " ".join(c.entrant.display_name for c in layout.columns)
        assert numbers in lines(text), table.number
        assert names in lines(text), table.number
        header = next(line for line in lines(text) if line.startswith("Spiel Geber"))
        assert header == "Spiel Geber Spielmacher Reizwert Art"
        subs = next(line for line in lines(text) if line.startswith("Meldung"))
        assert subs == " ".join(["Meldung Stiche Punkte Stand"] * len(layout.columns))
        scorer = layout.players[2]
        assert f"Listenführer/in: {scorer}" in text


def test_every_game_row_prints_the_dealer_of_that_game(demo):
    pages = pdf_pages(ScoreSheetsExporter(demo).render(ExportOptions(round_number=1)))
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


def test_totals_and_a_signature_line_per_party_at_the_foot(demo):
    pages = pdf_pages(ScoreSheetsExporter(demo).render(ExportOptions(round_number=1)))
    for table, text in zip(round_tables(demo), pages, strict=False):
        assert "Summe" in lines(text)
        for column in sheet_layout(table).columns:
            e = column.entrant
            assert f"Unterschrift {column.number} · {e.start_number} {e.display_name}" in text


def test_the_rule_box_is_generated_from_the_tournaments_rule_set(demo):
    ejl_lines = demo.rules().describe(lang="de")
    text = pdf_pages(ScoreSheetsExporter(demo).render(ExportOptions(round_number=1)))[0]
    assert "Wertung (Regelwerk ejl)" in text
    flat = " ".join(lines(text))
    for rule in ejl_lines:
        assert rule.split(":")[0][:18] in flat, rule

    demo.preset = "preisbinokel"
    demo.save()
    other = demo.rules().describe(lang="de")
    own = [rule for rule in other if rule not in ejl_lines]
    assert own, "the preset describes itself differently"
    pages = pdf_pages(ScoreSheetsExporter(demo).render(ExportOptions(round_number=1)))
    assert "Wertung (Regelwerk preisbinokel)" in pages[0]
    flat = " ".join(lines(pages[0]))
    for rule in own:
        assert rule[:25] in flat, rule
    games = [m for m in map(GAME_ROW.match, lines(pages[0])) if m]
    assert len(games) == 15  # preisbinokel plays 15 games at a 3-table


def test_every_sheet_is_a4_landscape_and_nothing_leaves_the_page(demo):
    assert_fits_a4(ScoreSheetsExporter(demo).render(ExportOptions(round_number=1)), landscape=True)


def test_without_a_round_every_seated_round_is_printed(demo):
    tables = Table.objects.filter(round__tournament=demo).count()
    pages = pdf_pages(ScoreSheetsExporter(demo).render())
    assert len(pages) == tables + 3 * 3  # three rounds, three kinds of blank sheet each
    assert sum("Spielzettel · 3. Durchgang" in p for p in pages) == tables // 3 + 3


def test_a_round_without_tables_is_a_message_not_an_empty_pdf(demo):
    with pytest.raises(ExportError, match="4. Durchgang"):
        ScoreSheetsExporter(demo).render(ExportOptions(round_number=4))
