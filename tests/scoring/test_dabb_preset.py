"""The dabb preset: the rules page of the Dabb app (docs/rules.md "dabb"), its statements as
tests."""

from __future__ import annotations

import pytest

from scoring import (
    EJL,
    GameInput,
    GameKind,
    MeldCounts,
    PartyInput,
    Suit,
    achievable_pair_totals,
    achievable_totals,
    get_preset,
    hand_meld_total,
    hand_melds,
    score_game,
    validate_game,
)
from tests.scoring.card_labels import hand

DABB = get_preset("dabb")


def score(kind, declarer, bid, *parties):
    game = GameInput(
        GameKind(kind), declarer, bid, tuple(PartyInput(meld=m, tricks=t) for m, t in parties)
    )
    return score_game(game, DABB)


def test_three_players_hold_12_cards_and_partners_crosswise_9_with_a_dabb_of_4():
    assert (DABB.hand_size(3), DABB.hand_size(2)) == (12, 9)
    assert DABB.dabb_size(3) == DABB.dabb_size(2) == 4
    assert (DABB.min_bid, DABB.bid_step) == (150, 10)


def test_going_out_costs_the_bid_winner_the_bid_and_gives_every_opponent_melds_plus_40():
    assert score("conceded", 0, 200, (None, None), (60, None), (0, None)).points == (-200, 100, 40)
    assert score("conceded", 1, 180, (20, None), (None, None)).points == (60, -180)


def test_falling_short_loses_the_bid_instead_of_gaining_anything():
    result = score("played", 1, 250, (40, 65), (100, 133), (20, 42))
    assert (result.points, result.won) == ((40 + 65, -250, 20 + 42), False)


def test_the_round_score_is_meld_plus_trick_points_counted_exactly():
    result = score("played", 0, 200, (60, 142), (20, 58), (0, 40))
    assert (result.points, result.won) == ((202, 78, 40), True)


def test_there_is_no_last_trick_bonus_the_tricks_add_up_to_240():
    # RULES.md "dabb" (decision): only the cards' points count, 240 in all
    assert DABB.total_eyes == 240
    assert score("played", 0, 150, (0, 100), (0, 90), (0, 50)).won is False
    errors = validate_game(
        GameInput(
            GameKind.PLAYED, 0, 200, (PartyInput(60, 152), PartyInput(20, 58), PartyInput(0, 40))
        ),
        DABB,
    )
    assert [e.field for e in errors] == ["parties"]


def test_discarded_cards_count_toward_the_bid_winners_trick_points():
    # the 4 pressed cards are part of the declarer's tricks: at least 8 eyes (4 Unter)
    assert [
        e.field
        for e in validate_game(
            GameInput(
                GameKind.PLAYED, 0, 150, (PartyInput(60, 6), PartyInput(20, 200), PartyInput(0, 34))
            ),
            DABB,
        )
    ] == ["parties[0].tricks"]


def test_melds_count_without_a_trick_the_app_has_no_such_rule():
    result = score("played", 2, 180, (60, 0), (20, 75), (40, 165))
    assert result.points == (60, 95, 205)
    assert score_game(
        GameInput(
            GameKind.PLAYED,
            2,
            180,
            (PartyInput(60, 0), PartyInput(20, 75), PartyInput(40, 175)),
        )
    ).points == (0, 100, 220)  # ejl: rule 13


def test_the_app_plays_no_durch():
    assert DABB.game_kinds == (GameKind.PLAYED, GameKind.CONCEDED)


@pytest.mark.parametrize(
    ("cards", "trump", "total"),
    [
        ("♥K ♥O", Suit.KREUZ, 20),
        ("♥K ♥O", Suit.HERZ, 40),
        ("♥A ♥10 ♥K ♥O ♥U", Suit.KREUZ, 100),
        ("♥A ♥10 ♥K ♥O ♥U", Suit.HERZ, 150),
        ("♦U ♠O", Suit.HERZ, 40),
        ("♦U ♦U ♠O ♠O", Suit.HERZ, 300),
        ("♥A ♦A ♣A ♠A", Suit.HERZ, 100),
        ("♥K ♦K ♣K ♠K", Suit.HERZ, 80),
        ("♥O ♦O ♣O ♠O", Suit.HERZ, 60),
        ("♥U ♦U ♣U ♠U", Suit.HERZ, 40),
        ("♥A ♦A ♣A ♠A ♥A ♦A ♣A ♠A", Suit.HERZ, 1000),
        ("♥K ♦K ♣K ♠K ♥K ♦K ♣K ♠K", Suit.HERZ, 600),
        ("♥O ♦O ♣O ♠O ♥O ♦O ♣O ♠O", Suit.HERZ, 400),
        ("♥U ♦U ♣U ♠U ♥U ♦U ♣U ♠U", Suit.HERZ, 200),
    ],
)
def test_the_meld_table_of_the_app(cards, trump, total):
    assert hand_meld_total(hand(cards), trump, DABB) == total


def test_cards_used_in_a_familie_do_not_also_count_toward_a_paar():
    assert hand_melds(hand("♥A ♥10 ♥K ♥O ♥U"), Suit.HERZ, DABB) == MeldCounts(trump_familie=1)


def test_a_paar_in_every_suit_counts_its_parts():
    # the app lists no Rundlauf: 4 Könige + 4 Ober + the trump Paar and three Paare
    rundlauf = hand("♥K ♥O ♦K ♦O ♣K ♣O ♠K ♠O")
    assert hand_melds(rundlauf, Suit.HERZ, DABB) == MeldCounts(
        vier_koenige=1, vier_ober=1, trump_paar=1, paar=3
    )
    assert hand_meld_total(rundlauf, Suit.HERZ, DABB) == 240


def test_its_meld_sets_are_its_own():
    for cards in (12, 9):
        assert achievable_totals(cards, DABB) != achievable_totals(cards, EJL)
    assert 200 + 40 in achievable_totals(9, DABB)  # 8 Unter + a Schippen-Ober
    assert achievable_pair_totals(DABB) != achievable_pair_totals(EJL)
    assert max(achievable_pair_totals(DABB)) < max(achievable_pair_totals(EJL))
