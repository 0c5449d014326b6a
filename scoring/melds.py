"""Cards, melds and the meld totals a hand can show.

How a hand's melds are counted (RULES.md, "Melds"), for a given trump suit:

* Every meld the hand holds is shown. Per suit, each complete set A-10-K-O-U is a Familie (a
  double Familie counts twice, unless the rule set says otherwise); every further K+O of that
  suit is a Paar. A Familie's K+O is never also a Paar.
* "4 of a rank" (U, O, K, A) is one card of that rank from every suit; holding both copies in
  every suit is "8 of a rank" (1000) *instead of* the 4 (never both, never two 4s).
* Binokel is Schellen-U + Schippen-O; both copies of each is the Doppelbinokel (300) instead.
* A Rundlauf (a Paar in every suit) is the 4 Könige, the 4 Ober and one Paar in every suit shown
  together; it replaces those melds and is worth ``rules.rundlauf_value`` (240), or, if the hand
  shows any Familie, ``rules.rundlauf_with_familie_value`` (200, rule 15) plus the Familie. In a
  suit with a Familie the Familie's K+O is that suit's Paar of the Rundlauf. Kings or Ober that
  form "8 of a rank" are not "4 Könige/4 Ober", so such a hand has no Rundlauf (its Paare count
  as Paare).
* A card serves in melds of different kinds (Schippen-O in a Binokel, a Paar and 4 Ober), never
  in two melds of the same kind.

With the ejl values this reproduces exactly the impossible totals RULES.md lists for 12-card and
9-card hands; the sets are computed by a DP over the four suits (``achievable_totals``).
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from functools import cache
from itertools import product
from types import MappingProxyType
from typing import Any

from scoring import messages as M
from scoring.errors import FieldError, ScoringError
from scoring.reading import is_int
from scoring.rules import EJL, RuleSet


class Suit(StrEnum):
    HERZ = "herz"
    SCHELLEN = "schellen"
    KREUZ = "kreuz"
    SCHIPPEN = "schippen"


class Rank(StrEnum):
    ASS = "A"
    ZEHN = "10"
    KOENIG = "K"
    OBER = "O"
    UNTER = "U"


SUITS: tuple[Suit, ...] = tuple(Suit)
RANKS: tuple[Rank, ...] = tuple(Rank)
SUIT_SYMBOLS: Mapping[Suit, str] = MappingProxyType(
    {Suit.HERZ: "♥", Suit.SCHELLEN: "♦", Suit.KREUZ: "♣", Suit.SCHIPPEN: "♠"}
)
EYES: Mapping[Rank, int] = MappingProxyType(
    {Rank.ASS: 11, Rank.ZEHN: 10, Rank.KOENIG: 4, Rank.OBER: 3, Rank.UNTER: 2}
)
COPIES = 2  # every card is in the deck twice

# Meld values of the ejl table (RULES.md); the Rundlauf values and the double Familie are rules.
PAAR = 20
TRUMP_PAAR = 40
FAMILIE = 100
TRUMP_FAMILIE = 150
BINOKEL = 40
DOPPELBINOKEL = 300
VIER_UNTER = 40
VIER_OBER = 60
VIER_KOENIGE = 80
VIER_ASSE = 100
ACHT_GLEICHE = 1000


@dataclass(frozen=True, order=True)
class Card:
    suit: Suit
    rank: Rank

    def label(self) -> str:
        """E.g. "♥K" (♥ Herz, ♦ Schellen, ♣ Kreuz, ♠ Schippen)."""
        return f"{SUIT_SYMBOLS[self.suit]}{self.rank.value}"

    @property
    def eyes(self) -> int:
        return EYES[self.rank]

    @property
    def sort_key(self) -> tuple[int, int]:
        """Suit order Herz, Schellen, Kreuz, Schippen; rank order A, 10, K, O, U."""
        return (SUITS.index(self.suit), RANKS.index(self.rank))


def full_deck() -> tuple[Card, ...]:
    """The 40 cards: 4 suits × A, 10, K, O, U × 2 copies, in display order."""
    return tuple(Card(suit, rank) for suit in SUITS for rank in RANKS for _ in range(COPIES))


@dataclass(frozen=True)
class MeldCounts:
    """Itemised melds. A Rundlauf *includes* its 4 Könige, 4 Ober and four Paare: they are not
    counted again in ``vier_koenige``, ``vier_ober`` or the Paare."""

    paare: int = 0
    trump_paare: int = 0
    familien: int = 0
    trump_familien: int = 0
    binokel: int = 0
    doppelbinokel: int = 0
    vier_unter: int = 0
    vier_ober: int = 0
    vier_koenige: int = 0
    vier_asse: int = 0
    acht_gleiche: int = 0
    rundlauf: int = 0

    def to_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: object) -> MeldCounts:
        if not isinstance(data, Mapping):
            raise ScoringError([FieldError.of("", M.NOT_AN_OBJECT)])
        known = {f.name for f in fields(cls)}
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
    errors = [
        FieldError.of(f.name, M.COUNT_NEGATIVE, value=getattr(counts, f.name))
        for f in fields(counts)
        if getattr(counts, f.name) < 0
    ]
    if errors:
        raise ScoringError(errors)
    with_familie = counts.familien + counts.trump_familien > 0
    rundlauf_value = rules.rundlauf_with_familie_value if with_familie else rules.rundlauf_value
    return (
        counts.paare * PAAR
        + counts.trump_paare * TRUMP_PAAR
        + counts.familien * FAMILIE
        + counts.trump_familien * TRUMP_FAMILIE
        + counts.binokel * BINOKEL
        + counts.doppelbinokel * DOPPELBINOKEL
        + counts.vier_unter * VIER_UNTER
        + counts.vier_ober * VIER_OBER
        + counts.vier_koenige * VIER_KOENIGE
        + counts.vier_asse * VIER_ASSE
        + counts.acht_gleiche * ACHT_GLEICHE
        + counts.rundlauf * rundlauf_value
    )


# --- counting one hand -------------------------------------------------------------------------
# A suit's share of a hand is its "config": how many A, 10, K, O, U (0-2 each) it holds.
_A, _T, _K, _O, _U = range(5)
_HERZ, _SCHELLEN, _KREUZ, _SCHIPPEN = range(4)
SuitConfig = tuple[int, int, int, int, int]


def _configs(cards: Iterable[Card]) -> tuple[SuitConfig, ...]:
    counts = Counter(cards)
    too_many = [card for card, n in sorted(counts.items()) if n > COPIES]
    if too_many:
        raise ScoringError(
            [FieldError.of("cards", M.TOO_MANY_COPIES, card=card.label()) for card in too_many]
        )
    return tuple(
        (
            counts[Card(suit, Rank.ASS)],
            counts[Card(suit, Rank.ZEHN)],
            counts[Card(suit, Rank.KOENIG)],
            counts[Card(suit, Rank.OBER)],
            counts[Card(suit, Rank.UNTER)],
        )
        for suit in SUITS
    )


def _suit_familien_paare(cfg: SuitConfig, double_familie_twice: bool) -> tuple[int, int]:
    familien = min(cfg)
    if not double_familie_twice:
        familien = min(familien, 1)
    return familien, min(cfg[_K], cfg[_O]) - familien


def _melds_of_configs(configs: Sequence[SuitConfig], trump: int, rules: RuleSet) -> MeldCounts:
    paare = trump_paare = familien = trump_familien = 0
    plain_suits_without_familie = 0
    trump_has_familie = False
    for index, cfg in enumerate(configs):
        fam, paar = _suit_familien_paare(cfg, rules.double_familie_counts_twice)
        if index == trump:
            trump_familien += fam
            trump_paare += paar
            trump_has_familie = fam > 0
        else:
            familien += fam
            paare += paar
            plain_suits_without_familie += fam == 0
    asse, koenige, ober, unter = (min(cfg[rank] for cfg in configs) for rank in (_A, _K, _O, _U))
    rundlauf = koenige == 1 and ober == 1
    if rundlauf:
        # The Rundlauf takes one Paar in every suit (a Familie's K+O in a suit with a Familie).
        trump_paare -= 0 if trump_has_familie else 1
        paare -= plain_suits_without_familie
    binokel = min(configs[_SCHELLEN][_U], configs[_SCHIPPEN][_O])
    return MeldCounts(
        paare=paare,
        trump_paare=trump_paare,
        familien=familien,
        trump_familien=trump_familien,
        binokel=int(binokel == 1),
        doppelbinokel=int(binokel == COPIES),
        vier_unter=int(unter == 1),
        vier_ober=int(ober == 1 and not rundlauf),
        vier_koenige=int(koenige == 1 and not rundlauf),
        vier_asse=int(asse == 1),
        acht_gleiche=sum(m == COPIES for m in (asse, koenige, ober, unter)),
        rundlauf=int(rundlauf),
    )


def hand_melds(cards: Sequence[Card], trump: Suit, rules: RuleSet = EJL) -> MeldCounts:
    """The melds a hand shows with ``trump`` (every meld it holds, counted as described above)."""
    return _melds_of_configs(_configs(cards), SUITS.index(Suit(trump)), rules)


def hand_meld_total(cards: Sequence[Card], trump: Suit, rules: RuleSet = EJL) -> int:
    return meld_total(hand_melds(cards, trump, rules), rules)


def best_trump(cards: Sequence[Card], rules: RuleSet = EJL) -> tuple[Suit, int]:
    """The trump suit that gives the hand its highest meld (the first such suit on a tie)."""
    configs = _configs(cards)
    best: tuple[Suit, int] | None = None
    for index, suit in enumerate(SUITS):
        total = meld_total(_melds_of_configs(configs, index, rules), rules)
        if best is None or total > best[1]:
            best = (suit, total)
    assert best is not None
    return best


# --- the totals any hand can show: a DP over the four suits ------------------------------------
_ALL_CONFIGS: tuple[SuitConfig, ...] = tuple(
    sorted(
        ((a, t, k, o, u) for a, t, k, o, u in product(range(COPIES + 1), repeat=5)),
        key=lambda cfg: (sum(cfg), cfg),
    )
)
# Herz and Kreuz play no special part (Binokel is Schellen-U + Schippen-O), so a Kreuz trump
# shows the same totals as a Herz trump; Schellen and Schippen come last so that their Binokel
# counts enter the DP state as late as possible.
_TRUMPS_TO_TRY = (_HERZ, _SCHELLEN, _SCHIPPEN)
_DP_SUIT_ORDER = (_HERZ, _KREUZ, _SCHELLEN, _SCHIPPEN)
# (cards so far, least A/K/O/U count, Schellen-U count, Familie/Paar points, any Familie,
#  Paar points a Rundlauf would take)
_State = tuple[int, int, int, int, int, int, int, bool, int]


def _rank_value(least: int, four: int) -> int:
    if least == COPIES:
        return ACHT_GLEICHE
    return four if least == 1 else 0


@dataclass(frozen=True)
class Witness:
    """A hand that shows ``total`` when ``trump`` is trump."""

    total: int
    cards: tuple[Card, ...]
    trump: Suit
    melds: MeldCounts


@cache
def _witness_table(cards: int, meld_key: tuple[int, int, bool]) -> Mapping[int, Witness]:
    """For every total a ``cards``-card hand can show: one hand showing it.

    DP state after some suits: (cards so far, least A/K/O/U count over those suits, Schellen-U
    count, Familie/Paar points, any Familie, Paar points a Rundlauf would take). The last suit
    is not added to the state but evaluated straight into totals.
    """
    rundlauf_value, rundlauf_with_familie, double_twice = meld_key
    rules = RuleSet(
        rundlauf_value=rundlauf_value,
        rundlauf_with_familie_value=rundlauf_with_familie,
        double_familie_counts_twice=double_twice,
    )
    found: dict[int, tuple[tuple[SuitConfig, ...], int]] = {}
    for trump in _TRUMPS_TO_TRY:
        states: dict[_State, tuple[SuitConfig, ...]] = {(0, 2, 2, 2, 2, 0, 0, False, 0): ()}
        for layer, suit in enumerate(_DP_SUIT_ORDER):
            familie_value, paar_value = (
                (TRUMP_FAMILIE, TRUMP_PAAR) if suit == trump else (FAMILIE, PAAR)
            )
            items = []
            for cfg in _ALL_CONFIGS:
                fam, paar = _suit_familien_paare(cfg, double_twice)
                items.append(
                    (
                        sum(cfg),
                        cfg,
                        fam * familie_value + paar * paar_value,
                        fam > 0,
                        0 if fam else paar_value,  # the Paar a Rundlauf would take
                    )
                )
            last = layer == len(_DP_SUIT_ORDER) - 1
            new: dict[_State, tuple[SuitConfig, ...]] = {}
            for state, partial in states.items():
                n, asse, koenige, ober, unter, schellen_u, local, any_fam, taken = state
                room = cards - n
                for size, cfg, value, has_fam, take in items:
                    if size > room:
                        break
                    a, _t, k, o, u = cfg
                    if not last:
                        key = (
                            n + size,
                            min(asse, a),
                            min(koenige, k),
                            min(ober, o),
                            min(unter, u),
                            u if suit == _SCHELLEN else schellen_u,
                            local + value,
                            any_fam or has_fam,
                            taken + take,
                        )
                        if key not in new:
                            new[key] = (*partial, cfg)
                        continue
                    if size != room:
                        continue
                    least_k, least_o = min(koenige, k), min(ober, o)
                    binokel = min(schellen_u, o)  # the last suit is Schippen
                    total = (
                        local
                        + value
                        + (DOPPELBINOKEL if binokel == COPIES else BINOKEL if binokel else 0)
                        + _rank_value(min(asse, a), VIER_ASSE)
                        + _rank_value(min(unter, u), VIER_UNTER)
                    )
                    if least_k == 1 and least_o == 1:
                        with_fam = any_fam or has_fam
                        total += (rundlauf_with_familie if with_fam else rundlauf_value) - (
                            taken + take
                        )
                    else:
                        total += _rank_value(least_k, VIER_KOENIGE) + _rank_value(
                            least_o, VIER_OBER
                        )
                    if total not in found:
                        found[total] = ((*partial, cfg), trump)
            states = new
    table: dict[int, Witness] = {}
    for total, (ordered, trump) in sorted(found.items()):
        configs = [ordered[_DP_SUIT_ORDER.index(suit)] for suit in range(len(SUITS))]
        hand = tuple(
            Card(SUITS[suit], RANKS[rank])
            for suit, cfg in enumerate(configs)
            for rank, count in enumerate(cfg)
            for _ in range(count)
        )
        melds = _melds_of_configs(configs, trump, rules)
        if meld_total(melds, rules) != total:  # the DP and the counter must agree: a bug
            raise AssertionError(f"meld DP and counter disagree on {total}: {melds}")
        table[total] = Witness(total, hand, SUITS[trump], melds)
    return MappingProxyType(table)


def _check_hand_size(cards: int) -> None:
    if not is_int(cards) or not 0 <= cards <= 40:
        raise ScoringError([FieldError.of("cards", M.HAND_SIZE, cards=cards)])


def achievable_totals(cards: int, rules: RuleSet = EJL) -> frozenset[int]:
    """Every meld total a hand of ``cards`` cards (12 or 9) can show, for some trump."""
    _check_hand_size(cards)
    return _achievable(cards, rules.meld_key)


@cache
def _achievable(cards: int, meld_key: tuple[int, int, bool]) -> frozenset[int]:
    return frozenset(_witness_table(cards, meld_key))


@cache
def _pair_totals(meld_key: tuple[int, int, bool]) -> frozenset[int]:
    nine = _achievable(9, meld_key)
    return frozenset(a + b for a in nine for b in nine)


def achievable_pair_totals(rules: RuleSet = EJL) -> frozenset[int]:
    """Every meld a pair can show together: the sums of two 9-card totals."""
    return _pair_totals(rules.meld_key)


@cache
def _sorted_totals(cards: int | None, meld_key: tuple[int, int, bool]) -> tuple[int, ...]:
    totals = _pair_totals(meld_key) if cards is None else _achievable(cards, meld_key)
    return tuple(sorted(totals))


def nearest_totals(
    total: int, cards: int | None, rules: RuleSet = EJL
) -> tuple[int | None, int | None]:
    """The achievable totals just below and just above ``total`` (``cards=None``: a pair)."""
    ordered = _sorted_totals(cards, rules.meld_key)
    i = bisect.bisect_left(ordered, total)
    below = ordered[i - 1] if i > 0 else None
    j = bisect.bisect_right(ordered, total)
    above = ordered[j] if j < len(ordered) else None
    return below, above


def find_witness(total: int, cards: int, rules: RuleSet = EJL) -> Witness | None:
    """A hand of exactly ``cards`` cards and a trump with which it shows ``total``, or None."""
    _check_hand_size(cards)
    return _witness_table(cards, rules.meld_key).get(total)


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
