"""Validation of one game entry: every problem found at once, each addressed to its field,
in German (the default) and English."""

from __future__ import annotations

import pytest

from scoring import (
    GameCheck,
    GameInput,
    GameKind,
    PartyInput,
    RuleSet,
    ScoringError,
    check_game,
    score_game,
    validate_game,
)


def game(kind="played", declarer=0, bid=200, parties=None, revoked=()):
    if parties is None:
        parties = [(60, 152), (20, 58), (0, 40)]
    party_inputs = tuple(
        p if isinstance(p, PartyInput) else PartyInput(meld=p[0], tricks=p[1]) for p in parties
    )
    return GameInput(GameKind(kind), declarer, bid, party_inputs, tuple(revoked))


def fields(g, rules=None):
    errors = validate_game(g) if rules is None else validate_game(g, rules)
    return [e.field for e in errors]


def messages(g, lang="de"):
    return {e.field: e.text(lang) for e in validate_game(g)}


def test_a_valid_game_has_no_errors():
    assert validate_game(game()) == []


def test_every_problem_is_reported_at_once_in_field_order():
    bad = game(
        bid=205,
        parties=[(410, 152), (25, 58), (0, 41)],
        revoked=[7],
    )
    assert fields(bad) == [
        "bid",
        "parties[0].meld",
        "parties[1].meld",
        "parties",
        "revoked",
    ]


def test_score_game_raises_the_same_errors_validate_game_returns():
    bad = game(bid=140, parties=[(60, 152), (20, 58), (0, 41)])
    with pytest.raises(ScoringError) as info:
        score_game(bad)
    assert info.value.errors == tuple(validate_game(bad))
    assert [e.field for e in info.value.errors] == ["bid", "parties"]


def test_trick_sum_message_names_the_actual_sum_in_german_and_english():
    bad = game(parties=[(60, 150), (20, 58), (0, 40)])
    assert messages(bad)["parties"] == (
        "Die Stiche aller Parteien müssen zusammen 250 ergeben (jetzt 248)."
    )
    assert messages(bad, "en")["parties"] == (
        "The tricks of all parties must add up to 250 (now 248)."
    )


# --- the bid ----------------------------------------------------------------------------------
def test_bid_below_150_is_rejected():
    assert messages(game(bid=140)) == {"bid": "Der Reizwert muss mindestens 150 sein (jetzt 140)."}


def test_bid_not_a_multiple_of_ten_is_rejected():
    assert messages(game(bid=155), "en") == {"bid": "The bid must be a multiple of 10 (now 155)."}


def test_a_bid_no_hand_can_make_is_a_warning_not_an_error():
    # docs/rules.md "What an entry must satisfy" (warnings): the desk must be able to record what
    # was bid
    assert check_game(game(bid=1630)) == GameCheck()  # highest 12-card meld 1380 + 250
    typo = check_game(game(bid=2000))
    assert typo.errors == () and typo.valid
    assert [w.field for w in typo.warnings] == ["bid"]
    assert typo.warnings[0].text("en") == (
        "No hand can make a bid above 1630 (the highest meld + 250 for all tricks); now 2000. "
        "A typo?"
    )
    assert "Tippfehler" in typo.warnings[0].text()
    assert validate_game(game(bid=2000)) == []


def test_a_pairs_bid_cap_follows_the_exact_pair_melds():
    # two 9-card hands from one deck show at most 2080 together (8 Könige + trump Ober,
    # 8 Unter + Schippen-Ober)
    assert check_game(game(bid=2330, parties=[(140, 160), (20, 90)])).warnings == ()
    assert [
        w.field for w in check_game(game(bid=2340, parties=[(140, 160), (20, 90)])).warnings
    ] == ["bid"]


def test_warnings_come_with_errors_but_do_not_make_them():
    check = check_game(game(bid=2005))
    assert [e.field for e in check.errors] == ["bid"]
    assert [w.field for w in check.warnings] == ["bid"]
    assert not check.valid


def test_missing_bid_is_rejected_for_played_and_conceded_games():
    assert fields(game(bid=None)) == ["bid"]
    assert fields(game("conceded", bid=None, parties=[(0, None)] * 3)) == ["bid"]


def test_won_durch_needs_no_bid():
    assert validate_game(game("durch", bid=None, parties=[(None, 250), (None, 0), (None, 0)])) == []


def test_lost_durch_needs_a_bid():
    lost = game("durch", bid=None, parties=[(None, 240), (None, 10), (None, 0)])
    assert messages(lost, "en") == {"bid": "A lost Durch costs 2 × the bid: enter the bid."}


def test_durch_lost_by_a_revoke_needs_a_bid():
    lost = game("durch", bid=None, parties=[(None, 250), (None, 0), (None, 0)], revoked=[0])
    assert fields(lost) == ["bid"]


def test_minimum_bid_and_step_are_rules():
    rules = RuleSet(min_bid=100, bid_step=5)
    assert fields(game(bid=105), rules) == []
    assert fields(game(bid=95), rules) == ["bid"]


# --- the declarer ------------------------------------------------------------------------------
def test_declarer_must_be_given():
    assert messages(game(declarer=None)) == {"declarer": "Bitte den Spielmacher angeben."}


@pytest.mark.parametrize("declarer", [-1, 3, 10])
def test_declarer_must_be_one_of_the_parties(declarer):
    assert messages(game(declarer=declarer), "en") == {
        "declarer": f"There is no party {declarer}; the declarer must be one of the 3 parties."
    }


def test_pair_table_has_only_parties_0_and_1():
    assert fields(game(declarer=2, parties=[(0, 125), (0, 125)])) == ["declarer"]


# --- the parties -------------------------------------------------------------------------------
@pytest.mark.parametrize("count", [0, 1, 4])
def test_a_game_has_three_players_or_two_pairs(count):
    bad = game(declarer=0 if count else None, parties=[(0, 250), (0, 0), (0, 0), (0, 0)][:count])
    texts = [e.text() for e in validate_game(bad) if e.field == "parties"]
    assert (
        "Ein Spiel hat 3 Spieler (je 12 Karten) oder 2 Paare (Vierertisch), "
        f"nicht {count} Parteien."
    ) in texts


@pytest.mark.parametrize("tricks", [-1, 251])
def test_tricks_must_lie_between_0_and_250(tricks):
    bad = game(parties=[(60, 150), (20, tricks), (0, 40)])
    assert fields(bad) == ["parties[1].tricks"]


def test_tricks_sum_to_250_in_a_durch_too():
    assert fields(game("durch", parties=[(None, 250), (None, 10), (None, 0)])) == ["parties"]


def test_empty_tricks_count_as_0():
    assert validate_game(game(parties=[(60, 250), (20, None), (0, None)])) == []


def test_conceded_game_takes_no_tricks():
    bad = game("conceded", parties=[(None, None), (40, 30), (0, 0)])
    assert messages(bad, "en") == {
        "parties[1].tricks": "A conceded game has no tricks: leave the tricks empty."
    }


def test_durch_takes_no_melds():
    bad = game("durch", parties=[(None, 250), (20, 0), (0, 0)])
    assert messages(bad) == {
        "parties[1].meld": "Beim Durch wird nicht gemeldet: die Meldung bitte leer lassen."
    }


def test_meld_must_not_be_negative():
    assert fields(game(parties=[(-20, 152), (20, 58), (0, 40)])) == ["parties[0].meld"]


def test_meld_must_be_a_multiple_of_ten():
    bad = game(parties=[(65, 152), (20, 58), (0, 40)])
    assert messages(bad) == {
        "parties[0].meld": "Die Meldung muss durch 10 teilbar sein (jetzt 65)."
    }


def test_meld_no_12_card_hand_can_show_names_the_nearest_possible_totals():
    bad = game(parties=[(410, 152), (20, 58), (0, 40)])
    assert messages(bad, "en") == {
        "parties[0].meld": (
            "No 12-card hand can show a meld of 410; the nearest possible totals are 400 and 420."
        )
    }
    assert messages(bad)["parties[0].meld"] == (
        "Mit 12 Karten kann man nicht 410 melden; die nächstmöglichen Werte sind 400 und 420."
    )


def test_meld_above_every_12_card_hand_names_the_highest_total():
    bad = game(parties=[(1390, 152), (20, 58), (0, 40)])
    assert messages(bad, "en")["parties[0].meld"] == (
        "No 12-card hand can show a meld of 1390; the highest possible total is 1380."
    )


def test_pair_meld_must_be_one_two_hands_from_one_deck_can_show():
    assert validate_game(game(parties=[(1000 + 1040, 125), (0, 125)])) == []
    bad = game(parties=[(2090, 125), (0, 125)])
    assert messages(bad, "en")["parties[0].meld"] == (
        "Two partners with 9 cards each cannot show 2090 together; the highest possible total "
        "is 2080."
    )
    bad = game(parties=[(990, 125), (0, 125)])
    assert messages(bad)["parties[0].meld"] == (
        "Zwei Partner mit je 9 Karten können zusammen nicht 990 melden; die nächstmöglichen "
        "Werte sind 700 und 1000."
    )


def test_an_impossible_meld_names_the_rule_sets_card_count():
    # RULES.md "Decisions (2026-11-27)": the refusal names the rule set's card count, not 12
    from scoring.presets import LUXUSFAMILIE

    bad = game(parties=[(860, 100), (0, 70), (0, 70)])
    assert validate_game(bad, LUXUSFAMILIE)[0].text("de") == (
        "Mit 16 Karten kann man nicht 860 melden; die nächstmöglichen Werte sind 850 und 870."
    )
    assert validate_game(bad, LUXUSFAMILIE)[0].text("en") == (
        "No 16-card hand can show a meld of 860; the nearest possible totals are 850 and 870."
    )
    sevens = RuleSet(sevens=True, hand_cards=(("three", 14), ("pairs", 11)))
    too_high = game(parties=[(9990, 150), (0, 50), (0, 50)])
    assert (
        validate_game(too_high, sevens)[0]
        .text("de")
        .startswith("Mit 14 Karten kann man nicht 9990 melden; höchstens ")
    )
    pair = game(parties=[(9990, 150), (0, 100)])
    assert (
        validate_game(pair, sevens)[0]
        .text("de")
        .startswith("Zwei Partner mit je 11 Karten können zusammen nicht 9990 melden; höchstens ")
    )


def test_a_12_card_total_a_pair_cannot_reach_is_fine_at_a_three_table():
    assert validate_game(game(parties=[(1380, 152), (20, 58), (0, 40)])) == []


# --- took_trick --------------------------------------------------------------------------------
def test_declarer_without_a_trick_holds_at_most_44_pressed_eyes():
    ok = game(parties=[PartyInput(60, 44, False), (20, 166), (0, 40)])
    assert validate_game(ok) == []
    bad = game(parties=[PartyInput(60, 45, False), (20, 165), (0, 40)])
    assert messages(bad) == {
        "parties[0].took_trick": (
            "Ein Spielmacher ohne Stich hat nur die 4 gedrückten Karten, also höchstens 44 Augen "
            "(jetzt 45)."
        )
    }


def test_took_a_trick_with_zero_eyes_is_a_contradiction():
    bad = game(declarer=1, parties=[PartyInput(0, 0, True), (20, 210), (0, 40)])
    assert fields(bad) == ["parties[0].took_trick"]


def test_an_opponent_marked_without_a_trick_cannot_have_eyes():
    bad = game(parties=[(60, 152), PartyInput(20, 58, False), (0, 40)])
    assert fields(bad) == ["parties[1].took_trick"]
    fine = game(parties=[(60, 210), PartyInput(20, 0, False), (0, 40)])
    assert validate_game(fine) == []


def test_nothing_is_marked_about_tricks_in_a_conceded_game():
    bad = game("conceded", parties=[PartyInput(None, None, False), (40, None), (0, None)])
    assert fields(bad) == ["parties[0].took_trick"]


# --- revoked -----------------------------------------------------------------------------------
def test_revoked_must_name_existing_parties_once():
    assert fields(game(revoked=[3])) == ["revoked"]
    assert messages(game(revoked=[1, 1]), "en") == {
        "revoked": "Party 1 is marked as revoked more than once."
    }


def test_nobody_revokes_in_a_conceded_game():
    bad = game("conceded", parties=[(None, None), (40, None), (0, None)], revoked=[1])
    assert messages(bad, "en") == {
        "revoked": "A conceded game is not played, so nobody can revoke."
    }


# --- the declarer's tricks hold the 4 pressed cards ------------------------------------------
@pytest.mark.parametrize("tricks", [0, 7])
def test_declarer_with_fewer_than_8_eyes_is_an_invalid_entry(tricks):
    bad = game(parties=[(60, tricks), (20, 200 - tricks), (0, 50)])
    assert messages(bad, "en") == {
        "parties[0].tricks": (
            "The declarer's tricks include the 4 pressed cards, so at least 8 eyes (4 Unter); "
            f"now {tricks}."
        )
    }
    assert messages(bad)["parties[0].tricks"] == (
        "Die Stiche des Spielmachers enthalten die 4 gedrückten Karten, also mindestens 8 Augen "
        f"(4 Unter); jetzt {tricks}."
    )


def test_declarer_with_8_eyes_the_4_pressed_unter_is_fine():
    assert validate_game(game(parties=[PartyInput(0, 8, False), (20, 200), (0, 42)])) == []
    assert validate_game(game(parties=[(0, 8), (20, 200), (0, 42)])) == []


def test_declarer_marked_without_a_trick_still_holds_the_pressed_cards():
    bad = game(parties=[PartyInput(60, 0, False), (20, 200), (0, 50)])
    assert fields(bad) == ["parties[0].tricks"]


def test_declarer_whose_tricks_are_empty_counts_0_eyes_and_is_rejected():
    assert fields(game(declarer=1, parties=[(60, 250), (20, None), (0, None)])) == [
        "parties[1].tricks"
    ]


def test_the_pressed_cards_count_in_a_durch_and_at_a_pair_table_too():
    lost_durch = game("durch", bid=300, parties=[(None, 4), (None, 200), (None, 46)])
    assert fields(lost_durch) == ["parties[0].tricks"]
    pair = game(declarer=1, bid=200, parties=[(140, 244), (20, 6)])
    assert fields(pair) == ["parties[1].tricks"]


def test_an_opponent_who_took_a_trick_has_at_least_the_cheapest_trick():
    # docs/rules.md "Plausibility": three Unter (6 eyes) at a 3-table, four (8) at a pair table
    assert validate_game(game(parties=[(60, 244), (20, 6), (0, 0)])) == []
    bad = game(parties=[(60, 246), (20, 4), (0, 0)])
    assert messages(bad, "en") == {
        "parties[1].tricks": (
            "A party that took a trick has at least 6 eyes (a trick holds 3 cards); now 4. "
            "Without a trick leave it at 0."
        )
    }
    assert validate_game(game(parties=[(140, 242), (20, 8)])) == []
    assert fields(game(parties=[(140, 244), (20, 6)])) == ["parties[1].tricks"]


def test_an_opponent_without_a_trick_has_0_eyes():
    assert validate_game(game(parties=[(60, 250), (20, 0), (0, 0)])) == []


def test_a_conceded_game_has_no_tricks_to_check():
    assert validate_game(game("conceded", parties=[(None, None), (40, None), (0, None)])) == []


# --- wrongly typed values built in code are bugs: loud, not field errors ----------------------
@pytest.mark.parametrize(
    ("build", "name"),
    [
        (lambda: GameInput("played", 0, 200, ()), "kind"),
        (lambda: GameInput(GameKind.PLAYED, "A", 200, ()), "declarer"),
        (lambda: GameInput(GameKind.PLAYED, 0, 200.0, ()), "bid"),
        (lambda: GameInput(GameKind.PLAYED, 0, 200, [PartyInput()]), "parties"),
        (lambda: GameInput(GameKind.PLAYED, 0, 200, (), (None,)), "revoked"),
        (lambda: PartyInput(meld="60"), "meld"),
        (lambda: PartyInput(tricks=True), "tricks"),
        (lambda: PartyInput(took_trick="no"), "took_trick"),
    ],
)
def test_a_wrong_type_built_in_code_raises_type_error_naming_the_field(build, name):
    with pytest.raises(TypeError, match=name):
        build()


def test_kind_none_built_in_code_is_reported_as_missing():
    bad = GameInput(None, 0, 200, game().parties)
    assert messages(bad, "en") == {"kind": "This field is required."}
