"""The meld totals hands can show: a DP over the cells of the deck, suit by suit, rank by rank.

A *cell* is one card of the deck (a suit and a rank); a hand holds 0, 1 or 2 of it. The DP walks
the cells of one suit after another and keeps, per hand:

* the cards so far (a hand has exactly ``hand`` cards at the end);
* for every rank that has a rank meld (and K and O where a Rundlauf exists) the least count over
  the suits so far, lowered at once to what the cards still to come can keep up;
* the suit so far as a class of a minimal automaton: two partial suits are one class when every
  way to complete them shows the same suit melds (so a suit needs no more state than its melds);
* for the Rundlauf, whether a Familie was shown and the Paare a Rundlauf would take;
* the Schellen-U count until the Schippen-O decides the Binokel.

The points found so far are not part of the state: every state keeps the set of its possible sums
as the bits of one integer (bit i: i × 10 points), so states with different sums merge.

For a **pair** (two hands dealt from the *same* deck, melding with the same trump, docs/rules.md
"Impossible meld totals") both hands walk the cells together and take at most the two copies of each
card between them; the two hands' states form one state (sorted: the partners are interchangeable).
The result is exact: a total is in the set if and only if some deal shows it.

Trumps: suits that play the same part show the same totals, so only one trump per part is tried
(Herz for all plain suits; Schellen and Schippen apart when the Binokel counts).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product
from types import MappingProxyType

from scoring.cards import COPIES, SUITS, Card, Rank, Suit
from scoring.meld_table import MeldTable

UNIT = 10  # every meld value is a multiple of 10

# Cells of a suit are walked in this rank order (ranks missing from the deck are skipped).
_CELL_ORDER = (Rank.SIEBEN, Rank.KOENIG, Rank.OBER, Rank.ASS, Rank.ZEHN, Rank.UNTER)

# A hand's state: (cards, least counts of the tracked ranks, suit class, Familie shown,
# Paare a Rundlauf takes, Schellen-U count)
_Hand = tuple[int, tuple[int, ...], int, bool, int, int]
_START: _Hand = (0, (), 0, False, 0, 0)


@dataclass(frozen=True)
class _Automaton:
    """The suit melds of one suit as a minimal automaton over its cells (in ``ranks`` order).

    ``step[d][(cls, x)]`` is the class after holding ``x`` cards of the d-th rank; ``outcome``
    maps a complete suit's class to (points, Familie shown, Paar a Rundlauf takes)."""

    step: tuple[Mapping[tuple[int, int], int], ...]
    outcome: Mapping[int, tuple[int, bool, int]]


@cache
def _automaton(table: MeldTable, ranks: tuple[Rank, ...], trump: bool) -> _Automaton:
    rundlauf = table.has_rundlauf
    outcomes: dict[tuple[int, ...], tuple[int, bool, int]] = {}
    for counts in product(range(COPIES + 1), repeat=len(ranks)):
        found = table.suit_outcome(dict(zip(ranks, counts, strict=True)), trump)
        outcomes[counts] = (
            found.value,
            found.familie and rundlauf,
            found.paar_taken if rundlauf else 0,
        )
    depth_classes: list[dict[tuple[int, ...], int]] = []
    for depth in range(len(ranks) + 1):
        signatures: dict[tuple[tuple[int, bool, int], ...], int] = {}
        classes: dict[tuple[int, ...], int] = {}
        rests = list(product(range(COPIES + 1), repeat=len(ranks) - depth))
        for prefix in product(range(COPIES + 1), repeat=depth):
            signature = tuple(outcomes[prefix + rest] for rest in rests)
            classes[prefix] = signatures.setdefault(signature, len(signatures))
        depth_classes.append(classes)
    steps = []
    for depth in range(len(ranks)):
        step: dict[tuple[int, int], int] = {}
        for prefix, cls in depth_classes[depth].items():
            for x in range(COPIES + 1):
                step[(cls, x)] = depth_classes[depth + 1][prefix + (x,)]
        steps.append(MappingProxyType(step))
    outcome = {cls: outcomes[prefix] for prefix, cls in depth_classes[-1].items()}
    return _Automaton(tuple(steps), MappingProxyType(outcome))


@dataclass(frozen=True)
class _Cell:
    suit: Suit
    rank: Rank
    depth: int  # position of the rank in its suit
    automaton: _Automaton
    last_of_suit: bool
    tracked: int | None  # index of the rank among the tracked ranks
    # per tracked rank: how many cells of that rank are still to come after this one
    cells_after: tuple[int, ...]
    schellen_u: bool
    schippen_o: bool


class _Deal:
    """The cells of one deal (deck, trump) and how one hand's state moves through them."""

    def __init__(self, table: MeldTable, ranks: tuple[Rank, ...], hand: int, trump: Suit) -> None:
        self.table = table
        self.hand = hand
        self.trump = trump
        self.ranks = tuple(rank for rank in _CELL_ORDER if rank in ranks)
        self.tracked = tuple(rank for rank in table.rank_melds() if rank in self.ranks)
        binokel = table.has_binokel and Rank.UNTER in self.ranks and Rank.OBER in self.ranks
        self.binokel = binokel
        # the Binokel's Schellen-U comes before its Schippen-O
        suits: list[Suit] = [s for s in SUITS if s not in (Suit.SCHELLEN, Suit.SCHIPPEN)]
        suits += [Suit.SCHELLEN, Suit.SCHIPPEN]
        self.cells: list[_Cell] = []
        for j, suit in enumerate(suits):
            automaton = _automaton(table, self.ranks, suit == trump)
            for d, rank in enumerate(self.ranks):
                after = []
                for q in self.tracked:
                    here = 1 if self.ranks.index(q) > d else 0
                    after.append(len(suits) - j - 1 + here)
                self.cells.append(
                    _Cell(
                        suit=suit,
                        rank=rank,
                        depth=d,
                        automaton=automaton,
                        last_of_suit=d == len(self.ranks) - 1,
                        tracked=self.tracked.index(rank) if rank in self.tracked else None,
                        cells_after=tuple(after),
                        schellen_u=binokel and suit is Suit.SCHELLEN and rank is Rank.UNTER,
                        schippen_o=binokel and suit is Suit.SCHIPPEN and rank is Rank.OBER,
                    )
                )
        self.rundlauf = table.has_rundlauf and {Rank.KOENIG, Rank.OBER} <= set(self.tracked)
        self._k = self.tracked.index(Rank.KOENIG) if self.rundlauf else -1
        self._o = self.tracked.index(Rank.OBER) if self.rundlauf else -1

    def start(self) -> _Hand:
        return (0, (COPIES,) * len(self.tracked), 0, False, 0, 0)

    def step(self, index: int, hand: _Hand, x: int) -> tuple[_Hand, int] | None:
        """The state after holding ``x`` of cell ``index`` and the points it adds (None: the
        hand would get too many cards, or too few at the end)."""
        cell = self.cells[index]
        cards, least, cls, familie, taken, schellen_u = hand
        cards += x
        if cards > self.hand:
            return None
        mins = list(least)
        if cell.tracked is not None and x < mins[cell.tracked]:
            mins[cell.tracked] = x
        cls = cell.automaton.step[cell.depth][(cls, x)]
        points = 0
        if cell.schellen_u:
            schellen_u = x
        if cell.schippen_o:
            points += self.table.binokel_value(min(schellen_u, x))
            schellen_u = 0
        if cell.last_of_suit:
            value, has_familie, take = cell.automaton.outcome[cls]
            points += value
            cls = 0
            familie = familie or has_familie
            taken += take
        room = self.hand - cards
        for i, after in enumerate(cell.cells_after):
            # keep no more than the cards still to come can hold in every remaining cell
            while mins[i] and mins[i] * after > room:
                mins[i] -= 1
        if self.rundlauf and not (mins[self._k] >= 1 and mins[self._o] >= 1):
            familie, taken = False, 0
        if index == len(self.cells) - 1 and cards != self.hand:
            return None
        return (cards, tuple(mins), cls, familie, taken, schellen_u), points

    def final_points(self, hand: _Hand) -> int:
        """The rank melds and the Rundlauf of a complete hand (minus the Paare it takes)."""
        _cards, least, _cls, familie, taken, _u = hand
        rundlauf = self.rundlauf and least[self._k] == 1 and least[self._o] == 1
        points = 0
        for i, rank in enumerate(self.tracked):
            if rundlauf and i in (self._k, self._o):
                continue
            points += self.table.rank_value(rank, least[i])
        if rundlauf:
            rundlauf_value = self.table.rundlauf_with_familie if familie else self.table.rundlauf
            points += rundlauf_value - taken
        return points


def _shift(bits: int, points: int) -> int:
    steps = points // UNIT
    return bits << steps if steps >= 0 else bits >> -steps


def _bits_to_totals(bits: int) -> list[int]:
    return [i * UNIT for i in range(bits.bit_length()) if bits >> i & 1]


def trumps_to_try(table: MeldTable) -> tuple[Suit, ...]:
    if table.has_binokel:
        return (Suit.HERZ, Suit.SCHELLEN, Suit.SCHIPPEN)
    return (Suit.HERZ,)


# --- one hand: totals and a witness hand for each ----------------------------------------------
@cache
def single_hands(
    table: MeldTable, ranks: tuple[Rank, ...], hand: int
) -> Mapping[int, tuple[Suit, tuple[Card, ...]]]:
    """For every total a hand of ``hand`` cards can show: a trump and a hand showing it."""
    found: dict[int, tuple[Suit, tuple[Card, ...]]] = {}
    for trump in trumps_to_try(table):
        deal = _Deal(table, ranks, hand, trump)
        layers: list[dict[_Hand, int]] = [{deal.start(): 1}]
        # per cell: new state -> [(previous state, cards held, points added)]
        links: list[dict[_Hand, list[tuple[_Hand, int, int]]]] = []
        for index in range(len(deal.cells)):
            new: dict[_Hand, int] = defaultdict(int)
            back: dict[_Hand, list[tuple[_Hand, int, int]]] = defaultdict(list)
            for state, bits in layers[-1].items():
                for x in range(COPIES + 1):
                    moved = deal.step(index, state, x)
                    if moved is None:
                        continue
                    after, points = moved
                    new[after] |= _shift(bits, points)
                    back[after].append((state, x, points))
            layers.append(dict(new))
            links.append(dict(back))
        for state, bits in layers[-1].items():
            extra = deal.final_points(state)
            for partial in _bits_to_totals(bits):
                total = partial + extra
                if total not in found:
                    found[total] = (trump, _rebuild(deal, layers, links, state, partial))
    return MappingProxyType(dict(sorted(found.items())))


def _rebuild(
    deal: _Deal,
    layers: Sequence[Mapping[_Hand, int]],
    links: Sequence[Mapping[_Hand, Sequence[tuple[_Hand, int, int]]]],
    state: _Hand,
    partial: int,
) -> tuple[Card, ...]:
    """Walk back from a final state holding ``partial`` points to the start: a witness hand."""
    held: list[int] = []
    for index in range(len(deal.cells) - 1, -1, -1):
        for before, x, points in links[index][state]:
            rest = partial - points
            if rest >= 0 and layers[index][before] >> (rest // UNIT) & 1:
                held.append(x)
                state, partial = before, rest
                break
        else:  # the bits say a way back exists: not finding it is a bug
            raise AssertionError(f"no way back at cell {index} for {state}")
    held.reverse()
    return tuple(
        Card(cell.suit, cell.rank)
        for cell, x in zip(deal.cells, held, strict=True)
        for _ in range(x)
    )


# --- two hands from one deck --------------------------------------------------------------------
@cache
def pair_totals(table: MeldTable, ranks: tuple[Rank, ...], hand: int) -> frozenset[int]:
    """Every total two hands of ``hand`` cards each, dealt from one deck and melding with the
    same trump, can show together."""
    totals: set[int] = set()
    for trump in trumps_to_try(table):
        deal = _Deal(table, ranks, hand, trump)
        # Hand states are numbered per layer; a joint state is first * width + second with
        # first <= second (the partners are interchangeable).
        hands: list[_Hand] = [deal.start()]
        states: dict[int, int] = {0: 1}
        for index in range(len(deal.cells)):
            numbers: dict[_Hand, int] = {}
            # per hand state of this layer: its moves, by the cards it holds of this cell
            moves: list[list[list[tuple[int, int]]]] = []
            for state in hands:
                by_x: list[list[tuple[int, int]]] = []
                for x in range(COPIES + 1):
                    moved = deal.step(index, state, x)
                    if moved is None:
                        by_x.append([])
                        continue
                    after, points = moved
                    number = numbers.setdefault(after, len(numbers))
                    by_x.append([(number, points // UNIT)])
                moves.append(by_x)
            width = len(numbers)
            old_width = len(hands)
            new: dict[int, int] = defaultdict(int)
            for key, bits in states.items():
                first, second = divmod(key, old_width)
                one, two = moves[first], moves[second]
                for x in range(COPIES + 1):
                    for a, pa in one[x]:
                        for y in range(COPIES + 1 - x):
                            for b, pb in two[y]:
                                joint = a * width + b if a <= b else b * width + a
                                new[joint] |= bits << (pa + pb)
            states = new
            hands = list(numbers)
        for key, bits in states.items():
            first, second = divmod(key, len(hands))
            extra = deal.final_points(hands[first]) + deal.final_points(hands[second])
            totals.update(_bits_to_totals(_shift(bits, extra)))
    return frozenset(totals)
