"""Properties of scoring that must hold for every valid game (hypothesis)."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
    EJL,
    PRESETS,
    GameInput,
    GameKind,
    ScoringError,
    read_game,
    score_game,
    validate_game,
)
from scoring.engine import round10
from tests.scoring.game_strategies import valid_games

# slow: property-based, hundreds of generated cases (make check leaves it out)
pytestmark = pytest.mark.slow

# every preset, and ejl with every kind of game (issue 15: Durch aufgelegt and Bettel on)
ALL_KINDS = dataclasses.replace(EJL, name="ejl + 002", game_kinds=tuple(GameKind))
RULE_SETS = st.sampled_from([*PRESETS.values(), ALL_KINDS])


def permuted(game, order):
    """The same game with party order[j] sitting at position j."""
    return GameInput(
        game.kind,
        order.index(game.declarer),
        game.bid,
        tuple(game.parties[i] for i in order),
        tuple(sorted(order.index(r) for r in game.revoked)),
    )


@settings(max_examples=400, deadline=None)
@given(rules=RULE_SETS, data=st.data())
def test_points_do_not_depend_on_the_order_of_the_parties(rules, data):
    game = data.draw(valid_games(rules))
    assert validate_game(game, rules) == []
    order = data.draw(st.permutations(list(range(len(game.parties)))))
    result = score_game(game, rules)
    again = score_game(permuted(game, order), rules)
    assert again.won == result.won
    assert again.points == tuple(result.points[i] for i in order)


@settings(max_examples=400, deadline=None)
@given(game=valid_games(EJL, kinds=(GameKind.PLAYED,)))
def test_rounded_trick_points_differ_from_exact_eyes_by_at_most_5(game):
    result = score_game(game)
    for i, party in enumerate(game.parties):
        if i in game.revoked or (i == game.declarer and not result.won):
            continue
        kept_meld = party.meld if party.tricks and party.took_trick is not False else 0
        trick_points = result.points[i] - kept_meld
        assert abs(trick_points - party.tricks) <= 5
        assert trick_points % 10 == 0


@given(eyes=st.integers(0, 250))
def test_round10_moves_at_most_5_to_a_multiple_of_10(eyes):
    assert abs(round10(eyes) - eyes) <= 5
    assert round10(eyes) % 10 == 0


@settings(max_examples=300, deadline=None)
@given(rules=RULE_SETS, data=st.data())
def test_the_declarer_wins_or_loses_on_a_fixed_scale(rules, data):
    game = data.draw(valid_games(rules))
    result = score_game(game, rules)
    points = result.points[game.declarer]
    if game.kind is GameKind.CONCEDED:
        assert (points, result.won) == (-rules.conceded_declarer_factor * game.bid, False)
    elif game.kind.is_special:
        won = rules.won_value(game.kind)
        assert points == (won if result.won else -rules.lost_factor_of(game.kind) * game.bid)
    elif not result.won:
        assert points == -(rules.lost_factor * game.bid + rules.lost_extra)
    else:
        slack = 5 if rules.trick_rounding == "round10" else 0
        assert points >= game.bid - slack


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_a_special_game_is_won_alone_or_lost_like_any_game(data):
    game = data.draw(valid_games(ALL_KINDS, kinds=(GameKind.DURCH_AUFGELEGT, GameKind.BETTEL)))
    result = score_game(game, ALL_KINDS)
    others = [p for i, p in enumerate(result.points) if i != game.declarer]
    if result.won:
        assert others == [0] * len(others)
    else:
        assert all(p >= 0 and p % 10 == 0 for p in others)


settings_for_fuzz = settings(max_examples=300, deadline=None)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-300, 2000) | st.text(max_size=3) | st.floats(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)
party_json = st.fixed_dictionaries(
    {}, optional={"meld": json_values, "tricks": json_values, "took_trick": json_values}
)
game_json = st.fixed_dictionaries(
    {},
    optional={
        "kind": st.sampled_from([kind.value for kind in GameKind]) | json_values,
        "declarer": st.integers(-1, 3) | json_values,
        "bid": st.integers(14, 40).map(lambda n: n * 10) | json_values,
        "parties": st.lists(party_json | json_values, max_size=5) | json_values,
        "revoked": st.lists(st.integers(-1, 3) | json_values, max_size=3) | json_values,
        "extra": json_values,
    },
)


@settings_for_fuzz
@given(data=game_json | json_values)
def test_any_json_is_read_and_validated_with_field_errors_and_never_raises_otherwise(data):
    try:
        game = read_game(data)
    except ScoringError as exc:
        assert exc.errors
        for error in exc.errors:
            assert isinstance(error.field, str)
            assert error.text("de") and error.text("en")
        return
    assert validate_game(game) == []
    score_game(game)


@settings_for_fuzz
@given(data=game_json)
def test_a_field_of_the_wrong_type_is_reported_once_and_the_rest_is_still_checked(data):
    """read_game names each problem of type or shape (what GameInput.from_dict finds) exactly
    once and adds nothing about such an unreadable field or what lies inside it; for a game of
    the right shape it says what validate_game says."""
    try:
        GameInput.from_dict(data)
        shape = []
    except ScoringError as exc:
        shape = list(exc.errors)
    try:
        read_game(data)
        everything = []
    except ScoringError as exc:
        everything = list(exc.errors)
    for error in shape:
        assert everything.count(error) == shape.count(error)
    unreadable = {error.field for error in shape}

    def inside(field):
        return any(field == f or field.startswith((f"{f}.", f"{f}[")) for f in unreadable)

    assert Counter(e for e in everything if inside(e.field)) == Counter(
        e for e in shape if inside(e.field)
    )
    if not shape:
        assert everything == validate_game(GameInput.from_dict(data))
