"""Plausible results from really dealt hands, for the demo tournament and `manage.py simulate`.

Each game: shuffle the 40 cards, deal them as at the table (12 each and a Dapp of 4 at a 3-table
or for the three active players of a 4-table; 9 each and a Dapp of 4 at a pair table), compute
every hand's melds with the scoring engine, let the strongest hand declare with a bid it can
plausibly make, take the Dapp and press the four cheapest cards, then split the 250 eyes in
proportion to the hands' card strength with some luck. The sheet is then saved through the same
service the desk uses, so every simulated game is validated and scored by the engine."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from scoring import EYES, Card, RuleSet, Suit, best_trump, full_deck, hand_meld_total

from ..models import Table, TableKind
from .results import evaluate, load_table, save_sheet, sheet_layout


@dataclass(frozen=True)
class Hand:
    cards: tuple[Card, ...]

    @property
    def eyes(self) -> int:
        return sum(EYES[c.rank] for c in self.cards)


def _press(cards: Sequence[Card], trump: Suit, rules: RuleSet) -> tuple[list[Card], list[Card]]:
    """Choose the 4 cards to press from 16: those whose loss costs the least meld, preferring
    high eyes outside trump (pressed eyes count for the declarer anyway)."""

    def keep_value(i: int) -> tuple[int, bool, int]:
        rest = list(cards[:i]) + list(cards[i + 1 :])
        return (hand_meld_total(rest, trump, rules), cards[i].suit != trump, EYES[cards[i].rank])

    order = sorted(range(len(cards)), key=keep_value, reverse=True)
    pressed = set(order[:4])
    return [cards[i] for i in sorted(pressed)], [c for i, c in enumerate(cards) if i not in pressed]


def _power(cards: Sequence[Card], trump: Suit) -> float:
    """How many eyes a hand tends to take: its own eyes, and trumps to take the others'."""
    return sum(EYES[c.rank] + (7 if c.suit == trump else 0) for c in cards) ** 2


def _split_eyes(
    rng: random.Random, powers: Sequence[float], pressed: int, declarer: int
) -> list[int]:
    """Split 250 eyes: the declarer keeps the pressed cards, the rest goes by power and luck."""
    rest = 250 - pressed
    noisy = [max(1.0, w * rng.uniform(0.65, 1.35)) for w in powers]
    total = sum(noisy)
    shares = [int(rest * w / total) for w in noisy]
    shares[declarer] += rest - sum(shares)
    shares[declarer] += pressed
    # a party that took a trick has at least three (four) Unter (RULES.md): less goes to the
    # declarer
    least = 8 if len(shares) == 2 else 6
    for party, eyes in enumerate(shares):
        if party != declarer and 0 < eyes < least:
            shares[declarer] += eyes
            shares[party] = 0
    return shares


def simulate_game(
    rng: random.Random, players: int, table_kind: str, rules: RuleSet
) -> dict[str, object]:
    """One game among the active parties; returns engine-shaped data per party (column order)."""
    deck = list(full_deck())
    rng.shuffle(deck)
    per_hand = 9 if table_kind == TableKind.PAIRS else 12
    hands = [Hand(tuple(deck[i * per_hand : (i + 1) * per_hand])) for i in range(players)]
    dabb = deck[players * per_hand : players * per_hand + 4]
    strength = []
    for hand in hands:
        _trump, meld = best_trump(hand.cards, rules)
        strength.append(meld + hand.eyes)
    # parties: each player at a 3-table; the crosswise partners 0+2 and 1+3 at a pair table
    party_of = [0, 1, 0, 1] if table_kind == TableKind.PAIRS else list(range(players))
    parties = len(set(party_of))
    declarer_player = max(range(players), key=lambda i: (strength[i], -i))
    declarer = party_of[declarer_player]
    # the declarer takes the Dapp, names trump and presses four cards
    trump, _meld = best_trump(list(hands[declarer_player].cards) + dabb, rules)
    pressed_cards, kept = _press(list(hands[declarer_player].cards) + dabb, trump, rules)
    pressed = sum(EYES[c.rank] for c in pressed_cards)
    melds = [0] * parties
    powers = [0.0] * parties
    for i, hand in enumerate(hands):
        cards = kept if i == declarer_player else list(hand.cards)
        melds[party_of[i]] += hand_meld_total(cards, trump, rules)
        powers[party_of[i]] += _power(cards, trump)
    expected = pressed + (250 - pressed) * powers[declarer] / sum(powers)
    estimate = melds[declarer] + expected
    bid = max(
        rules.min_bid, int(estimate * rng.uniform(0.82, 1.06)) // rules.bid_step * rules.bid_step
    )
    roll = rng.random()
    if roll < 0.006:  # now and then a hand good enough for a Durch
        tricks = [0] * len(melds)
        tricks[declarer] = 250
        return {
            "kind": "durch",
            "declarer": declarer,
            "bid": bid,
            "meld": None,
            "tricks": tricks,
            "revoked": [],
        }
    tricks = _split_eyes(rng, powers, pressed, declarer)
    if melds[declarer] + tricks[declarer] < bid - 10 and rng.random() < 0.6:
        # a hopeless game after the Dapp: the declarer concedes rather than lose twice the bid
        return {
            "kind": "conceded",
            "declarer": declarer,
            "bid": bid,
            "meld": melds,
            "tricks": None,
            "revoked": [],
        }
    revoked = [rng.randrange(len(melds))] if rng.random() < 0.005 else []
    return {
        "kind": "played",
        "declarer": declarer,
        "bid": bid,
        "meld": melds,
        "tricks": tricks,
        "revoked": revoked,
    }


@cache
def dealt_games(
    table_kind: str, games: int, seed_key: str, rules: RuleSet
) -> tuple[dict[str, object], ...]:
    """The games of one sheet, dealt from a seed: a pure function of its arguments, so a demo
    built twice (tests, fixtures) deals every hand only once per process."""
    rng = random.Random(seed_key)
    players = 4 if table_kind == TableKind.PAIRS else 3
    return tuple(simulate_game(rng, players, table_kind, rules) for _ in range(games))


def simulated_entries(
    table: Table,
    rng: random.Random,
    rules: RuleSet,
    games: Sequence[dict[str, object]] | None = None,
) -> dict[str, str]:
    """A filled-in sheet as the desk posts it: the games (dealt from ``rng`` unless given),
    the actual dealers, and the scorer's hand-written totals with an occasional slip."""
    layout = sheet_layout(table, rules)
    if games is None:
        players = 4 if table.kind == TableKind.PAIRS else 3
        games = [simulate_game(rng, players, table.kind, rules) for _ in range(layout.games)]
    entries: dict[str, str] = {}
    columns = [c.number for c in layout.columns]
    dealer = 1
    for n, game in enumerate(games, start=1):
        active = (
            [c for c in columns if c != dealer] if table.kind == TableKind.FOUR_SITOUT else columns
        )
        p = f"g{n}-"
        entries[p + "dealer"] = str(dealer)
        entries[p + "kind"] = str(game["kind"])
        declarer_col = active[int(game["declarer"])]  # type: ignore[call-overload]
        entries[p + "declarer"] = str(declarer_col)
        entries[p + "bid"] = str(game["bid"])
        melds = game["meld"]
        tricks = game["tricks"]
        for i, col in enumerate(active):
            if melds is not None:
                entries[f"{p}c{col}-meld"] = str(melds[i])  # type: ignore[index]
            if tricks is not None:
                entries[f"{p}c{col}-tricks"] = str(tricks[i])  # type: ignore[index]
            if i in game["revoked"]:  # type: ignore[operator]
                entries[f"{p}c{col}-revoked"] = "on"
        players = len(layout.players)
        if game["kind"] == "durch" and table.kind != TableKind.PAIRS:
            dealer = declarer_col
        else:
            dealer = dealer % players + 1
    # the scorer adds up the sheet by hand; now and then a sum is off by a few points
    evaluation = evaluate(layout, entries, rules)
    for column, total in evaluation.totals.items():
        slip = rng.choice((-10, 10)) if rng.random() < 0.03 else 0
        entries[f"written-total-c{column}"] = str(total + slip)
    return entries


def simulate_round(
    tournament_round: object, user: object, seed: int = 0, confirm: bool = True
) -> int:
    """Fill every table of a round that has no confirmed sheet; returns the number of sheets."""
    from ..models import Round, SheetStatus

    assert isinstance(tournament_round, Round)
    rules = tournament_round.tournament.rules()
    count = 0
    for table_id in tournament_round.tables.order_by("number").values_list("pk", flat=True):
        table = load_table(table_id)
        sheet = getattr(table, "sheet", None)
        if sheet is not None and sheet.status == SheetStatus.CONFIRMED:
            continue
        key = f"{seed}-{tournament_round.number}-{table.number}"
        games = dealt_games(table.kind, rules.games_for(table.kind), key, rules)
        entries = simulated_entries(table, random.Random(f"{key}-scorer"), rules, games)
        save_sheet(table, entries, user, sheet.version if sheet else 0, confirm=confirm)
        count += 1
    return count
