"""Which round the standings are after, and whether they are provisional or final, is
answered once (``services.standings.ranking_scope``) and the desk's page, the PDF and the
workbook all say the same — each asks the database for it once per competition."""

from __future__ import annotations

import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook

from binokel_tournament.exports import ExportOptions
from binokel_tournament.exports import RankingsWorkbookExporter as Workbook
from binokel_tournament.exports.pdf import StandingsExporter
from binokel_tournament.models import Mode, ScoreSheet, SheetStatus, Table
from binokel_tournament.services.evening.standings import compute_standings, ranking_scope

from .reading import lines, pdf_pages

pytestmark = pytest.mark.django_db


def state_queries(captured) -> int:
    """The queries that read the tables' sheet states (ranking_scope's one query)."""
    return sum(
        1
        for q in captured
        if "binokel_tournament_table" in q["sql"]
        and "binokel_tournament_scoresheet" in q["sql"]
        and "binokel_tournament_partyresult" not in q["sql"]
        and "status" in q["sql"]
    )


def test_page_pdf_and_workbook_say_the_same_round_and_state(desk_client, demo):
    singles = demo.competitions.get(mode=Mode.SINGLES)
    # the demo has round 1 confirmed; un-confirm one sheet: provisional after round 1
    sheet = ScoreSheet.objects.filter(table__competition=singles, table__round__number=1).first()
    ScoreSheet.objects.filter(pk=sheet.pk).update(status=SheetStatus.DRAFT)
    state = ranking_scope(singles)
    tables = Table.objects.filter(competition=singles, round__number=1).count()
    assert state.after == 1 and state.provisional and not state.final
    assert (state.confirmed, state.tables) == (tables - 1, tables)

    page = desk_client.get(reverse("desk:standings", args=[demo.slug, Mode.SINGLES]))
    html = page.content.decode()
    assert state.subtitle in html and state.note in html

    text = pdf_pages(StandingsExporter(demo).render(ExportOptions(mode=Mode.SINGLES)))[0]
    assert lines(text)[1] == state.subtitle == "Vorläufiger Stand nach dem 1. Durchgang"
    assert state.note in text

    wb = load_workbook(io.BytesIO(Workbook(demo).render().content))
    header = [c.value for c in wb["Einzel"][1]]
    assert [h for h in header if h.endswith(". Durchgang")] == ["1. Durchgang"]


def test_the_state_is_read_once_per_competition(desk_client, demo):
    singles = demo.competitions.get(mode=Mode.SINGLES)
    with CaptureQueriesContext(connection) as ctx:
        standings = compute_standings(singles)
    assert state_queries(ctx.captured_queries) == 1
    assert standings.state == ranking_scope(singles)
    with CaptureQueriesContext(connection) as ctx:
        StandingsExporter(demo).render(ExportOptions())
    assert state_queries(ctx.captured_queries) == demo.competitions.count()
    with CaptureQueriesContext(connection) as ctx:
        Workbook(demo).render()
    assert state_queries(ctx.captured_queries) == demo.competitions.count()
    with CaptureQueriesContext(connection) as ctx:
        desk_client.get(reverse("desk:standings", args=[demo.slug, Mode.SINGLES]))
    assert state_queries(ctx.captured_queries) == 1
