from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from binokel_tournament.management.base import SystemCommand

from ...exports.site import write_site
from ...models import Tournament


class Command(SystemCommand):
    help = (
        "Write a static website (index.html first): standings (final and per round), "
        "categories and clubs, prizes, statistics and series — of one tournament, or of every "
        "tournament with public pages."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", metavar="SLUG")
        parser.add_argument("--out", required=True, metavar="DIR")

    def handle(self, *args: Any, **opts: Any) -> None:
        slug = opts.get("tournament")
        if slug:
            tournaments = list(Tournament.objects.filter(slug=slug))
            if not tournaments:
                raise CommandError(_("Kein Turnier mit dem Kurznamen „%(slug)s“.") % {"slug": slug})
            if not tournaments[0].public_pages:
                raise CommandError(
                    _(
                        "„%(slug)s“ hat keine öffentlichen Seiten (Einstellungen: Öffentliche "
                        "Seiten): keine Website."
                    )
                    % {"slug": slug}
                )
        else:
            tournaments = list(Tournament.objects.filter(public_pages=True).order_by("date"))
            if not tournaments:
                raise CommandError(_("Kein Turnier hat öffentliche Seiten."))
        out = Path(opts["out"])
        if out.exists() and not out.is_dir():
            raise CommandError(_("%(path)s ist kein Ordner.") % {"path": out})
        try:
            files = write_site(out, tournaments)
        except OSError as exc:
            raise CommandError(f"{out}: {exc.strerror or exc}") from exc
        self.stdout.write(f"{files[0]} and {len(files) - 1} more files")
