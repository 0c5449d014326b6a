"""A whole score sheet in the engine: who deals, who sits out, the Durch moving the deal,
running totals and the scorer's sums — no database, no desk."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import EJL, GameInput, GameKind, PartyInput, RuleSet, ScoringError, score_game
from scoring import messages as M
from scoring.sheet import SheetGame, SheetInput, dealers, read_sheet, score_sheet
from scoring.tables import TableKind, table_shape


def party(meld: int | None = None, tricks: int | None = None) -> PartyInput:
    return PartyInput(meld=meld, tricks=tricks)


# docs/rules.md worked example 1: A declares 200 with 60/152; B 20/58; C 0/40 -> 210, 80, 40.
EXAMPLE_1 = SheetGame(
    kind=GameKind.PLAYED,
    declarer=0,
    bid=200,
    columns=(party(60, 152), party(20, 58), party(0, 40)),
)


def played(declarer: int, columns: int, sits_out: int | None = None) -> SheetGame:
    """A won game of 200 for ``declarer``: 60/150 for it, 100 eyes for the others."""
    players = [c for c in range(columns) if c != sits_out]
    others = [c for c in players if c != declarer]
    tricks = {declarer: 150}
    for i, c in enumerate(others):
        tricks[c] = 100 // len(others) + (100 % len(others) if i == 0 else 0)
    cols = tuple(
        PartyInput() if c == sits_out else party(60 if c == declarer else 0, tricks[c])
        for c in range(columns)
    )
    return SheetGame(kind=GameKind.PLAYED, declarer=declarer, bid=200, columns=cols)


def durch(declarer: int, columns: int, sits_out: int | None = None) -> SheetGame:
    cols = tuple(
        PartyInput() if c == sits_out else party(None, 250 if c == declarer else 0)
        for c in range(columns)
    )
    return SheetGame(kind=GameKind.DURCH, declarer=declarer, columns=cols)


def test_one_game_is_scored_as_the_engine_scores_it():
    result = score_sheet(SheetInput(TableKind.THREE, (EXAMPLE_1,)))
    first = result.games[0]
    assert (first.number, first.dealer, first.sits_out) == (1, 0, None)
    assert first.points == (210, 80, 40) and first.won is True
    assert first.running == (210, 80, 40)
    assert result.totals == (210, 80, 40)
    assert result.errors == () and result.entered_games == 1 and not result.complete


def test_a_sheet_has_as_many_games_as_the_rule_set_says():
    assert len(score_sheet(SheetInput(TableKind.THREE)).games) == 12
    assert len(score_sheet(SheetInput(TableKind.FOUR_SITOUT)).games) == 16
    rules = RuleSet(games_per_round=(("three", 15), ("pairs", 15), ("four_sitout", 20)))
    assert len(score_sheet(SheetInput(TableKind.PAIRS), rules).games) == 15


def test_the_deal_goes_round_the_table_so_everyone_deals_equally_often():
    assert dealers("three", 12) == (0, 1, 2) * 4
    assert dealers("pairs", 12) == (0, 1, 2, 3) * 3
    assert dealers("four_sitout", 16) == (0, 1, 2, 3) * 4
    games = tuple(played(g % 3, 3) for g in range(12))
    result = score_sheet(SheetInput(TableKind.THREE, games))
    assert [g.dealer for g in result.games] == list(dealers("three", 12))
    assert result.complete and result.errors == ()


def test_at_a_three_table_the_durch_player_deals_next():
    games = [played(0, 3), played(1, 3), durch(1, 3), played(2, 3), played(0, 3)]
    result = score_sheet(SheetInput(TableKind.THREE, tuple(games)))
    # game 3 (dealt by seat 2) is a Durch of seat 1: seat 1 deals game 4, then the rotation
    assert [g.dealer for g in result.games[:6]] == [0, 1, 2, 1, 2, 0]
    assert result.games[2].points == (0, 1000, 0) and result.games[2].won


def test_the_durch_player_deals_next_only_where_the_rule_set_says_so():
    games = (played(0, 3), durch(0, 3))
    rules = RuleSet(durch_player_deals_next=False)
    result = score_sheet(SheetInput(TableKind.THREE, games), rules)
    assert [g.dealer for g in result.games[:3]] == [0, 1, 2]


def test_at_a_four_table_the_printed_rotation_stays_after_a_durch_and_everyone_plays_twelve():
    games: list[SheetGame] = []
    for n in range(1, 17):
        dealer = (n - 1) % 4
        declarer = (dealer + 1) % 4
        if n == 6:  # a Durch of column 2 while seat 1 deals
            games.append(durch(declarer, 4, sits_out=dealer))
        else:
            games.append(played(declarer, 4, sits_out=dealer))
    result = score_sheet(SheetInput(TableKind.FOUR_SITOUT, tuple(games)))
    assert result.errors == () and result.complete
    assert [g.dealer for g in result.games] == list(dealers("four_sitout", 16))
    sat_out = Counter(g.sits_out for g in result.games)
    assert sat_out == {0: 4, 1: 4, 2: 4, 3: 4}  # 16 games, each plays 12
    assert result.games[5].points == (0, 0, 1000, 0)


def test_a_four_table_may_move_the_deal_after_a_durch_if_the_organiser_wants():
    rules = RuleSet(four_sitout_keeps_rotation=False)
    games = (played(1, 4, sits_out=0), durch(2, 4, sits_out=1))
    result = score_sheet(SheetInput(TableKind.FOUR_SITOUT, games), rules)
    assert [g.dealer for g in result.games[:4]] == [0, 1, 2, 3]  # the Durch player 2 deals
    games = (played(1, 4, sits_out=0), durch(3, 4, sits_out=1))
    result = score_sheet(SheetInput(TableKind.FOUR_SITOUT, games), rules)
    assert [g.dealer for g in result.games[:4]] == [0, 1, 3, 0]


def test_at_a_pair_table_the_sheet_asks_who_of_the_pair_played_the_durch():
    games = (played(0, 2), durch(1, 2), played(0, 2))
    result = score_sheet(SheetInput(TableKind.PAIRS, games))
    warning = result.games[2].warnings
    assert [w.field for w in warning] == ["games[2].dealer"]
    assert warning[0].msgid == M.SHEET_DURCH_PAIR_DEALER
    assert result.errors == ()  # a warning: the game still counts
    # the desk enters the partner in seat 3 as the dealer; the rotation goes on from there
    fixed = (games[0], games[1], SheetGame(**{**games[2].__dict__, "dealer": 3}))
    result = score_sheet(SheetInput(TableKind.PAIRS, fixed))
    assert result.games[2].warnings == ()
    assert [g.dealer for g in result.games[:5]] == [0, 1, 3, 0, 1]


def test_pair_columns_are_the_crosswise_seats():
    shape = table_shape("pairs")
    assert [shape.column_of_seat(s) for s in range(4)] == [0, 1, 0, 1]
    assert shape.seats_of_column(0) == (0, 2) and shape.seats_of_column(1) == (1, 3)
    assert shape.scorer_seat == 2 and shape.scorer_column == 0
    # the first pair's named player deals game 1, the partner opposite keeps the sheet
    assert shape.player_of_seat(0) == (0, 0) and shape.player_of_seat(2) == (0, 1)
    assert shape.deals_first(0) and not shape.deals_first(1)
    assert table_shape("three").scorer_column == 2
    assert table_shape("four_sitout").playing_columns(2) == (0, 1, 3)


def test_an_entered_dealer_overrides_the_sequence_and_the_rotation_goes_on_from_there():
    games = (played(0, 3), SheetGame(**{**played(1, 3).__dict__, "dealer": 0}))
    result = score_sheet(SheetInput(TableKind.THREE, games))
    assert [g.dealer for g in result.games[:4]] == [0, 0, 1, 2]


def test_a_dealer_who_is_not_at_the_table_is_an_error():
    games = (SheetGame(**{**EXAMPLE_1.__dict__, "dealer": 3}),)
    result = score_sheet(SheetInput(TableKind.THREE, games))
    assert [(e.field, e.msgid) for e in result.errors] == [
        ("games[0].dealer", M.SHEET_DEALER_RANGE)
    ]
    assert result.games[0].points is None


def test_the_sitting_out_dealer_enters_nothing_and_cannot_declare():
    cols = (party(20, 10), party(60, 150), party(0, 50), party(0, 50))
    game = SheetGame(kind=GameKind.PLAYED, declarer=0, bid=200, columns=cols, revoked=(0,))
    result = score_sheet(SheetInput(TableKind.FOUR_SITOUT, (game,)))
    fields = sorted(e.field for e in result.errors)
    assert "games[0].columns[0].meld" in fields and "games[0].columns[0].tricks" in fields
    assert "games[0].declarer" in fields and "games[0].revoked" in fields
    assert result.games[0].points is None


def test_engine_fields_are_named_by_the_sheets_columns():
    # column 0 sits out (seat 0 deals game 1); the tricks of columns 1..3 add up to 240
    cols = (PartyInput(), party(60, 150), party(0, 50), party(10, 40))
    game = SheetGame(kind=GameKind.PLAYED, declarer=1, bid=200, columns=cols)
    result = score_sheet(SheetInput(TableKind.FOUR_SITOUT, (game,)))
    by_field = {e.field: e.msgid for e in result.errors}
    assert by_field == {
        "games[0].columns[3].meld": M.MELD_IMPOSSIBLE_HAND,
        "games[0].columns": M.TRICKS_SUM,
    }


def test_every_problem_of_every_game_is_named_at_once():
    bad_bid = SheetGame(**{**EXAMPLE_1.__dict__, "bid": 205})
    no_declarer = SheetGame(**{**EXAMPLE_1.__dict__, "declarer": None})
    result = score_sheet(SheetInput(TableKind.THREE, (EXAMPLE_1, bad_bid, no_declarer)))
    assert [(e.field, e.msgid) for e in result.errors] == [
        ("games[1].bid", M.BID_STEP),
        ("games[2].declarer", M.DECLARER_MISSING),
    ]
    assert result.games[0].points is not None and result.games[1].points is None
    assert result.totals == result.games[0].points  # only valid games count


def test_the_scorers_written_sums_that_differ_are_warnings_that_explain():
    game = SheetGame(**{**EXAMPLE_1.__dict__, "written": (210, 90, None)})
    sheet = SheetInput(TableKind.THREE, (game,), written_totals=(210, 80, 50))
    result = score_sheet(sheet)
    assert result.errors == ()
    assert result.games[0].written_mismatch == (1,) and result.total_mismatch == (2,)
    texts = [w.text("de") for w in result.warnings]
    assert texts == ["Listenführer 90, berechnet 80.", "Listenführer 50, berechnet 40."]
    assert [w.text("en") for w in result.warnings][0] == "Scorer 90, computed 80."
    assert result.scorer_mismatch


def test_more_games_than_the_sheet_holds_is_an_error():
    result = score_sheet(SheetInput(TableKind.THREE, (EXAMPLE_1,) * 13))
    assert result.errors[0].field == "games" and result.errors[0].msgid == M.SHEET_TOO_MANY_GAMES


def test_unreadable_values_are_reported_once_in_place_of_their_checks():
    data = {
        "table": "three",
        "games": [
            {
                "kind": "played",
                "declarer": 0,
                "bid": "zweihundert",
                "columns": [{"meld": 60, "tricks": 152}, {"meld": 20, "tricks": "x"}, {}],
            }
        ],
    }
    with pytest.raises(ScoringError) as info:
        read_sheet(data)
    fields = [(e.field, e.msgid) for e in info.value.errors]
    assert ("games[0].bid", M.NOT_AN_INTEGER) in fields
    assert ("games[0].columns[1].tricks", M.NOT_AN_INTEGER) in fields
    assert not any(msgid in (M.BID_MISSING, M.TRICKS_SUM) for _f, msgid in fields)


# --- properties ---------------------------------------------------------------------------------
@st.composite
def valid_games(draw: st.DrawFn, kind: TableKind) -> list[SheetGame]:
    """Up to a sheet's worth of valid played games on the printed rotation (no Durch)."""
    shape = table_shape(kind)
    count = draw(st.integers(0, EJL.games_for(str(kind))))
    games = []
    for n in range(1, count + 1):
        sits_out = shape.sitting_out(shape.rotation_dealer(n))
        playing = [c for c in range(shape.columns) if c != sits_out]
        declarer = draw(st.sampled_from(playing))
        cut = sorted(
            draw(
                st.lists(st.integers(8, 242), min_size=len(playing) - 1, max_size=len(playing) - 1)
            )
        )
        tricks = [b - a for a, b in zip([0, *cut], [*cut, 250], strict=True)]
        if any(t < 8 for t in tricks):
            tricks = [250 - 8 * (len(playing) - 1)] + [8] * (len(playing) - 1)
        melds = draw(
            st.lists(
                st.sampled_from([0, 20, 40, 60, 100, 150]),
                min_size=len(playing),
                max_size=len(playing),
            )
        )
        by_col = dict(zip(playing, zip(melds, tricks, strict=True), strict=True))
        bid = draw(st.sampled_from([150, 200, 250, 300]))
        columns = tuple(
            PartyInput() if c == sits_out else party(*by_col[c]) for c in range(shape.columns)
        )
        games.append(SheetGame(kind=GameKind.PLAYED, declarer=declarer, bid=bid, columns=columns))
    return games


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(list(TableKind)).flatmap(lambda k: st.tuples(st.just(k), valid_games(k))))
def test_the_sheet_adds_nothing_to_the_scoring_of_a_game(case):
    kind, games = case
    result = score_sheet(SheetInput(kind, tuple(games)))
    assert result.errors == ()
    running = [0] * table_shape(kind).columns
    for game, scored in zip(games, result.games, strict=False):
        playing = [c for c in range(len(game.columns)) if c != scored.sits_out]
        alone = score_game(
            GameInput(
                kind=game.kind,
                declarer=playing.index(game.declarer),
                bid=game.bid,
                parties=tuple(game.columns[c] for c in playing),
            )
        )
        assert scored.points is not None
        assert [scored.points[c] for c in playing] == list(alone.points)
        if scored.sits_out is not None:
            assert scored.points[scored.sits_out] == 0
        running = [r + p for r, p in zip(running, scored.points, strict=True)]
        assert list(scored.running) == running
    assert list(result.totals) == running


def test_a_durch_laid_open_moves_the_deal_and_a_bettel_does_not():
    rules = RuleSet(
        game_kinds=(GameKind.PLAYED, GameKind.DURCH, GameKind.DURCH_AUFGELEGT, GameKind.BETTEL)
    )
    laid_open = SheetGame(**{**durch(1, 3).__dict__, "kind": GameKind.DURCH_AUFGELEGT})
    result = score_sheet(SheetInput(TableKind.THREE, (played(0, 3), laid_open)), rules)
    assert result.errors == () and [g.dealer for g in result.games[:3]] == [0, 1, 1]
    bettel = SheetGame(
        kind=GameKind.BETTEL,
        declarer=1,
        bid=200,
        columns=(
            party(None, 125),
            party(
                None,
                20,
            ),
            party(None, 105),
        ),
    )
    bettel = SheetGame(
        **{
            **bettel.__dict__,
            "columns": (
                party(None, 125),
                PartyInput(tricks=20, took_trick=False),
                party(None, 105),
            ),
        }
    )
    result = score_sheet(SheetInput(TableKind.THREE, (played(0, 3), bettel)), rules)
    assert [g.dealer for g in result.games[:3]] == [0, 1, 2]
