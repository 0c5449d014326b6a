"""Series rules, pure: points or cup points, best n of m, only those at every evening."""

from __future__ import annotations

from charity.series import EveningResult, SeriesMethod, SeriesRule, series_ranking

EVENINGS = [
    [EveningResult("anna", 1, 900), EveningResult("bernd", 2, 700), EveningResult("ce", 3, 500)],
    [EveningResult("bernd", 1, 1000), EveningResult("anna", 2, 600)],
    [EveningResult("anna", 3, 100), EveningResult("bernd", 1, 800), EveningResult("ce", 2, 700)],
]


def by_player(rows):
    return {r.player: r for r in rows}


def test_the_sum_of_points_over_every_evening():
    rows = by_player(series_ranking(EVENINGS, SeriesRule()))
    assert (rows["bernd"].total, rows["anna"].total, rows["ce"].total) == (2500, 1600, 1200)
    assert (rows["bernd"].place, rows["anna"].place, rows["ce"].place) == (1, 2, 3)
    assert rows["ce"].values == [500, None, 700] and not rows["ce"].complete


def test_the_best_two_of_three():
    rows = by_player(series_ranking(EVENINGS, SeriesRule(best=2)))
    assert rows["anna"].total == 1500 and rows["anna"].counted == [True, True, False]
    assert rows["ce"].total == 1200


def test_cup_points_for_places_and_a_shared_place():
    rule = SeriesRule(SeriesMethod.CUP, cup_points=(10, 6, 4))
    rows = series_ranking(EVENINGS, rule)
    mapped = {r.player: (r.total, r.place, r.shared) for r in rows}
    assert mapped["bernd"] == (26, 1, False)
    assert mapped["anna"] == (20, 2, False)
    assert mapped["ce"] == (10, 3, False)
    tie = series_ranking([[EveningResult("a", 1, 5), EveningResult("b", 1, 5)]], rule)
    assert [(r.place, r.shared) for r in tie] == [(1, True), (1, True)]


def test_only_those_present_at_every_evening_are_placed():
    rows = series_ranking(EVENINGS, SeriesRule(require_all=True))
    assert [(r.player, r.place) for r in rows] == [("bernd", 1), ("anna", 2), ("ce", None)]


def test_the_season_figures_of_real_cups():
    from charity.series import season_figures

    figures = season_figures(EVENINGS, min_evenings=2)
    assert [(r.player, r.value) for r in figures.most_evenings] == [("anna", 3), ("bernd", 3)]
    # anna: places 1, 2, 3 -> 2.0; bernd: 2, 1, 1 -> 1.33; ce: 3, 2 -> 2.5
    assert [(r.player, r.value) for r in figures.best_average] == [("bernd", 1.33)]
    assert [(r.player, r.value) for r in figures.pechvogel] == [("ce", 2.5)]
    assert [(r.player, r.value, r.evening) for r in figures.best_evening] == [("bernd", 1000, 1)]


def test_averages_need_the_minimum_of_placed_evenings():
    from charity.series import season_figures

    out_of_competition = [[EveningResult("gast", None, 2000), EveningResult("anna", 1, 500)]]
    figures = season_figures(EVENINGS + out_of_competition, min_evenings=4)
    # gast's evening is the best evening, but gast was never placed: no average at all
    assert [(r.player, r.value) for r in figures.best_evening] == [("gast", 2000)]
    assert [(r.player, r.value) for r in figures.best_average] == [("anna", 1.75)]
    assert figures.pechvogel == ()  # one player with an average is nobody's Pechvogel
    assert season_figures([], min_evenings=2).most_evenings == ()
