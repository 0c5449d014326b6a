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

from scoring import EYES, Card, RuleSet, best_trump, full_deck, hand_meld_total

from ..models import Table, TableKind
from .results import load_table, save_sheet, sheet_layout


@dataclass(frozen=True)
class Hand:
    cards: tuple[Card, ...]

    @property
    def eyes(self) -> int:
        return sum(EYES[c.rank] for c in self.cards)


def _split_eyes(
    rng: random.Random, weights: Sequence[float], pressed: int, declarer: int
) -> list[int]:
    """Split 250 eyes: the declarer keeps the pressed cards, the rest goes by weight and luck."""
    rest = 250 - pressed
    noisy = [max(0.05, w * rng.uniform(0.6, 1.4)) for w in weights]
    total = sum(noisy)
    shares = [int(rest * w / total) for w in noisy]
    shares[declarer] += rest - sum(shares)
    shares[declarer] += pressed
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
    if table_kind == TableKind.PAIRS:  # parties are pairs of crosswise partners: players 0+2, 1+3
        party_of = [0, 1, 0, 1]
        party_strength = [strength[0] + strength[2], strength[1] + strength[3]]
    else:
        party_of = list(range(players))
        party_strength = strength
    declarer_player = max(range(players), key=lambda i: (strength[i], -i))
    declarer = party_of[declarer_player]
    # take the Dapp, press the four cheapest cards that are not needed for the best meld
    cards16 = list(hands[declarer_player].cards) + dabb
    cards16.sort(key=lambda c: (EYES[c.rank], c.suit))
    pressed_cards, kept = cards16[:4], cards16[4:]
    trump, declarer_meld = best_trump(kept, rules)
    pressed = sum(EYES[c.rank] for c in pressed_cards)
    melds = [0] * len(set(party_of))
    for i, hand in enumerate(hands):
        cards = kept if i == declarer_player else hand.cards
        melds[party_of[i]] += hand_meld_total(cards, trump, rules)
    expected_tricks = 250 * party_strength[declarer] / sum(party_strength)
    estimate = melds[declarer] + expected_tricks
    bid = max(
        rules.min_bid, int(estimate * rng.uniform(0.8, 1.05)) // rules.bid_step * rules.bid_step
    )
    roll = rng.random()
    if roll < 0.004 and declarer_meld >= 300:
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
    if estimate < bid - 30 and roll < 0.5:
        return {
            "kind": "conceded",
            "declarer": declarer,
            "bid": bid,
            "meld": melds,
            "tricks": None,
            "revoked": [],
        }
    weights = [max(1.0, s - m) for s, m in zip(party_strength, melds, strict=True)]
    tricks = _split_eyes(rng, weights, pressed, declarer)
    revoked = [rng.randrange(len(melds))] if rng.random() < 0.005 else []
    return {
        "kind": "played",
        "declarer": declarer,
        "bid": bid,
        "meld": melds,
        "tricks": tricks,
        "revoked": revoked,
    }


def simulated_entries(table: Table, rng: random.Random, rules: RuleSet) -> dict[str, str]:
    layout = sheet_layout(table, rules)
    entries: dict[str, str] = {}
    columns = [c.number for c in layout.columns]
    dealer = 1
    for n in range(1, layout.games + 1):
        if table.kind == TableKind.FOUR_SITOUT:
            active = [c for c in columns if c != dealer]
            game = simulate_game(rng, 3, table.kind, rules)
        elif table.kind == TableKind.PAIRS:
            active = columns
            game = simulate_game(rng, 4, table.kind, rules)
        else:
            active = columns
            game = simulate_game(rng, 3, table.kind, rules)
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
        rng = random.Random(f"{seed}-{tournament_round.number}-{table.number}")
        entries = simulated_entries(table, rng, rules)
        save_sheet(table, entries, user, sheet.version if sheet else 0, confirm=confirm)
        count += 1
    return count
