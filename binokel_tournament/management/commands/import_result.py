from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from binokel_tournament.management.base import SystemCommand

from ...services.errors import DeskError
from ...services.imports import import_result
from ..common import ensure_database


class Command(SystemCommand):
    help = (
        "Take in a binokel-result file (docs/result-format.md): an entries file registers its "
        "players, a results file becomes a finished, read-only evening, an invitation makes "
        "the evening. A file that does not check out is refused; nothing is half stored."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE")

    def handle(self, *args: Any, **opts: Any) -> None:
        ensure_database(self.stdout)
        try:
            data = Path(opts["file"]).read_bytes()
        except OSError as exc:
            raise CommandError(
                _("%(path)s kann nicht gelesen werden: %(reason)s")
                % {"path": opts["file"], "reason": exc.strerror or exc}
            ) from exc
        try:
            done = import_result(data, None)
        except DeskError as exc:
            raise CommandError(exc.message) from exc
        t = done.tournament
        if done.kind == "results":
            text = _(
                "Übernommen: %(name)s (%(slug)s) mit %(entrants)s Teilnehmern und %(tables)s "
                "Tischen, nur zum Ansehen."
            )
        elif done.kind == "entries":
            text = _(
                "Anmeldungen übernommen in %(name)s (%(slug)s): %(entrants)s angemeldet, "
                "%(waiting)s auf der Warteliste."
            )
        else:
            text = _("Einladung übernommen: %(name)s (%(slug)s).")
        self.stdout.write(
            text
            % {
                "name": t.name,
                "slug": t.slug,
                "entrants": done.entrants,
                "tables": done.tables,
                "waiting": done.waiting,
            }
        )
