from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ...exports import PDF_EXPORTERS, ExportError, ExportOptions
from ...models import Mode
from .simulate import resolve_tournament


class Command(BaseCommand):
    help = (
        "Write a PDF: seating plan, table cards, score sheets (of a round, or of every round), "
        "standings (after round N) or certificates."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("kind", choices=sorted(PDF_EXPORTERS))
        parser.add_argument("--tournament", metavar="SLUG")
        parser.add_argument("--round", type=int, dest="round_number", metavar="N")
        parser.add_argument("--mode", choices=Mode.values, help="one competition (default: all)")
        parser.add_argument("--top", type=int, default=3, help="certificates: places 1..TOP")
        parser.add_argument("--out", required=True, metavar="FILE")

    def handle(self, *args: Any, **opts: Any) -> None:
        tournament = resolve_tournament(opts.get("tournament"))
        exporter = PDF_EXPORTERS[opts["kind"]](tournament)
        options = ExportOptions(
            round_number=opts.get("round_number"), mode=opts.get("mode"), top=opts["top"]
        )
        try:
            result = exporter.render(options)
        except ExportError as exc:
            raise CommandError(exc.message) from exc
        out = Path(opts["out"])
        out.write_bytes(result.content)
        self.stdout.write(f"{out}: {len(result.content):,} bytes ({result.filename})")
