"""The regional variants (docs/rules.md "Regional switches") as fields an organiser sets on top of
any preset, with the article's own examples."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from scoring import (
    EJL,
    PRESETS,
    GameInput,
    GameKind,
    MeldCounts,
    PartyInput,
    RuleSet,
    ScoringError,
    Suit,
    SuitMeld,
    full_deck,
    get_preset,
    hand_meld_total,
    hand_melds,
    meld_total,
    score_game,
    validate_game,
)
from scoring.melds import achievable_pair_totals, achievable_totals
from tests.scoring.card_labels import hand

RUNDLAUF = "♥K ♥O ♦K ♦O ♣K ♣O ♠K ♠O"


def played(rules, declarer, bid, *parties, kind=GameKind.PLAYED):
    game = GameInput(kind, declarer, bid, tuple(PartyInput(meld=m, tricks=t) for m, t in parties))
    return score_game(game, rules)


# --- melds -------------------------------------------------------------------------------------
def test_the_rundlauf_is_the_sum_of_what_it_is_made_of():
    # "four kings give 80, four upper give 60 and the trump pair and the three other pairs give
    # 100" -- and with a Familie it counts only 200, its Paar being in the Familie
    assert meld_total(MeldCounts(vier_koenige=1, vier_ober=1, trump_paar=1, paar=3)) == 240
    assert hand_meld_total(hand(RUNDLAUF), Suit.HERZ) == 240
    assert hand_meld_total(hand(RUNDLAUF + " ♥A ♥10 ♥U"), Suit.HERZ) == 200 + 150


def test_in_another_version_the_rundlauf_always_gives_250():
    flat = dataclasses.replace(EJL, rundlauf_value=250, rundlauf_with_familie_value=250)
    assert hand_meld_total(hand(RUNDLAUF), Suit.HERZ, flat) == 250
    assert hand_meld_total(hand(RUNDLAUF + " ♥A ♥10 ♥U"), Suit.HERZ, flat) == 250 + 150


def test_two_single_binokel_give_less_than_the_doppelbinokel():
    assert 2 * EJL.binokel_value == 80 < EJL.doppelbinokel_value == 300
    assert hand_meld_total(hand("♦U ♦U ♠O ♠O"), Suit.HERZ) == 300


def test_the_trump_seven_diss_counts_10_where_sevens_are_played():
    # 48 cards: 14 each at a 3-table and a Dabb of 6 (docs/rules.md "Regional switches")
    rules = dataclasses.replace(
        EJL,
        sevens=True,
        hand_cards=(("three", 14), ("pairs", 11)),
        suit_melds=(*EJL.suit_melds, SuitMeld.of("diss", "7", 0, 10)),
    )
    assert len(full_deck(rules)) == 48 and rules.dabb_size(3) == 6
    assert hand_meld_total(hand("♥7 ♥7 ♣7"), Suit.HERZ, rules) == 20
    assert hand_meld_total(hand("♥7 ♥7 ♣7"), Suit.KREUZ, rules) == 10
    assert hand_meld_total(hand("♥7 ♥7 ♣7"), Suit.HERZ) == 0
    assert hand_melds(hand("♥7 ♣7"), Suit.HERZ, rules) == MeldCounts(trump_diss=1)


SEVENS = RuleSet(sevens=True, hand_cards=(("three", 14), ("pairs", 11)))


def test_with_the_sevens_switch_the_diss_is_a_10_point_meld_in_the_meld_table():
    # RULES.md "Decisions (2026-11-27)": "the DISS ... is 10 points", one per trump seven held,
    # not part of a Familie
    assert hand_meld_total(hand("♥7 ♥7 ♣7"), Suit.HERZ, SEVENS) == 20
    assert hand_meld_total(hand("♥7 ♥7 ♣7"), Suit.KREUZ, SEVENS) == 10
    assert hand_meld_total(hand("♥7 ♥7 ♣7"), Suit.SCHIPPEN, SEVENS) == 0
    assert hand_melds(hand("♥A ♥10 ♥K ♥O ♥U ♥7"), Suit.HERZ, SEVENS) == MeldCounts(
        trump_familie=1, trump_diss=1
    )
    assert meld_total(MeldCounts(trump_diss=2), SEVENS) == 20
    assert ("Trump seven (Diss) (7)", "10 in trump") in SEVENS.describe_melds("en")
    assert RuleSet.from_json(SEVENS.to_json()) == SEVENS


def test_the_diss_makes_odd_tens_showable_and_the_meld_check_accepts_them():
    # without the Diss every ejl meld is a multiple of 20 below 140: 10 cannot be shown
    assert 10 not in achievable_totals(12, EJL)
    assert {10, 30, 130} <= achievable_totals(14, SEVENS)
    assert 10 in achievable_pair_totals(SEVENS)
    game = GameInput(
        GameKind.PLAYED,
        0,
        200,
        (PartyInput(meld=10, tricks=200), PartyInput(meld=30, tricks=25), PartyInput(0, 25)),
    )
    assert validate_game(game, SEVENS) == []
    # like every meld it needs a trick (rule 13): the party without a trick loses its Diss
    no_trick = GameInput(
        GameKind.PLAYED,
        0,
        200,
        (PartyInput(meld=10, tricks=200), PartyInput(meld=10, tricks=0), PartyInput(0, 50)),
    )
    assert score_game(no_trick, SEVENS).points == (210, 0, 50)


def test_a_diss_of_0_written_in_the_suit_melds_switches_it_off():
    none = dataclasses.replace(SEVENS, suit_melds=(*EJL.suit_melds, SuitMeld.of("diss", "7", 0, 0)))
    assert hand_meld_total(hand("♥7 ♥7"), Suit.HERZ, none) == 0
    assert 10 not in achievable_totals(14, none)
    assert [m.key for m in EJL.suit_melds_in_play] == ["doppelfamilie", "familie", "paar"]


# --- the lost game -----------------------------------------------------------------------------
def test_lost_twice_the_bid_or_the_bid_plus_100_with_the_melds_forfeited():
    example_2 = (1, 250, (40, 65), (100, 143), (20, 42))
    assert played(EJL, *example_2).points == (110, -500, 60)
    plus_100 = dataclasses.replace(EJL, lost_factor=1, lost_extra=100)
    assert played(plus_100, *example_2).points == (110, -350, 60)
    assert (
        "Lost game (not a Durch or Bettel): −(1 × bid + 100); the melds are forfeited."
        in plus_100.describe("en")
    )


PLUS_100 = dataclasses.replace(
    EJL,
    lost_factor=1,
    lost_extra=100,
    game_kinds=(GameKind.PLAYED, GameKind.CONCEDED, GameKind.DURCH, GameKind.BETTEL),
)


def _doc_rows(marker):
    """The rows of the table after ``<!-- marker -->`` in docs/rules.md."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    lines = text.split(f"<!-- {marker} -->", 1)[1].strip().splitlines()
    rows = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def _number(text):
    return None if text == "–" else int(text.replace("−", "-"))


def test_lost_bid_plus_100_is_for_normal_games_the_worked_example_of_the_docs():
    # RULES.md "Decisions (2026-11-27)": a lost Durch or Bettel keeps its preset's loss
    rows = _doc_rows("lost-bid-plus-100")
    assert [row[0] for row in rows] == ["played", "durch", "bettel"]
    for kind, declarer_bid, *parties, expected in rows:
        who, bid = declarer_bid.split(", ")
        cells = [[_number(x) for x in cell.split(" / ")] for cell in parties]
        game = GameInput(
            GameKind(kind),
            "ABC".index(who),
            int(bid),
            tuple(PartyInput(meld=m, tricks=t) for m, t in cells),
        )
        assert validate_game(game, PLUS_100) == []
        assert score_game(game, PLUS_100).points == tuple(
            _number(x) for x in expected.split(", ")
        ), kind


def test_lost_bid_plus_100_leaves_every_special_game_its_own_loss():
    aufgelegt = dataclasses.replace(
        PLUS_100, game_kinds=(GameKind.PLAYED, GameKind.DURCH_AUFGELEGT)
    )
    lost = ((None, 10), (None, 220), (None, 20))
    for rules, kind in (
        (PLUS_100, GameKind.DURCH),
        (aufgelegt, GameKind.DURCH_AUFGELEGT),
        (PLUS_100, GameKind.BETTEL),
    ):
        assert played(rules, 1, 200, *lost, kind=kind).points[1] == -2 * 200
    thrice = dataclasses.replace(PLUS_100, durch_lost_factor=3)
    assert played(thrice, 1, 200, *lost, kind=GameKind.DURCH).points[1] == -600
    # a pair table too
    assert played(PLUS_100, 0, 250, (100, 140), (0, 110)).points == (-350, 110)
    assert played(PLUS_100, 0, 200, (None, 240), (None, 10), kind=GameKind.DURCH).points == (
        -400,
        10,
    )


def test_the_scoring_command_scores_lost_bid_plus_100_as_documented(tmp_path):
    # docs/architecture.md "Command-line contracts": --rules FILE, a list in gives a list out
    import io
    import json

    from scoring.cli import main

    rules = tmp_path / "rules.json"
    rules.write_text(PLUS_100.to_json(), encoding="utf-8")
    games = [
        {
            "kind": "played",
            "declarer": 1,
            "bid": 250,
            "parties": [
                {"meld": 40, "tricks": 65},
                {"meld": 100, "tricks": 143},
                {"meld": 20, "tricks": 42},
            ],
        },
        {
            "kind": "durch",
            "declarer": 1,
            "bid": 200,
            "parties": [{"tricks": 10}, {"tricks": 220}, {"tricks": 20}],
        },
    ]
    out = io.StringIO()
    code = main(["score", "--rules", str(rules)], io.BytesIO(json.dumps(games).encode()), out)
    assert code == 0
    assert json.loads(out.getvalue()) == [
        {"points": [110, -350, 60], "won": False},
        {"points": [10, -400, 20], "won": False},
    ]


def test_lost_once_the_bid():
    once = dataclasses.replace(EJL, lost_factor=1)
    assert played(once, 1, 250, (40, 65), (100, 143), (20, 42)).points == (110, -250, 60)


# --- going out (conceding) ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("mode", "parties", "expected"),
    [
        # ejl rule 6: half the bid, rounded up to 10
        ("half_bid", [(None, None), (40, None), (0, None)], (-170, 130, 90)),
        # docs/rules.md "Regional switches": "10 points are added for each player (40 with 4
        # players)"
        ("per_player", [(None, None), (40, None), (0, None)], (-170, 70, 30)),
        ("per_player", [(None, None), (40, None)], (-170, 80)),
        # docs/rules.md "dabb": "all opponents get their melds + 40 bonus points each"
        ("per_opponent", [(None, None), (40, None), (0, None)], (-170, 80, 40)),
        ("per_opponent", [(None, None), (40, None)], (-170, 80)),
    ],
)
def test_conceded_modes(mode, parties, expected):
    rules = dataclasses.replace(EJL, conceded_opponent_mode=mode)
    assert played(rules, 0, 170, *parties, kind=GameKind.CONCEDED).points == expected


# --- counting variants ---------------------------------------------------------------------------
VARIANTS = {
    "usual": {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2, "7": 0},
    "A 10 K": {"A": 10, "10": 10, "K": 10, "O": 0, "U": 0, "7": 0},
    "A 10 K O": {"A": 10, "10": 10, "K": 5, "O": 5, "U": 0, "7": 0},
    "A 10": {"A": 15, "10": 15, "K": 0, "O": 0, "U": 0, "7": 0},
}


@pytest.mark.parametrize("name", VARIANTS)
def test_every_counting_variant_still_makes_250_eyes(name):
    # "With the 10 eyes for the last stitch, however, there are always 250 eyes."
    rules = dataclasses.replace(EJL, card_eyes=tuple(VARIANTS[name].items()))
    assert rules.total_eyes == 250
    assert RuleSet.from_json(rules.to_json()) == rules


def test_with_a_counting_variant_a_trick_may_hold_no_eyes():
    rules = dataclasses.replace(EJL, card_eyes=tuple(VARIANTS["A 10"].items()))
    assert rules.trick_min_eyes(3) == 0 and rules.pressed_eyes(3) == (0, 60)
    # the declarer pressed nothing of worth, an opponent took only Unter and Ober
    game = GameInput(
        GameKind.PLAYED,
        0,
        150,
        (PartyInput(100, 150), PartyInput(20, 0, True), PartyInput(0, 100)),
    )
    assert validate_game(game, rules) == []
    assert score_game(game, rules).points == (250, 20, 100)
    assert "Eyes: A 15, 10 15, K 0, O 0, U 0; last trick 10." in rules.describe("en")


def test_card_eyes_are_checked():
    with pytest.raises(ScoringError) as info:
        RuleSet.from_dict({"card_eyes": {"A": -1, "B": 3}})
    assert {e.field: e.text("en") for e in info.value.errors} == {
        "card_eyes.A": "Must be at least 0 (now -1).",
        "card_eyes.B": 'Unknown rank "B"; use A, 10, K, O, U or 7.',
    }


def test_the_switches_sit_on_top_of_any_preset():
    regional = {
        "game_kinds": ["played", "conceded", "durch", "aufgelegt", "bettel"],
        "bettel_won": 500,
        "rundlauf_value": 250,
        "rundlauf_with_familie_value": 250,
        "lost_factor": 1,
        "lost_extra": 100,
        "trick_rounding": "none",
    }
    for name in PRESETS:
        base = get_preset(name).to_dict()
        rules = RuleSet.from_dict({**base, **regional})
        assert rules.plays(GameKind.BETTEL) and rules.bettel_won == 500
        assert (rules.lost_factor, rules.lost_extra) == (1, 100)
        assert RuleSet.from_json(rules.to_json()) == rules
        # a won Bettel scores its value wherever it is switched on
        tricks = [rules.pressed_eyes(3)[0], rules.total_eyes - rules.pressed_eyes(3)[0], 0]
        bettel = GameInput(
            GameKind.BETTEL,
            0,
            None,
            (
                PartyInput(tricks=tricks[0], took_trick=False),
                *map(lambda t: PartyInput(tricks=t), tricks[1:]),
            ),
        )
        assert score_game(bettel, rules).points == (500, 0, 0), name
