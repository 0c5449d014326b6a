"""Prize rules, pure: rank order, choosing in rank order, special prizes."""

from __future__ import annotations

from charity.prizes import (
    Contender,
    Prize,
    PrizeMode,
    Special,
    awards,
    check_choice,
    choosers,
    next_to_choose,
    special_winner,
)

PRIZES = [
    Prize(1, 1, "Präsentkorb", 6000),
    Prize(2, 2, "Gutschein", 4000),
    Prize(3, 3, "Apfelsaft", 2500),
    Prize(4, 4, "Laterne", 500, Special.LATERNE),
    Prize(5, 5, "Sekt", 900, Special.TAUSENDER),
    Prize(6, 6, "Blumen", 1500, Special.BEST_WOMAN),
]
RANKING = [
    Contender(11, 1, 420),
    Contender(12, 2, 1000, frozenset({"damen"})),
    Contender(13, 2, 300),  # a shared second place
    Contender(14, 4, 1020, frozenset({"damen", "senioren"})),
    Contender(15, 5, 250),
]


def test_places_get_the_prizes_in_rank_order():
    result = awards(PRIZES, RANKING, PrizeMode.RANK, {})
    assert [(a.prize.description, a.entrant_id, a.place) for a in result[:3]] == [
        ("Präsentkorb", 11, 1),
        ("Gutschein", 12, 2),
        ("Apfelsaft", 13, 2),
    ]


def test_winners_choose_in_rank_order_whatever_they_take():
    choices: dict[int, int] = {}
    assert next_to_choose(PRIZES, RANKING, choices).entrant_id == 11
    assert check_choice(PRIZES, RANKING, choices, 3, 11) is None  # the best takes the juice
    choices[3] = 11
    assert next_to_choose(PRIZES, RANKING, choices).entrant_id == 12
    assert check_choice(PRIZES, RANKING, choices, 1, 13) == "not_their_turn"
    assert check_choice(PRIZES, RANKING, choices, 3, 12) == "taken"
    assert check_choice(PRIZES, RANKING, choices, 4, 12) == "unknown_prize"  # special prize
    choices[1] = 12
    choices[2] = 13
    assert next_to_choose(PRIZES, RANKING, choices) is None  # three prizes, three winners
    assert check_choice(PRIZES, RANKING, choices, 2, 14) == "taken"
    result = awards(PRIZES, RANKING, PrizeMode.CHOICE, choices)
    assert {a.prize.description: a.entrant_id for a in result[:3]} == {
        "Präsentkorb": 12,
        "Gutschein": 13,
        "Apfelsaft": 11,
    }


LATERNE, TAUSENDER, BEST_WOMAN = PRIZES[3], PRIZES[4], PRIZES[5]


def test_special_prizes_go_to_the_last_the_highest_game_and_the_best_woman():
    assert special_winner(LATERNE, RANKING).entrant_id == 15
    assert special_winner(TAUSENDER, RANKING).entrant_id == 14  # 1020 beats 1000
    assert special_winner(BEST_WOMAN, RANKING).entrant_id == 12
    no_thousand = [Contender(1, 1, 999), Contender(2, 2, 500)]
    assert special_winner(TAUSENDER, no_thousand) is None
    assert special_winner(BEST_WOMAN, no_thousand) is None
    assert special_winner(LATERNE, []) is None


def test_a_withdrawn_entrant_wins_nothing_unless_the_prize_allows_it():
    """Issue 23: the rote Laterne went to a player out after round 1."""
    ranking = [
        Contender(1, 1, 420, start_number=1),
        Contender(2, 2, 1000, frozenset({"damen"}), start_number=2, withdrawn=True),
        Contender(3, 3, 300, start_number=3),
        Contender(4, 4, 250, start_number=4, withdrawn=True, every_round=False),
    ]
    result = awards(PRIZES, ranking, PrizeMode.RANK, {})
    by_prize = {a.prize.description: a.entrant_id for a in result}
    assert by_prize == {
        "Präsentkorb": 1,
        "Gutschein": 3,  # the withdrawn second is passed over
        "Apfelsaft": None,
        "Laterne": 3,  # the last of those who played every round
        "Sekt": None,  # the only 1000 is withdrawn
        "Blumen": None,
    }
    allowed = Prize(5, 5, "Sekt", 900, Special.TAUSENDER, withdrawn_may_win=True)
    assert special_winner(allowed, ranking).entrant_id == 2
    assert [c.entrant_id for c in choosers(PRIZES, ranking)] == [1, 3]


def test_the_laterne_goes_to_the_last_who_played_every_round():
    ranking = [
        Contender(1, 1, 400),
        Contender(2, 2, 300),
        Contender(3, 3, 100, every_round=False),  # a late arrival, last with two rounds
    ]
    assert special_winner(LATERNE, ranking).entrant_id == 2


def test_the_tausender_between_equal_games_goes_to_the_earlier_round_then_the_lower_number():
    ranking = [
        Contender(7, 1, 1000, start_number=7, best_round=2),
        Contender(5, 2, 1000, start_number=5, best_round=3),
        Contender(9, 3, 1000, start_number=9, best_round=2),
    ]
    assert special_winner(TAUSENDER, ranking).entrant_id == 7


def test_more_prizes_than_entrants_leave_the_rest_without_a_winner():
    result = awards(PRIZES[:3], RANKING[:2], PrizeMode.RANK, {})
    assert [a.entrant_id for a in result] == [11, 12, None]


def test_one_prize_per_person_passes_a_special_prize_to_the_next_who_won_nothing():
    """Issue 36: a setting of the club. By default the best woman (second place) also takes
    the flowers; one prize per person gives them to the next woman who won nothing -- here
    the only other one took the Tausender, so nobody."""
    default = awards(PRIZES, RANKING, PrizeMode.RANK, {})
    assert {a.prize.description: a.entrant_id for a in default[3:]} == {
        "Laterne": 15,
        "Sekt": 14,
        "Blumen": 12,
    }
    one = awards(PRIZES, RANKING, PrizeMode.RANK, {}, one_per_person=True)
    assert [(a.prize.description, a.entrant_id) for a in one[:3]] == [
        ("Präsentkorb", 11),
        ("Gutschein", 12),
        ("Apfelsaft", 13),
    ]
    assert {a.prize.description: a.entrant_id for a in one[3:]} == {
        "Laterne": 15,
        "Sekt": 14,
        "Blumen": None,
    }
    winners = [a.entrant_id for a in one if a.entrant_id is not None]
    assert len(winners) == len(set(winners))
    # choosing: who may still choose a place prize wins no special prize either
    ranking = [*RANKING, Contender(16, 6, 200, frozenset({"damen"}))]
    chosen = awards(PRIZES, ranking, PrizeMode.CHOICE, {}, one_per_person=True)
    assert {a.prize.description: a.entrant_id for a in chosen[3:]} == {
        "Laterne": 16,
        "Sekt": 14,
        "Blumen": None,  # 12 chooses a place prize, 14 and 16 won one already
    }
