from __future__ import annotations

import hashlib
import json
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import ngettext

from binokel_tournament.management.base import SystemCommand

from ...models import Game, PartyResult, ScoreSheet, Tournament
from ...services.server.integrity import rescore_mismatches
from ...services.sheets.results import evaluate, load_table, sheet_layout
from ..common import resolve_tournament


def entries_digest(entries: dict[str, str]) -> str:
    return hashlib.sha256(json.dumps(entries, sort_keys=True).encode()).hexdigest()[:16]


class Command(SystemCommand):
    help = (
        "Check every tournament (or one) after a crash or a restore: every stored game "
        "re-scored by the engine gives its stored points, and every sheet's stored games are "
        "exactly the valid games of what was typed (no sheet half saved). Prints JSON; exits 1 "
        "on a problem."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", metavar="SLUG", help="one tournament (default: all)")

    def handle(self, *args: Any, **opts: Any) -> None:
        slug = opts.get("tournament")
        tournaments = [resolve_tournament(slug)] if slug else list(Tournament.objects.all())
        problems: list[str] = []
        sheets: dict[str, dict[str, object]] = {}
        for tournament in tournaments:
            self._verify(tournament, problems, sheets)
        self.stdout.write(json.dumps({"problems": problems, "sheets": sheets}, sort_keys=True))
        if problems:
            raise CommandError(
                ngettext("%(count)s Problem", "%(count)s Probleme", len(problems))
                % {"count": len(problems)}
            )

    def _verify(
        self, tournament: Tournament, problems: list[str], sheets: dict[str, dict[str, object]]
    ) -> None:
        rules = tournament.rules()
        problems.extend(rescore_mismatches(tournament, limit=50))
        for sheet in ScoreSheet.objects.filter(table__round__tournament=tournament):
            table = load_table(sheet.table_id)
            evaluation = evaluate(sheet_layout(table, rules), sheet.entries, rules)
            valid = {row.number: row.points for row in evaluation.rows if row.points is not None}
            stored: dict[int, dict[int, int]] = {}
            positions = {s.entrant_id: s.position for s in table.seats.all()}
            for party in PartyResult.objects.filter(game__sheet=sheet).select_related("game"):
                stored.setdefault(party.game.number, {})[positions[party.entrant_id]] = party.points
            if stored != valid or Game.objects.filter(sheet=sheet).count() != len(valid):
                problems.append(f"table {table.pk}: stored games differ from the typed sheet")
            if sheet.complete != evaluation.complete:
                problems.append(f"table {table.pk}: 'complete' flag differs from the sheet")
            sheets[str(table.pk)] = {
                "version": sheet.version,
                "status": sheet.status,
                "entries": entries_digest(sheet.entries),
                "games": len(valid),
            }
