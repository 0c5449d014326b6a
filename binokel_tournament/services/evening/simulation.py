"""Plausible results from really dealt hands, for the demo tournament and `manage.py simulate`.

Each game: shuffle the 40 cards, deal them as at the table (12 each and a Dapp of 4 at a 3-table
or for the three active players of a 4-table; 9 each and a Dapp of 4 at a pair table), compute
every hand's melds with the scoring engine, let the strongest hand declare with a bid it can
plausibly make, take the Dapp and press the four cheapest cards, then split the game's eyes (250
with ejl) in proportion to the hands' card strength with some luck. The sheet is then saved
through the sheet's one writer, so every simulated game is validated and scored by the engine.

Dealing costs a few milliseconds per game: a round of more than ``FRESH_DEAL_TABLES`` tables
draws each sheet's games from a pool of ``GAME_POOL`` games dealt once per table size instead
of dealing every sheet afresh, so a field of a thousand entrants is ready in seconds."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from django.db.models import Prefetch

from scoring import EYES, Card, GameKind, RuleSet, Suit, best_trump, full_deck, hand_meld_total
from scoring.sheet import SheetGame, deals_next, next_dealer
from scoring.tables import FIRST_DEALER

from ...models import Round, Seat, SheetDraft, Table, TableKind
from ..access import Actor
from ..server import public_cache
from ..sheets import operations as O
from ..sheets import sheet_fields as F
from ..sheets.results import evaluate, sheet_layout
from ..sheets.writer import write

# a round with more tables draws each sheet's games from a pool of dealt games
FRESH_DEAL_TABLES = 100
GAME_POOL = 144


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
    rng: random.Random, powers: Sequence[float], pressed: int, declarer: int, eyes: int
) -> list[int]:
    """Split a game's ``eyes`` (250 with ejl, 240 without a last-trick bonus): the declarer keeps
    the pressed cards, the rest goes by power and luck."""
    rest = eyes - pressed
    noisy = [max(1.0, w * rng.uniform(0.65, 1.35)) for w in powers]
    total = sum(noisy)
    shares = [int(rest * w / total) for w in noisy]
    shares[declarer] += rest - sum(shares)
    shares[declarer] += pressed
    # a party that took a trick has at least three (four) Unter (docs/rules.md "Plausibility"): less
    # goes to the declarer
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
    expected = pressed + (rules.total_eyes - pressed) * powers[declarer] / sum(powers)
    estimate = melds[declarer] + expected
    bid = max(
        rules.min_bid, int(estimate * rng.uniform(0.82, 1.06)) // rules.bid_step * rules.bid_step
    )
    roll = rng.random()
    if roll < 0.006 and GameKind.DURCH in rules.game_kinds:  # now and then a Durch
        tricks = [0] * len(melds)
        tricks[declarer] = rules.total_eyes
        return {
            "kind": "durch",
            "declarer": declarer,
            "declarer_seat": declarer_player,  # the Durch player deals the next game
            "bid": bid,
            "meld": None,
            "tricks": tricks,
            "revoked": [],
        }
    tricks = _split_eyes(rng, powers, pressed, declarer, rules.total_eyes)
    concede = GameKind.CONCEDED in rules.game_kinds
    if concede and melds[declarer] + tricks[declarer] < bid - 10 and rng.random() < 0.6:
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
    the actual dealers (the sheet engine's sequence; at a pair table the partner who played a
    Durch deals next), and the scorer's hand-written totals with an occasional slip."""
    layout = sheet_layout(table, rules)
    shape = layout.shape
    if games is None:
        players = 4 if table.kind == TableKind.PAIRS else 3
        games = [simulate_game(rng, players, table.kind, rules) for _ in range(layout.games)]
    entries: dict[str, str] = {}
    dealer = FIRST_DEALER
    for n, game in enumerate(games, start=1):
        playing = shape.playing_columns(dealer)
        entries[F.game_field(n, "dealer")] = str(dealer + 1)
        entries[F.game_field(n, "kind")] = str(game["kind"])
        declarer = playing[int(game["declarer"])]  # type: ignore[call-overload]
        entries[F.game_field(n, "declarer")] = str(declarer + 1)
        entries[F.game_field(n, "bid")] = str(game["bid"])
        melds = game["meld"]
        tricks = game["tricks"]
        for i, column in enumerate(playing):
            if melds is not None:
                entries[F.column_field(n, column + 1, "meld")] = str(melds[i])  # type: ignore[index]
            if tricks is not None:
                entries[F.column_field(n, column + 1, "tricks")] = str(tricks[i])  # type: ignore[index]
            if i in game["revoked"]:  # type: ignore[operator]
                entries[F.column_field(n, column + 1, "revoked")] = "on"
        entered = SheetGame(kind=GameKind(str(game["kind"])), declarer=declarer)
        following = next_dealer(shape, rules, dealer, entered, shape.sitting_out(dealer))
        if shape.partners and deals_next(entered.kind, rules):
            following = int(game["declarer_seat"])  # type: ignore[call-overload]
        dealer = following
    # the scorer adds up the sheet by hand; now and then a sum is off by a few points
    evaluation = evaluate(layout, entries, rules)
    for column, total in evaluation.totals.items():
        slip = rng.choice((-10, 10)) if rng.random() < 0.03 else 0
        entries[F.total_field(column)] = str(total + slip)
    return entries


def round_tables(tournament_round: Round) -> list[Table]:
    """The round's tables with what a sheet save needs (seats, entrants, competition, sheet),
    in a fixed number of queries; every table shares the one ``Round`` object, so the save
    that locks the round is seen by the next."""
    tables = list(
        tournament_round.tables.select_related("competition", "sheet")
        .prefetch_related(Prefetch("seats", Seat.objects.select_related("entrant")))
        .order_by("number")
    )
    for table in tables:
        table.round = tournament_round
    return tables


def sheet_games(
    table: Table, seed: int, rules: RuleSet, pool: bool = False
) -> Sequence[dict[str, object]]:
    """The games of one sheet: dealt for this very sheet, or (``pool``) drawn from
    ``GAME_POOL`` games dealt once per table size — each one a really dealt hand, validated
    and scored by the engine when the sheet is saved."""
    games = rules.games_for(table.kind)
    key = f"{seed}-{table.round.number}-{table.number}"
    if not pool:
        return dealt_games(table.kind, games, key, rules)
    # a 4-table's active players hold 12 cards each, as at a 3-table: the same games fit
    size = TableKind.PAIRS if table.kind == TableKind.PAIRS else TableKind.THREE
    dealt = dealt_games(size, GAME_POOL, f"{seed}-pool", rules)
    return random.Random(f"{key}-draw").sample(dealt, games)


def simulate_round(
    tournament_round: Round, user: Actor, seed: int = 0, confirm: bool = True
) -> int:
    """Fill every table of a round whose sheet holds no game yet and that nobody is typing
    (no working draft): what people typed is never replaced. Written through the sheet's one
    writer and audited as the simulation, not as ``user``. Returns the number of sheets.

    A round of up to ``FRESH_DEAL_TABLES`` tables gets hands dealt for each sheet; a bigger
    one draws each sheet's games from a pool of ``GAME_POOL`` dealt games, so a field of a
    thousand entrants is ready in seconds."""
    assert isinstance(tournament_round, Round)
    rules = tournament_round.tournament.rules()
    tables = round_tables(tournament_round)
    pool = len(tables) > FRESH_DEAL_TABLES
    typing = set(
        SheetDraft.objects.filter(table__round=tournament_round).values_list("table_id", flat=True)
    )
    count = 0
    with public_cache.batched():  # the pages are made anew once, when the round is filled
        for table in tables:
            sheet = getattr(table, "sheet", None)
            if table.pk in typing or (sheet is not None and F.game_stamps(sheet.entries)):
                continue
            games = sheet_games(table, seed, rules, pool)
            scorer = random.Random(f"{seed}-{tournament_round.number}-{table.number}-scorer")
            entries = simulated_entries(table, scorer, rules, games)
            ops: list[O.Operation] = [
                O.SetGame(part, fields, base="") for part, fields in F.parts(entries).items()
            ]
            if confirm:
                ops.append(O.ConfirmAtDesk(F.part_stamps(entries)))
            try:
                write(table, ops, user=user, source=O.SOURCE_SIMULATION)
            except O.SheetConflict:
                continue  # somebody entered a game a moment ago: theirs stays
            count += 1
    return count
