"""Cards, melds and the meld totals a hand (or a pair) can show, per rule set.

How a hand's melds count is the rule set's meld table (``RuleSet.meld_table``, described in
scoring/meld_table.py); with the ejl table this reproduces exactly the impossible totals
docs/rules.md "Impossible meld totals" lists for 12-card and 9-card hands. The sets are computed by
a DP over the cells of the deck (scoring/meld_sets.py), once per meld table, deck and hand size
(cached): rule sets with the same meld table share them, a different table never does.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any

from scoring import messages as M
from scoring.cards import (
    COPIES,
    RANK_PLURALS,
    RANKS,
    SUITS,
    Card,
    Rank,
    Suit,
    cards_of,
    deck_ranks,
)
from scoring.errors import FieldError, ScoringError
from scoring.meld_sets import pair_totals, single_hands
from scoring.meld_table import MeldTable
from scoring.reading import is_int
from scoring.rules import EJL, RuleSet


def full_deck(rules: RuleSet = EJL) -> tuple[Card, ...]:
    """The cards of the rule set's deck, two of each, in display order: 40 (4 suits × A, 10,
    K, O, U), or 48 where sevens are played."""
    return cards_of(rules.sevens)


@dataclass(frozen=True, init=False)
class MeldCounts:
    """Itemised melds: how often a hand shows each meld, by name.

    Names (from the rule set's meld table): a suit meld's key for it outside trump and
    ``trump_<key>`` in trump (``paar``, ``trump_familie``, ``doppelfamilie`` …), ``vier_<rank>``
    and ``acht_<rank>`` (``vier_unter``, ``acht_asse``; ranks ``asse``, ``zehner``, ``koenige``,
    ``ober``, ``unter``, ``siebener``), ``binokel``, ``doppelbinokel``, ``rundlauf``. A Rundlauf
    *includes* its 4 Könige, 4 Ober and four Paare: they are not counted again.
    ``MeldCounts(paar=2, rundlauf=1)``; counts of 0 are left out, so equal melds compare equal.
    """

    counts: tuple[tuple[str, int], ...] = field(default=())

    def __init__(self, **counts: int) -> None:
        for name, value in counts.items():
            if not is_int(value):
                raise TypeError(f"MeldCounts.{name} must be an int: {value!r}")
        object.__setattr__(
            self, "counts", tuple(sorted((k, v) for k, v in counts.items() if v != 0))
        )

    def __getitem__(self, name: str) -> int:
        return dict(self.counts).get(name, 0)

    def to_dict(self) -> dict[str, int]:
        return dict(self.counts)

    @classmethod
    def from_dict(cls, data: object, rules: RuleSet = EJL) -> MeldCounts:
        """Read ``{"paar": 2, ...}``; names the rule set's meld table does not know and values
        that are not whole numbers are errors."""
        if not isinstance(data, Mapping):
            raise ScoringError([FieldError.of("", M.NOT_AN_OBJECT)])
        known = rules.meld_table.item_values()
        errors: list[FieldError] = []
        values: dict[str, int] = {}
        for key, value in data.items():
            if key not in known:
                errors.append(FieldError.of(str(key), M.UNKNOWN_FIELD, name=key))
            elif not is_int(value):
                errors.append(FieldError.of(key, M.NOT_AN_INTEGER))
            else:
                values[key] = value
        if errors:
            raise ScoringError(errors)
        return cls(**values)


def meld_total(counts: MeldCounts, rules: RuleSet = EJL) -> int:
    """The points of itemised melds, applying rule 15 (Rundlauf with a Familie)."""
    return _total(counts, rules.meld_table)


def _total(counts: MeldCounts, table: MeldTable) -> int:
    known = table.item_values()
    errors = []
    for name, value in counts.counts:
        if name not in known:
            errors.append(FieldError.of(name, M.UNKNOWN_FIELD, name=name))
        elif value < 0:
            errors.append(FieldError.of(name, M.COUNT_NEGATIVE, value=value))
    if errors:
        raise ScoringError(errors)
    with_familie = any(counts[name] for name in table.familie_items())
    total = 0
    for name, value in counts.counts:
        if name == "rundlauf" and with_familie:
            total += value * table.rundlauf_with_familie
        else:
            total += value * known[name]
    return total


# --- counting one hand -------------------------------------------------------------------------
def _suit_counts(cards: Iterable[Card]) -> Mapping[Suit, Counter[Rank]]:
    counts = Counter(cards)
    too_many = [card for card, n in sorted(counts.items()) if n > COPIES]
    if too_many:
        raise ScoringError(
            [FieldError.of("cards", M.TOO_MANY_COPIES, card=card.label()) for card in too_many]
        )
    per_suit: dict[Suit, Counter[Rank]] = {suit: Counter() for suit in SUITS}
    for card, n in counts.items():
        per_suit[card.suit][card.rank] += n
    return per_suit


def _melds(per_suit: Mapping[Suit, Counter[Rank]], trump: Suit, table: MeldTable) -> MeldCounts:
    found: Counter[str] = Counter()
    familie = False
    taken: list[tuple[Suit, str]] = []  # the Paar a Rundlauf would take, per suit
    for suit in SUITS:
        outcome = table.suit_outcome(per_suit[suit], suit == trump)
        prefix = "trump_" if suit == trump else ""
        for key, times in outcome.found:
            found[prefix + key] += times
        familie = familie or outcome.familie
        if outcome.paar_taken:
            taken.append((suit, prefix + "paar"))
    least = {rank: min(per_suit[suit][rank] for suit in SUITS) for rank in RANKS}
    rundlauf = table.has_rundlauf and least[Rank.KOENIG] == 1 and least[Rank.OBER] == 1
    for rank in table.rank_melds():
        if rundlauf and rank in (Rank.KOENIG, Rank.OBER):
            continue
        if least[rank] >= COPIES and table.rank_value(rank, least[rank]):
            found[f"acht_{RANK_PLURALS[rank]}"] += 1
        elif least[rank] >= 1 and table.four_value(rank):
            found[f"vier_{RANK_PLURALS[rank]}"] += 1
    if rundlauf:
        found["rundlauf"] += 1
        for _suit, name in taken:  # the Rundlauf takes one Paar in every suit without a Familie
            found[name] -= 1
    binokel = min(per_suit[Suit.SCHELLEN][Rank.UNTER], per_suit[Suit.SCHIPPEN][Rank.OBER])
    if binokel >= COPIES and table.doppelbinokel:
        found["doppelbinokel"] += 1
    elif binokel and table.binokel:
        found["binokel"] += 1
    return MeldCounts(**found)


def hand_melds(cards: Sequence[Card], trump: Suit, rules: RuleSet = EJL) -> MeldCounts:
    """The melds a hand shows with ``trump`` (every meld it holds, counted by the rule set's
    meld table)."""
    return _melds(_suit_counts(cards), Suit(trump), rules.meld_table)


def hand_meld_total(cards: Sequence[Card], trump: Suit, rules: RuleSet = EJL) -> int:
    return meld_total(hand_melds(cards, trump, rules), rules)


def best_trump(cards: Sequence[Card], rules: RuleSet = EJL) -> tuple[Suit, int]:
    """The trump suit that gives the hand its highest meld (the first such suit on a tie)."""
    per_suit = _suit_counts(cards)
    best: tuple[Suit, int] | None = None
    for suit in SUITS:
        total = meld_total(_melds(per_suit, suit, rules.meld_table), rules)
        if best is None or total > best[1]:
            best = (suit, total)
    assert best is not None
    return best


# --- the totals hands can show ------------------------------------------------------------------
@dataclass(frozen=True)
class Witness:
    """A hand that shows ``total`` when ``trump`` is trump."""

    total: int
    cards: tuple[Card, ...]
    trump: Suit
    melds: MeldCounts


@cache
def _witnesses(table: MeldTable, sevens: bool, cards: int) -> Mapping[int, Witness]:
    out: dict[int, Witness] = {}
    for total, (trump, hand) in single_hands(table, deck_ranks(sevens), cards).items():
        melds = _melds(_suit_counts(hand), trump, table)
        if _total(melds, table) != total:  # the DP and the counter must agree: a bug
            raise AssertionError(f"meld DP and counter disagree on {total}: {melds}")
        out[total] = Witness(total, hand, trump, melds)
    return MappingProxyType(out)


def _check_hand_size(cards: int, rules: RuleSet) -> None:
    deck = rules.deck_size
    if not is_int(cards) or not 0 <= cards <= deck:
        raise ScoringError([FieldError.of("cards", M.HAND_SIZE, cards=cards, deck=deck)])


def achievable_totals(cards: int, rules: RuleSet = EJL) -> frozenset[int]:
    """Every meld total a hand of ``cards`` cards (12 or 9 in ejl) can show, for some trump."""
    key = ("achievable_totals", cards)
    found = rules.memo.get(key)
    if found is None:
        _check_hand_size(cards, rules)
        found = rules.memo[key] = _achievable(rules.meld_key, rules.sevens, cards)
    assert isinstance(found, frozenset)
    return found


@cache
def _achievable(table: MeldTable, sevens: bool, cards: int) -> frozenset[int]:
    return frozenset(_witnesses(table, sevens, cards))


def achievable_pair_totals(rules: RuleSet = EJL) -> frozenset[int]:
    """Every meld two partners (9 cards each in ejl) can show together: two hands dealt from
    the same deck, melding with the same trump (docs/rules.md "Impossible meld totals"; exact, not
    every sum of two single totals). Empty for a rule set without pair tables."""
    found = rules.memo.get("achievable_pair_totals")
    if found is None:
        cards = rules.pair_hand_cards
        if cards is None:
            found = frozenset()
        else:
            found = pair_totals(rules.meld_key, deck_ranks(rules.sevens), cards)
        rules.memo["achievable_pair_totals"] = found
    assert isinstance(found, frozenset)
    return found


@cache
def _sorted(totals: frozenset[int]) -> tuple[int, ...]:
    return tuple(sorted(totals))


def nearest_totals(
    total: int, cards: int | None, rules: RuleSet = EJL
) -> tuple[int | None, int | None]:
    """The achievable totals just below and just above ``total`` (``cards=None``: a pair)."""
    totals = achievable_pair_totals(rules) if cards is None else achievable_totals(cards, rules)
    ordered = _sorted(totals)
    i = bisect.bisect_left(ordered, total)
    below = ordered[i - 1] if i > 0 else None
    j = bisect.bisect_right(ordered, total)
    above = ordered[j] if j < len(ordered) else None
    return below, above


def highest_total(cards: int | None, rules: RuleSet = EJL) -> int:
    """The highest meld a hand of ``cards`` cards (``None``: a pair) can show (0 if none)."""
    totals = achievable_pair_totals(rules) if cards is None else achievable_totals(cards, rules)
    ordered = _sorted(totals)
    return ordered[-1] if ordered else 0


def find_witness(total: int, cards: int, rules: RuleSet = EJL) -> Witness | None:
    """A hand of exactly ``cards`` cards and a trump with which it shows ``total``, or None."""
    _check_hand_size(cards, rules)
    return _witnesses(rules.meld_key, rules.sevens, cards).get(total)


def witness(total: int, cards: int, rules: RuleSet = EJL) -> tuple[Card, ...] | None:
    """A hand of exactly ``cards`` cards whose meld (for some trump) is ``total``, or None."""
    found = find_witness(total, cards, rules)
    return None if found is None else found.cards


def witness_dict(found: Witness) -> dict[str, Any]:
    """The CLI's JSON shape of a witness."""
    return {
        "total": found.total,
        "cards": [card.label() for card in sorted(found.cards, key=lambda c: c.sort_key)],
        "trump": found.trump.value,
    }
