"""The evening's statistics, cross-checked against sums computed here independently with
the ORM; the page, the beamer, the Pressebericht and the workbook show them. Sub-rankings:
categories placed on their own, clubs by the sum of their best k. One demo for the module
(13 Einzel, 4 pairs, rounds 1-2 scored), rolled back at the end."""

from __future__ import annotations

import io
from collections import defaultdict

import openpyxl
import pytest
from django.contrib.auth import get_user_model
from django.db.models import Count, Max, Sum
from django.urls import reverse

from binokel_tournament.exports import PDF_EXPORTERS, ExportOptions, RankingsWorkbookExporter
from binokel_tournament.models import Game, Mode, PartyResult, SheetStatus
from binokel_tournament.services.demo import create_demo
from binokel_tournament.services.evening.standings import compute_standings
from binokel_tournament.services.money.statistics import evening_statistics
from binokel_tournament.services.money.subrankings import sub_rankings
from tests.exports.reading import pdf_pages
from tests.support import rolled_back


@pytest.fixture(scope="module")
def evening(django_db_setup, django_db_blocker):
    with rolled_back(django_db_blocker):
        yield create_demo(13, 4, scored_rounds=2, slug="benefiz-zahlen")[0]


def test_the_figures_match_sums_computed_independently(evening, db):
    s = evening_statistics(evening).stats
    games = Game.objects.filter(
        sheet__table__round__tournament=evening, sheet__status=SheetStatus.CONFIRMED
    )
    results = PartyResult.objects.filter(game__in=games)
    assert s.games == games.count() > 0
    assert s.points == results.aggregate(p=Sum("points"))["p"]
    assert s.declarer_games == results.filter(is_declarer=True).count()
    assert s.declarer_wins == games.filter(won=True).count()
    assert s.conceded == games.filter(kind="conceded").count()
    assert s.durch == games.filter(kind__in=["durch", "aufgelegt"]).count()
    best_per_game = games.annotate(top=Max("parties__points"))
    assert s.tausender == best_per_game.filter(top__gte=1000).count()
    assert s.highest_game.points == results.filter(sits_out=False).aggregate(m=Max("points"))["m"]
    per_round = results.values("entrant_id", "round_number").annotate(p=Sum("points"))
    best: dict[int, int] = defaultdict(lambda: -(10**9))
    for row in per_round:
        best[row["entrant_id"]] = max(best[row["entrant_id"]], row["p"])
    assert {k: v.points for k, v in s.best_rounds.items()} == dict(best)
    assert s.highest_round.points == max(best.values())
    shown = results.filter(sits_out=False, meld__isnull=False, game__kind="played")
    assert sum(count for _label, count in s.meld_classes) == shown.count()
    zero = dict(s.meld_classes)["0"]
    assert zero == shown.filter(meld=0).count()
    assert dict(s.meld_classes)["≥ 1000"] == shown.filter(meld__gte=1000).count()
    rounds = games.values("sheet__table__round__number").annotate(n=Count("id"))
    assert s.games_by_round == {r["sheet__table__round__number"]: r["n"] for r in rounds}


def test_page_beamer_pdf_and_workbook_show_the_figures(client, evening, db):
    s = evening_statistics(evening).stats
    client.force_login(get_user_model().objects.get(username="kasse"))
    games = f"{s.games:,}".replace(",", ".")
    points = f"{s.points:,}".replace(",", ".")
    for url in (
        reverse("desk:statistics", args=[evening.slug]),
        reverse("public:statistics", args=[evening.slug]),
    ):
        page = client.get(url).content.decode()
        assert f'data-figure="games">{games}<' in page
        assert f'data-figure="points">{points}<' in page
        assert page.count("<svg") == 2
    text = "\n".join(pdf_pages(PDF_EXPORTERS["statistics"](evening).render(ExportOptions())))
    assert text.startswith("Pressebericht: ")
    assert f"{games} Spiele, {points} Punkte, {s.tausender} Tausender." in text
    book = openpyxl.load_workbook(io.BytesIO(RankingsWorkbookExporter(evening).render().content))
    figures = {row[0]: row[1] for row in book["Statistik"].iter_rows(min_row=2, values_only=True)}
    assert figures["Spiele"] == s.games and figures["Punkte"] == s.points
    assert figures["Tausender (Spiele ab 1000 Punkten)"] == s.tausender


def test_categories_are_placed_on_their_own_and_clubs_by_their_best(client, evening, db):
    competition = evening.competitions.get(mode=Mode.SINGLES)
    overall = [r for r in compute_standings(competition).rows if r.place is not None]
    sub = sub_rankings(competition)
    assert sub.categories
    for cat in sub.categories:
        members = [r for r in overall if cat.category in (r.entrant.categories or [])]
        assert [r.row.entrant.pk for r in cat.rows] == [r.entrant.pk for r in members]
        assert cat.rows[0].place.place == 1
        assert [r.place.overall for r in cat.rows] == [r.place for r in members]
    k = evening.club_best
    clubs: dict[str, list[int]] = defaultdict(list)
    for r in overall:
        if r.entrant.club:
            clubs[r.entrant.club].append(r.total)
    expected = {club: sum(sorted(totals, reverse=True)[:k]) for club, totals in clubs.items()}
    assert {c.place.club: c.place.total for c in sub.clubs} == expected
    ranked = [c for c in sub.clubs if c.place.place is not None]
    assert all(len(clubs[c.place.club]) >= k for c in ranked)
    assert [c.place.total for c in ranked] == sorted((c.place.total for c in ranked), reverse=True)
    client.force_login(get_user_model().objects.get(username="kasse"))
    page = client.get(reverse("public:subrankings", args=[evening.slug, "singles"]))
    assert page.status_code == 200 and 'id="vereine"' in page.content.decode()
    pdf = "\n".join(pdf_pages(PDF_EXPORTERS["categories"](evening).render(ExportOptions())))
    assert f"Einzelwertung: {sub.categories[0].label}" in pdf and "Vereinswertung" in pdf
