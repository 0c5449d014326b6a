"""Prize rules, pure: rank order, choosing in rank order, special prizes."""

from __future__ import annotations

from charity.prizes import (
    Contender,
    Prize,
    PrizeMode,
    Special,
    awards,
    check_choice,
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


def test_special_prizes_go_to_the_last_the_highest_game_and_the_best_woman():
    assert special_winner(Special.LATERNE, RANKING).entrant_id == 15
    assert special_winner(Special.TAUSENDER, RANKING).entrant_id == 14  # 1020 beats 1000
    assert special_winner(Special.BEST_WOMAN, RANKING).entrant_id == 12
    no_thousand = [Contender(1, 1, 999), Contender(2, 2, 500)]
    assert special_winner(Special.TAUSENDER, no_thousand) is None
    assert special_winner(Special.BEST_WOMAN, no_thousand) is None
    assert special_winner(Special.LATERNE, []) is None


def test_more_prizes_than_entrants_leave_the_rest_without_a_winner():
    result = awards(PRIZES[:3], RANKING[:2], PrizeMode.RANK, {})
    assert [a.entrant_id for a in result] == [11, 12, None]
