"""Sub-rankings and statistics, pure."""

from __future__ import annotations

from charity.rankings import Ranked, category_ranking, club_ranking
from charity.statistics import PartyRecord, compute, meld_class

RANKING = [
    Ranked(1, 1, 900, "CVJM", frozenset({"damen"})),
    Ranked(2, 2, 800, "CVJM"),
    Ranked(3, 2, 800, "EJ", frozenset({"damen"})),
    Ranked(4, 4, 700, "EJ", frozenset({"damen", "jugend"})),
    Ranked(5, 5, 100, "CVJM"),
    Ranked(6, 6, 50, "", frozenset({"jugend"})),
    Ranked(7, 7, 40, "Solo"),
]


def test_a_category_is_placed_one_two_three_keeping_shared_places():
    damen = category_ranking(RANKING, "damen")
    assert [(p.entrant_id, p.place, p.shared, p.overall) for p in damen] == [
        (1, 1, False, 1),
        (3, 2, False, 2),
        (4, 3, False, 4),
    ]
    tied = category_ranking(RANKING[:3], "") or category_ranking(
        [
            Ranked(2, 2, 800, categories=frozenset("x")),
            Ranked(3, 2, 800, categories=frozenset("x")),
        ],
        "x",
    )
    assert [(p.place, p.shared) for p in tied] == [(1, True), (1, True)]


def test_clubs_by_the_sum_of_their_best_two_and_small_clubs_unplaced():
    clubs = club_ranking(RANKING, 2)
    assert [(c.club, c.place, c.total, c.counted) for c in clubs] == [
        ("CVJM", 1, 1700, (1, 2)),
        ("EJ", 2, 1500, (3, 4)),
        ("Solo", None, 40, (7,)),
    ]


def record(game, entrant, points, *, declarer=False, won=False, kind="played", meld=0, rnd=1):
    return PartyRecord(game, rnd, entrant, kind, declarer, won, False, points, meld)


def test_statistics_of_three_games():
    records = [
        record(1, 1, 210, declarer=True, won=True, meld=60),
        record(1, 2, 80, won=True, meld=20),
        record(1, 3, 40, won=True, meld=0),
        record(2, 1, 0, kind="durch", meld=None),
        record(2, 2, 1000, declarer=True, won=True, kind="durch", meld=None),
        record(2, 3, 0, kind="durch", meld=None),
        record(3, 1, -170, declarer=True, kind="conceded", meld=None, rnd=2),
        record(3, 2, 130, kind="conceded", meld=40, rnd=2),
        record(3, 3, 90, kind="conceded", meld=0, rnd=2),
    ]
    s = compute(records)
    assert (s.games, s.points, s.declarer_games, s.declarer_wins) == (3, 1380, 3, 2)
    assert (s.conceded, s.durch, s.durch_won, s.tausender) == (1, 1, 1, 1)
    assert s.highest_game.points == 1000 and s.highest_game.entrant_id == 2
    assert s.highest_round.points == 1080 and s.highest_round.entrant_id == 2
    assert s.best_rounds[1].points == 210 and s.best_rounds[3].round_number == 2
    assert dict(s.meld_classes)["0"] == 1 and dict(s.meld_classes)["10–90"] == 2
    assert s.points_by_round == {1: 1330, 2: 50} and s.games_by_round == {1: 2, 2: 1}
    assert meld_class(1000) == "≥ 1000" and meld_class(150) == "100–190"


def test_model_choices_mirror_the_charity_rules():
    from binokel_tournament.models import Category, PrizeMode, Special
    from charity import prizes, rankings

    assert set(PrizeMode.values) == {m.value for m in prizes.PrizeMode}
    assert set(Special.values) == {s.value for s in prizes.Special}
    assert tuple(Category.values) == rankings.CATEGORIES
    assert prizes.WOMEN in Category.values


def test_the_highest_game_between_equal_games_follows_the_prizes_rule():
    """One rule for the Pressebericht's highest game and the Tausender prize: more points,
    then the earlier round, then the lower start number (charity.statistics.game_key)."""
    from charity.statistics import PartyRecord, compute

    def party(game, rnd, entrant, number, points):
        return PartyRecord(game, rnd, entrant, "played", False, False, False, points, 0, number)

    stats = compute([party(1, 3, 50, 5, 1000), party(2, 2, 90, 9, 1000), party(3, 2, 70, 7, 1000)])
    assert stats.highest_game.entrant_id == 70  # round 2 before round 3; 7 before 9
