"""Checks that what is stored still adds up: every stored game re-scored by the engine from its
stored inputs gives the stored points. Used after a restore, by the crash test and by the load
benchmark — a sheet saved half, or points that drifted from their games, show up here."""

from __future__ import annotations

from collections import defaultdict

import scoring
from scoring import GameInput, GameKind, PartyInput

from ...models import Game, PartyResult, Seat, Tournament


def rescore_mismatches(tournament: Tournament, limit: int = 20) -> list[str]:
    """Up to ``limit`` descriptions of stored games whose points (or outcome) differ from the
    engine's score of their stored meld, tricks, bid, declarer and revokes; [] when all agree."""
    rules = tournament.rules()
    games = list(
        Game.objects.filter(sheet__table__round__tournament=tournament)
        .select_related("sheet__table__round")
        .order_by("sheet_id", "number")
    )
    positions: dict[tuple[int, int], int] = {
        (table_id, entrant_id): position
        for table_id, entrant_id, position in Seat.objects.filter(
            table__round__tournament=tournament
        ).values_list("table_id", "entrant_id", "position")
    }
    seat_count: dict[int, int] = defaultdict(int)
    for table_id, _entrant_id in positions:
        seat_count[table_id] += 1
    parties_of: dict[int, list[PartyResult]] = defaultdict(list)
    for party in PartyResult.objects.filter(game__in=[g.pk for g in games]):
        parties_of[party.game_id].append(party)
    problems: list[str] = []
    for game in games:
        problem = _check_game(game, parties_of[game.pk], positions, seat_count, rules)
        if problem:
            problems.append(problem)
            if len(problems) >= limit:
                break
    return problems


def _check_game(
    game: Game,
    parties: list[PartyResult],
    positions: dict[tuple[int, int], int],
    seat_count: dict[int, int],
    rules: scoring.RuleSet,
) -> str:
    table = game.sheet.table
    where = f"round {table.round.number} table {table.number} game {game.number}"
    columns = sorted(parties, key=lambda p: positions.get((table.pk, p.entrant_id), 0))
    seats = seat_count[table.pk]
    if len(columns) != seats:
        return f"{where}: {len(columns)} parties stored for {seats} seats"
    active = [p for p in columns if not p.sits_out]
    declarers = [i for i, p in enumerate(active) if p.is_declarer]
    if len(declarers) != 1:
        return f"{where}: {len(declarers)} declarers stored"
    notrick = bool(game.sheet.entries.get(f"g{game.number}-notrick"))
    engine_game = GameInput(
        kind=GameKind(game.kind),
        declarer=declarers[0],
        bid=game.bid,
        parties=tuple(
            PartyInput(
                meld=p.meld,
                tricks=p.tricks,
                took_trick=False if p.is_declarer and notrick else None,
            )
            for p in active
        ),
        revoked=tuple(i for i, p in enumerate(active) if p.revoked),
    )
    problems = scoring.validate_game(engine_game, rules)
    if problems:
        return f"{where}: stored inputs are not a valid game ({problems[0].field})"
    result = scoring.score_game(engine_game, rules)
    stored = tuple(p.points for p in active)
    if stored != result.points or game.won != result.won:
        return (
            f"{where}: stored {stored} won={game.won}, re-scored {result.points} won={result.won}"
        )
    if any(p.points != 0 for p in columns if p.sits_out):
        return f"{where}: a sitting-out dealer has points"
    return ""
