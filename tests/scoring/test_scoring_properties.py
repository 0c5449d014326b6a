"""Properties of scoring that must hold for every valid game (hypothesis)."""

from __future__ import annotations

import dataclasses
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
    EJL,
    GameInput,
    GameKind,
    PartyInput,
    ScoringError,
    achievable_pair_totals,
    achievable_totals,
    read_game,
    score_game,
    validate_game,
)
from scoring.engine import MIN_PRESSED_EYES, round10

MELDS_12 = sorted(achievable_totals(12))
MELDS_PAIR = sorted(t for t in achievable_pair_totals() if t <= 1500)


@st.composite
def split_250(draw, parts, declarer):
    """250 eyes over the parties; the declarer's share holds the 4 pressed cards (>= 8 eyes),
    every other party took no trick (0) or at least the cheapest trick (RULES.md: 6 eyes at a
    3-table, 8 at a pair table)."""
    rest = 250 - MIN_PRESSED_EYES
    cuts = sorted(draw(st.lists(st.integers(0, rest), min_size=parts - 1, max_size=parts - 1)))
    bounds = [0, *cuts, rest]
    shares = [b - a for a, b in zip(bounds, bounds[1:], strict=False)]
    shares[declarer] += MIN_PRESSED_EYES
    least = EJL.trick_min_eyes(parts)
    for i, share in enumerate(shares):
        if i != declarer and 0 < share < least:
            shares[declarer] += share
            shares[i] = 0
    return shares


@st.composite
def valid_games(draw, kinds=tuple(GameKind)):
    count = draw(st.sampled_from([2, 3]))
    kind = draw(st.sampled_from(kinds))
    declarer = draw(st.integers(0, count - 1))
    bid = draw(st.integers(15, 80)) * 10
    meld_choices = MELDS_12 if count == 3 else MELDS_PAIR
    melds = [draw(st.sampled_from(meld_choices)) for _ in range(count)]
    revoked = ()
    if kind is GameKind.CONCEDED:
        parties = tuple(PartyInput(meld=m) for m in melds)
        return GameInput(kind, declarer, bid, parties)
    revoked = tuple(draw(st.sets(st.integers(0, count - 1), max_size=count)))
    took_trick = None
    if kind is GameKind.DURCH:
        if draw(st.booleans()):
            tricks = [0] * count
            tricks[declarer] = 250
        else:
            tricks = draw(split_250(count, declarer))
        parties = [PartyInput(tricks=t) for t in tricks]
    else:
        tricks = draw(split_250(count, declarer))
        if tricks[declarer] <= 44 and draw(st.booleans()):
            took_trick = False
        parties = [PartyInput(meld=m, tricks=t) for m, t in zip(melds, tricks, strict=True)]
    if took_trick is not None:
        parties[declarer] = dataclasses.replace(parties[declarer], took_trick=took_trick)
    return GameInput(kind, declarer, bid, tuple(parties), revoked)


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
@given(game=valid_games(), data=st.data())
def test_points_do_not_depend_on_the_order_of_the_parties(game, data):
    assert validate_game(game) == []
    order = data.draw(st.permutations(list(range(len(game.parties)))))
    result = score_game(game)
    again = score_game(permuted(game, order))
    assert again.won == result.won
    assert again.points == tuple(result.points[i] for i in order)


@settings(max_examples=400, deadline=None)
@given(game=valid_games(kinds=(GameKind.PLAYED,)))
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
@given(game=valid_games())
def test_the_declarer_wins_or_loses_on_a_fixed_scale(game):
    result = score_game(game)
    points = result.points[game.declarer]
    if game.kind is GameKind.CONCEDED:
        assert (points, result.won) == (-game.bid, False)
    elif not result.won:
        assert points == -2 * game.bid
    elif game.kind is GameKind.DURCH:
        assert points == 1000
    else:
        assert points >= game.bid - 5


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
        "kind": st.sampled_from(["played", "conceded", "durch"]) | json_values,
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
