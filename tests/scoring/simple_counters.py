"""Deliberately simple meld counters, written from the sources' tables and independent of the
engine's meld table machinery: the tests compare the engine's DP and counter with them."""

from __future__ import annotations

from collections import Counter

from scoring import EJL, Rank, Suit

SUITS = list(Suit)
MELD_RANKS = (Rank.UNTER, Rank.OBER, Rank.KOENIG, Rank.ASS)


def simple_meld_total(cards, trump, rules=EJL):
    """Count melds straight from the table of docs/rules.md "Melds", one meld kind after the other,
    with the values of the rule set (a classic table: Paar, Familie, double Familie, 4/8 of a rank,
    Binokel, Rundlauf).

    "How many times does the hand hold this meld?" is the number of copies of its scarcest
    card; a card may be used again by a meld of another kind.
    """
    have = Counter((card.suit, card.rank) for card in cards)
    value = {m.key: (m.plain, m.trump) for m in rules.suit_melds}
    four, eight = dict(rules.four_of_a_rank), dict(rules.eight_of_a_rank)

    def times(*needed):
        return min(have[card] for card in needed)

    def worth(key, suit):
        return value[key][1 if suit == trump else 0]

    total = 0
    familien = {}
    for suit in SUITS:
        familien[suit] = times(*[(suit, rank) for rank in Rank if rank is not Rank.SIEBEN])
        paare = times((suit, Rank.KOENIG), (suit, Rank.OBER)) - familien[suit]
        if familien[suit] == 2:
            total += worth("doppelfamilie", suit)
        else:
            total += familien[suit] * worth("familie", suit)
        total += paare * worth("paar", suit)

    binokel = times((Suit.SCHELLEN, Rank.UNTER), (Suit.SCHIPPEN, Rank.OBER))
    total += {0: 0, 1: rules.binokel_value, 2: rules.doppelbinokel_value}[binokel]

    sets = {rank: times(*[(suit, rank) for suit in SUITS]) for rank in MELD_RANKS}
    for rank in MELD_RANKS:
        total += {0: 0, 1: four[rank.value], 2: eight[rank.value]}[sets[rank]]

    # A Rundlauf is the 4 Könige + 4 Ober + a Paar in every suit, shown together: swap what it
    # is made of (a Familie's K+O stand for the Paar of their suit) for the Rundlauf's value.
    if rules.rundlauf_value and sets[Rank.KOENIG] == 1 and sets[Rank.OBER] == 1:
        made_of = four["K"] + four["O"]
        made_of += sum(worth("paar", suit) for suit in SUITS if familien[suit] == 0)
        total -= made_of
        with_familie = any(familien.values())
        total += rules.rundlauf_with_familie_value if with_familie else rules.rundlauf_value
    return total


def simple_luxus_total(cards, trump):
    """Luxusfamilie (docs/rules.md "luxusfamilie"), straight from its table of single and double
    values and its three combinations; a Familie is König, Dame (Ober), Bube (Unter)."""
    have = Counter((card.suit, card.rank) for card in cards)

    def times(*needed):
        return min(have[card] for card in needed)

    total = 0
    for suit in SUITS:
        t = suit == trump
        luxus = times(
            *[(suit, r) for r in (Rank.ASS, Rank.ZEHN, Rank.KOENIG, Rank.OBER, Rank.UNTER)]
        )
        familie = times((suit, Rank.KOENIG), (suit, Rank.OBER), (suit, Rank.UNTER))
        paar = times((suit, Rank.KOENIG), (suit, Rank.OBER))
        if luxus == 2:
            total += 1500 if t else 1000
        elif luxus == 1 and familie == 2:
            total += 450 if t else 300  # the second Familie fivefold: 100 + 5 x 40
        elif luxus == 1 and paar == 2:
            total += 300 if t else 200  # the second Paar fivefold: 100 + 5 x 20
        elif luxus == 1:
            total += 150 if t else 100
        elif familie == 2:
            total += 240 if t else 160
        elif familie == 1 and paar == 2:
            total += 150 if t else 100  # the second Paar threefold: 40 + 3 x 20
        elif familie == 1:
            total += 60 if t else 40
        elif paar == 2:
            total += 90 if t else 60
        elif paar == 1:
            total += 30 if t else 20
    total += {0: 0, 1: 10, 2: 20}[have[(trump, Rank.SIEBEN)]]
    for rank, (four, eight) in {
        Rank.KOENIG: (40, 240),
        Rank.OBER: (60, 360),
        Rank.UNTER: (80, 480),
    }.items():
        total += {0: 0, 1: four, 2: eight}[times(*[(suit, rank) for suit in SUITS])]
    return total
