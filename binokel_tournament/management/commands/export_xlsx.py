from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from binokel_tournament.management.base import SystemCommand

from ...exports import ExportError, ExportOptions, RankingsWorkbookExporter
from ..common import resolve_tournament, write_export


class Command(SystemCommand):
    help = "Write the rankings workbook (.xlsx): every competition, all games, the entrants."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", metavar="SLUG")
        parser.add_argument(
            "--round",
            type=int,
            dest="round_number",
            metavar="N",
            help="standings after round N and the games up to it (default: all rounds)",
        )
        parser.add_argument("--out", required=True, metavar="FILE")

    def handle(self, *args: Any, **opts: Any) -> None:
        tournament = resolve_tournament(opts.get("tournament"))
        try:
            result = RankingsWorkbookExporter(tournament).render(
                ExportOptions(round_number=opts.get("round_number"))
            )
        except ExportError as exc:
            raise CommandError(exc.message) from exc
        write_export(Path(opts["out"]), result, self.stdout)
