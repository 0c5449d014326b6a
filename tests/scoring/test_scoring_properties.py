"""Properties of scoring that must hold for every valid game (hypothesis)."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
    GameInput,
    GameKind,
    PartyInput,
    achievable_pair_totals,
    achievable_totals,
    score_game,
    validate_game,
)
from scoring.engine import round10

MELDS_12 = sorted(achievable_totals(12))
MELDS_PAIR = sorted(t for t in achievable_pair_totals() if t <= 1500)


@st.composite
def split_250(draw, parts):
    cuts = sorted(draw(st.lists(st.integers(0, 250), min_size=parts - 1, max_size=parts - 1)))
    bounds = [0, *cuts, 250]
    return [b - a for a, b in zip(bounds, bounds[1:], strict=False)]


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
            tricks = draw(split_250(count))
        parties = [PartyInput(tricks=t) for t in tricks]
    else:
        tricks = draw(split_250(count))
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
anything = st.one_of(
    st.none(), st.booleans(), st.integers(-300, 2000), st.text(max_size=3), st.floats()
)


@settings_for_fuzz
@given(
    kind=st.one_of(st.sampled_from(["played", "conceded", "durch"]), anything),
    declarer=anything,
    bid=anything,
    parties=st.lists(st.builds(PartyInput, anything, anything, anything), max_size=5),
    revoked=st.lists(anything, max_size=3),
)
def test_validation_reports_any_garbage_and_never_raises(kind, declarer, bid, parties, revoked):
    game = GameInput(kind, declarer, bid, tuple(parties), tuple(revoked))
    errors = validate_game(game)
    for error in errors:
        assert error.field
        assert error.text("de") and error.text("en")
    if not errors:
        score_game(game)
