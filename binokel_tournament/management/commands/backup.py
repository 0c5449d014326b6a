from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from binokel_tournament.management.base import SystemCommand

from ...services.server.backup import backup_bytes, write_atomically
from ..common import resolve_tournament


class Command(SystemCommand):
    help = (
        "Write the whole tournament (rule set, competitions, entrants, plans, score sheets with "
        "their versions, audit log, members) as one JSON document."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", metavar="SLUG")
        parser.add_argument("--out", required=True, metavar="FILE")

    def handle(self, *args: Any, **opts: Any) -> None:
        tournament = resolve_tournament(opts.get("tournament"))
        data = backup_bytes(tournament)
        out = Path(opts["out"])
        try:
            write_atomically(out, data)
        except OSError as exc:
            raise CommandError(f"{out}: {exc.strerror or exc}") from exc
        self.stdout.write(
            _("%(path)s: %(size)s Bytes (Turnier %(slug)s)")
            % {"path": out, "size": f"{len(data):,}", "slug": tournament.slug}
        )
