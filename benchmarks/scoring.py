"""How long validating and scoring a whole large tournament takes.

300 entrants (Einzel) in 3 rounds sit at 100 three-tables of 12 games each: 3,600 games. The
games are generated deterministically from real deals (melds counted by the engine, a declarer
who takes the Dapp and presses 4 cards, bids around what the hand promises, some conceded games,
Durch and revokes); then every game is validated and scored, best of several runs.

    python benchmarks/scoring.py            (or: python -m benchmarks.scoring)

Target: under 100 ms for the 3,600 games.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the repo's `scoring` package importable
    _here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _here]
    sys.path.insert(0, str(_here.parent))

from scoring import (  # noqa: E402
    EJL,
    EYES,
    Card,
    GameInput,
    GameKind,
    PartyInput,
    achievable_pair_totals,
    achievable_totals,
    best_trump,
    full_deck,
    hand_meld_total,
    score_game,
    validate_game,
)

ENTRANTS = 300
ROUNDS = 3
PLAYERS_PER_TABLE = 3
SEED = 20240601
RUNS = 7


def _eyes(cards: list[Card]) -> int:
    return sum(EYES[card.rank] for card in cards)


def _split_tricks(rng: random.Random, declarer: int, share: float, pressed: int) -> list[int]:
    """250 eyes over 3 parties; the declarer's part includes the pressed cards."""
    declarer_eyes = min(250, max(pressed, round(pressed + (250 - pressed) * share)))
    rest = 250 - declarer_eyes
    first = rng.randint(0, rest)
    others = [first, rest - first]
    tricks = []
    for party in range(PLAYERS_PER_TABLE):
        tricks.append(declarer_eyes if party == declarer else others.pop())
    # a party that took a trick has at least the cheapest trick (docs/rules.md "Plausibility"): less
    # goes to the declarer
    least = EJL.trick_min_eyes(PLAYERS_PER_TABLE)
    for party, eyes in enumerate(tricks):
        if party != declarer and 0 < eyes < least:
            tricks[declarer] += eyes
            tricks[party] = 0
    return tricks


def make_game(rng: random.Random) -> GameInput:
    deck = list(full_deck())
    rng.shuffle(deck)
    hands = [deck[i * 12 : (i + 1) * 12] for i in range(PLAYERS_PER_TABLE)]
    dabb = deck[36:]
    strength = [best_trump(hand)[1] + _eyes(hand) for hand in hands]
    declarer = max(range(PLAYERS_PER_TABLE), key=lambda i: (strength[i], -i))

    sixteen = sorted(hands[declarer] + dabb, key=lambda card: (EYES[card.rank], card.sort_key))
    pressed, kept = sixteen[:4], sixteen[4:]
    trump, declarer_meld = best_trump(kept)
    melds = [
        declarer_meld if i == declarer else hand_meld_total(hand, trump)
        for i, hand in enumerate(hands)
    ]
    share = strength[declarer] / sum(strength)
    promise = declarer_meld + 250 * share
    bid = max(EJL.min_bid, int(promise * rng.uniform(0.75, 1.1)) // 10 * 10)

    roll = rng.random()
    if roll < 0.003:
        tricks = [250 if i == declarer else 0 for i in range(PLAYERS_PER_TABLE)]
        parties = tuple(PartyInput(tricks=t) for t in tricks)
        return GameInput(GameKind.DURCH, declarer, None, parties)
    if roll < 0.05:
        parties = tuple(PartyInput(meld=None if i == declarer else m) for i, m in enumerate(melds))
        return GameInput(GameKind.CONCEDED, declarer, bid, parties)
    tricks = _split_tricks(rng, declarer, min(0.95, share * rng.uniform(1.0, 1.6)), _eyes(pressed))
    parties = tuple(PartyInput(meld=m, tricks=t) for m, t in zip(melds, tricks, strict=True))
    revoked = (rng.randrange(PLAYERS_PER_TABLE),) if rng.random() < 0.005 else ()
    return GameInput(GameKind.PLAYED, declarer, bid, parties, revoked)


def make_tournament(seed: int = SEED) -> list[GameInput]:
    rng = random.Random(seed)
    tables = ENTRANTS // PLAYERS_PER_TABLE
    games = EJL.games_for("three")
    return [make_game(rng) for _ in range(ROUNDS * tables * games)]


def _best_of(runs: int, work: list[GameInput], fn: object) -> float:
    assert callable(fn)
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        for game in work:
            fn(game)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    start = time.perf_counter()
    achievable_totals(12)
    achievable_totals(9)
    achievable_pair_totals()
    meld_sets = time.perf_counter() - start

    start = time.perf_counter()
    games = make_tournament()
    generated = time.perf_counter() - start
    invalid = [g for g in games if validate_game(g)]
    if invalid:
        print(f"generator bug: {len(invalid)} invalid games, e.g. {invalid[0]}", file=sys.stderr)
        return 1
    results = [score_game(g) for g in games]
    kinds = {kind: sum(g.kind is kind for g in games) for kind in GameKind}
    won = sum(r.won for r in results)

    validate_only = _best_of(RUNS, games, validate_game)
    validate_and_score = _best_of(RUNS, games, score_game)

    n = len(games)
    print(f"games: {n} ({ENTRANTS} entrants, {ROUNDS} rounds, 3-tables of 12 games)")
    print("  " + ", ".join(f"{kind.value} {count}" for kind, count in kinds.items()))
    print(f"  declarer won {won} ({won / n:.0%})")
    print(f"meld sets computed once per process: {meld_sets * 1000:.0f} ms")
    print(f"games generated in {generated:.2f} s (not timed below)")
    per_game = validate_only / n * 1e6
    print(f"validate only:      {validate_only * 1000:6.1f} ms  ({per_game:.1f} µs/game)")
    print(
        f"validate + score:   {validate_and_score * 1000:6.1f} ms  "
        f"({validate_and_score / n * 1e6:.1f} µs/game), best of {RUNS}"
    )
    target = 0.100
    verdict = "OK" if validate_and_score < target else "TOO SLOW"
    print(f"target < {target * 1000:.0f} ms: {verdict}")
    return 0 if validate_and_score < target else 1


if __name__ == "__main__":
    sys.exit(main())
