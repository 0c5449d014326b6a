"""The preset rule sets: ejl, klassisch, preisbinokel, dabb,
luxusfamilie (docs/rules.md "Rule presets")."""

from __future__ import annotations

import dataclasses

import pytest

from scoring import (
    EJL,
    PRESETS,
    GameInput,
    GameKind,
    PartyInput,
    RuleSet,
    ScoringError,
    Suit,
    achievable_totals,
    find_witness,
    get_preset,
    hand_meld_total,
    score_game,
)
from tests.scoring.card_labels import hand

PRESET_NAMES = ["ejl", "klassisch", "preisbinokel", "dabb", "luxusfamilie"]


def score(rules, kind, declarer, bid, *parties):
    game = GameInput(
        GameKind(kind), declarer, bid, tuple(PartyInput(meld=m, tricks=t) for m, t in parties)
    )
    return score_game(game, rules).points


def test_every_rule_system_of_the_sources_is_a_preset_named_after_its_key():
    # issue 15 adds dabb and luxusfamilie (docs/rules.md "Rule presets")
    assert list(PRESETS) == PRESET_NAMES
    assert all(rules.name == name for name, rules in PRESETS.items())


def test_ejl_is_the_default_rule_set():
    assert get_preset("ejl") == EJL == RuleSet()


def test_unknown_preset_names_the_choices():
    with pytest.raises(ScoringError) as info:
        get_preset("schwäbisch")
    error = info.value.errors[0]
    assert error.field == "preset"
    assert error.text("en") == (
        f'Unknown rule set "schwäbisch"; choose one of: {", ".join(PRESET_NAMES)}.'
    )


def test_klassisch_conceded_at_a_three_table_gives_meld_plus_30():
    points = score(get_preset("klassisch"), "conceded", 0, 250, (None, None), (60, None), (0, None))
    assert points == (-250, 90, 30)


def test_klassisch_conceded_at_a_pair_table_gives_meld_plus_40():
    assert score(get_preset("klassisch"), "conceded", 0, 250, (None, None), (60, None)) == (
        -250,
        100,
    )


def test_klassisch_description_counts_the_players_in_the_game_not_at_the_table():
    # a 4-table whose dealer sits out gives 30 (3 players in the game), not 40
    english = get_preset("klassisch").describe("en")
    german = get_preset("klassisch").describe("de")
    assert (
        "Conceded: declarer −1 × bid; each opponent meld + 10 per player in the game "
        "(a dealer who sits out does not count)."
    ) in english
    assert (
        "Abgeschrieben: Spielmacher −1 × Reizwert; jeder Gegenspieler Meldung + 10 je Spieler "
        "im Spiel (ein aussetzender Geber zählt nicht)."
    ) in german
    assert not any("table" in line for line in english if line.startswith("Conceded"))
    assert not any("Tisch" in line for line in german if line.startswith("Abgeschrieben"))


def test_klassisch_scores_played_games_like_ejl():
    game = ("played", 0, 200, (60, 152), (20, 58), (0, 40))
    assert score(get_preset("klassisch"), *game) == score(EJL, *game) == (210, 80, 40)


def test_preisbinokel_lost_game_gives_opponents_melds_tricks_and_half_the_bid():
    points = score(get_preset("preisbinokel"), "played", 1, 250, (40, 65), (100, 143), (20, 42))
    assert points == (110 + 130, -500, 60 + 130)


def test_preisbinokel_won_game_gives_opponents_no_bonus():
    points = score(get_preset("preisbinokel"), "played", 0, 200, (60, 152), (20, 58), (0, 40))
    assert points == (210, 80, 40)


def test_preisbinokel_plays_3_rounds_of_15_games():
    rules = get_preset("preisbinokel")
    assert rules.rounds == 3
    assert rules.games_for("three") == 15
    assert rules.games_for("pairs") == 15
    # at a 4-table with a sitting-out dealer each player still plays 15 of the 20 games
    assert rules.games_for("four_sitout") * 3 // 4 == 15


def test_preisbinokel_conceded_game_is_scored_like_ejl():
    game = ("conceded", 0, 170, (None, None), (40, None), (0, None))
    assert score(get_preset("preisbinokel"), *game) == score(EJL, *game) == (-170, 130, 90)


# --- preisbinokel after the audit of issue 9 ------------------------------------------------------
def test_preisbinokel_plays_no_durch():
    rules = get_preset("preisbinokel")
    assert rules.game_kinds == (GameKind.PLAYED, GameKind.CONCEDED)
    assert not rules.plays(GameKind.DURCH) and EJL.plays(GameKind.DURCH)
    assert "No Durch is played." in rules.describe("en")


def test_preisbinokel_double_familie_counts_1000_in_and_out_of_trump():
    double = hand("♥A ♥10 ♥K ♥O ♥U") * 2
    rules = get_preset("preisbinokel")
    assert hand_meld_total(double, Suit.HERZ, rules) == 1000
    assert hand_meld_total(double, Suit.KREUZ, rules) == 1000
    assert hand_meld_total(double, Suit.HERZ) == 300
    assert "A double Familie counts 1000, in trump 1000." in rules.describe("en")


def test_preisbinokel_meld_sets_and_witnesses_are_its_own():
    rules = get_preset("preisbinokel")
    # computed for its own meld table (not ejl's cached sets), counted by its own rules
    assert achievable_totals(12, rules) is not achievable_totals(12)
    for total in sorted(achievable_totals(12, rules)):
        found = find_witness(total, 12, rules)
        assert found is not None
        assert hand_meld_total(found.cards, found.trump, rules) == total
    # a double Familie of 1000 shows nothing 8 of a rank would not (1000 + two cards);
    # a hall that counts it 1500 has totals ejl has not
    hall = dataclasses.replace(
        rules,
        suit_melds=tuple(
            dataclasses.replace(m, plain=1500, trump=1500) if m.key == "doppelfamilie" else m
            for m in rules.suit_melds
        ),
    )
    assert {1500, 1540} <= achievable_totals(12, hall) - achievable_totals(12)
    assert find_witness(1500, 12, hall).melds["doppelfamilie"] == 1


def test_the_durch_player_deals_next_only_after_a_durch():
    assert EJL.declarer_deals_next(GameKind.DURCH)
    assert not EJL.declarer_deals_next(GameKind.PLAYED)
    assert not EJL.declarer_deals_next(GameKind.CONCEDED)
    assert not RuleSet(durch_player_deals_next=False).declarer_deals_next(GameKind.DURCH)
