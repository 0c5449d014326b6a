"""What holds for every preset: the command line contract and meld sets whose every total has a
witness an independent simple counter agrees with, also for randomly dealt hands (the
properties of scoring for every preset are in test_scoring_properties.py)."""

from __future__ import annotations

import io
import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import (
    PRESETS,
    GameInput,
    GameKind,
    PartyInput,
    Suit,
    achievable_totals,
    find_witness,
    full_deck,
    get_preset,
    hand_meld_total,
    score_game,
)
from scoring.cli import main
from tests.scoring.simple_counters import simple_luxus_total, simple_meld_total

NAMES = sorted(PRESETS)


def run(*args, stdin=""):
    out = io.StringIO()
    code = main(list(args), io.BytesIO(stdin.encode("utf-8")), out)
    return code, json.loads(out.getvalue())


def counted_simply(rules, found):
    if rules.name == "luxusfamilie":
        return simple_luxus_total(found.cards, found.trump)
    return simple_meld_total(found.cards, found.trump, rules)


def a_valid_game(rules):
    """The declarer bids the least and takes every trick; nobody melds."""
    tricks = [rules.total_eyes, 0, 0]
    return GameInput(
        GameKind.PLAYED, 0, rules.min_bid, tuple(PartyInput(meld=0, tricks=t) for t in tricks)
    )


@pytest.mark.parametrize("name", NAMES)
def test_rules_prints_every_preset_and_score_takes_it_as_a_rules_file(name, tmp_path):
    code, printed = run("rules", "--preset", name)
    assert code == 0 and printed == get_preset(name).to_dict()
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(printed), "utf-8")
    game = a_valid_game(get_preset(name))
    expected = score_game(game, get_preset(name)).to_dict()
    assert run("score", "--rules", str(path), stdin=json.dumps(game.to_dict())) == (0, expected)
    assert run("score", "--preset", name, stdin=json.dumps(game.to_dict())) == (0, expected)


@pytest.mark.parametrize("name", NAMES)
def test_rules_describe_every_preset_in_both_languages(name):
    code, german = run("rules", "--preset", name, "--describe")
    assert code == 0
    code, english = run("--lang", "en", "rules", "--preset", name, "--describe")
    assert code == 0 and len(german) == len(english)


@pytest.mark.parametrize("name", NAMES)
def test_melds_prints_every_presets_sets(name):
    rules = get_preset(name)
    code, totals = run("melds", "--preset", name)
    assert code == 0 and totals == sorted(achievable_totals(rules.hand_size(3), rules))


@pytest.mark.parametrize("name", NAMES)
def test_every_meld_total_has_a_witness_an_independent_counter_agrees_with(name):
    rules = get_preset(name)
    for cards in sorted({cards for _shape, cards in rules.hand_cards}):
        for total in sorted(achievable_totals(cards, rules)):
            found = find_witness(total, cards, rules)
            assert found is not None and len(found.cards) == cards
            assert max(Counter(found.cards).values()) <= 2
            assert hand_meld_total(found.cards, found.trump, rules) == total
            assert counted_simply(rules, found) == total, (name, total, found)


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(NAMES), data=st.data(), trump=st.sampled_from(list(Suit)))
def test_any_dealt_hand_shows_a_total_of_its_presets_set_and_the_simple_count(name, data, trump):
    rules = get_preset(name)
    cards = rules.hand_size(3)
    dealt = data.draw(st.permutations(full_deck(rules)))[:cards]
    total = hand_meld_total(dealt, trump, rules)
    assert total in achievable_totals(cards, rules)
    simple = (
        simple_luxus_total(dealt, trump)
        if name == "luxusfamilie"
        else simple_meld_total(dealt, trump, rules)
    )
    assert total == simple
