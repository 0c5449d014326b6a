from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from binokel_tournament.management.base import SystemCommand

from ...exports import ExportError
from ...exports.result_file import KINDS, ResultFileExporter
from ..common import resolve_tournament, write_export


class Command(SystemCommand):
    help = (
        "Write the evening's open result file (binokel-result, docs/result-format.md): its "
        "invitation, its entries or its results with every game."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", metavar="SLUG")
        parser.add_argument("--kind", choices=KINDS, default="results")
        parser.add_argument(
            "--public",
            action="store_true",
            help="for the public: players who did not agree to be named as start numbers only",
        )
        parser.add_argument("--out", required=True, metavar="FILE")

    def handle(self, *args: Any, **opts: Any) -> None:
        tournament = resolve_tournament(opts.get("tournament"))
        try:
            result = ResultFileExporter(tournament, opts["kind"], opts["public"]).render()
        except ExportError as exc:
            raise CommandError(exc.message) from exc
        write_export(Path(opts["out"]), result, self.stdout)
