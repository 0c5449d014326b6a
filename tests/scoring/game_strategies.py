"""Hypothesis strategies for games that are valid under a given rule set (its kinds, its
eyes, its meld sets, its plausibility minimums)."""

from __future__ import annotations

import dataclasses
from functools import cache

from hypothesis import strategies as st

from scoring import (
    GameInput,
    GameKind,
    PartyInput,
    RuleSet,
    achievable_pair_totals,
    achievable_totals,
)


@cache
def meld_choices(rules: RuleSet, parties: int) -> list[int]:
    if parties == 2:
        return sorted(t for t in achievable_pair_totals(rules) if t <= 1500)
    return sorted(achievable_totals(rules.hand_size(3), rules))


@st.composite
def split_eyes(draw, rules, parties, declarer, declarer_eyes=None):
    """The rule set's eyes over the parties: the declarer's share holds the pressed cards
    (``declarer_eyes``: its range), every other party took no trick (0) or at least the
    cheapest trick (docs/rules.md "Plausibility")."""
    total = rules.total_eyes
    low, high = declarer_eyes or (rules.pressed_eyes(parties)[0], total)
    mine = draw(st.integers(low, high))
    rest = total - mine
    others = [i for i in range(parties) if i != declarer]
    cuts = sorted(
        draw(st.lists(st.integers(0, rest), min_size=len(others) - 1, max_size=len(others) - 1))
    )
    bounds = [0, *cuts, rest]
    shares = [0] * parties
    shares[declarer] = mine
    for i, (a, b) in zip(others, zip(bounds, bounds[1:], strict=False), strict=True):
        shares[i] = b - a
    least = rules.trick_min_eyes(parties)
    for i in others:
        if 0 < shares[i] < least:  # too little for a trick: give it to the biggest share
            biggest = max((j for j in range(parties) if j != i), key=lambda j: shares[j])
            if biggest == declarer and declarer_eyes is not None:
                biggest = next(j for j in others if j != i)
            shares[biggest] += shares[i]
            shares[i] = 0
    return shares


@st.composite
def valid_games(draw, rules, kinds=None):
    kinds = [k for k in (kinds or rules.game_kinds) if rules.plays(k)]
    count = draw(st.sampled_from([3, 2] if rules.pair_hand_cards else [3]))
    kind = draw(st.sampled_from(kinds))
    declarer = draw(st.integers(0, count - 1))
    bid = rules.min_bid + draw(st.integers(0, 60)) * rules.bid_step
    melds = [draw(st.sampled_from(meld_choices(rules, count))) for _ in range(count)]
    if kind is GameKind.CONCEDED:
        return GameInput(kind, declarer, bid, tuple(PartyInput(meld=m) for m in melds))
    revoked = tuple(sorted(draw(st.sets(st.integers(0, count - 1), max_size=count))))
    pressed = rules.pressed_eyes(count)
    took_trick = None
    if kind.is_special:
        if kind.is_durch and draw(st.booleans()):
            tricks = [0] * count
            tricks[declarer] = rules.total_eyes
        elif kind is GameKind.BETTEL and draw(st.booleans()):
            tricks = draw(split_eyes(rules, count, declarer, pressed))
            took_trick = False
        else:
            tricks = draw(split_eyes(rules, count, declarer))
        parties = [PartyInput(tricks=t) for t in tricks]
    else:
        tricks = draw(split_eyes(rules, count, declarer))
        if tricks[declarer] <= pressed[1] and draw(st.booleans()):
            took_trick = False
        parties = [PartyInput(meld=m, tricks=t) for m, t in zip(melds, tricks, strict=True)]
    if took_trick is not None:
        parties[declarer] = dataclasses.replace(parties[declarer], took_trick=took_trick)
    if rules.penalties:  # minus points: what a player was given, summed
        given = st.lists(st.sampled_from(rules.penalty_values), max_size=2).map(sum)
        parties = [dataclasses.replace(p, penalty=draw(given)) for p in parties]
    return GameInput(kind, declarer, bid, tuple(parties), revoked)
