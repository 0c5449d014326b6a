from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from binokel_tournament.management.base import SystemCommand

from ...services.errors import DeskError
from ...services.server.backup import restore
from ..common import ensure_database


class Command(SystemCommand):
    help = (
        "Bring a tournament backup (from 'backup', the desk, or the automatic backups in "
        "BACKUP_DIR) into this database, empty or not. Accounts the backup names are created "
        "with their passwords where they do not exist here."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument(
            "--as",
            dest="slug",
            metavar="NEW-SLUG",
            help="restore under this short name (when the backup's is taken here)",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        ensure_database(self.stdout)  # a second laptop's fresh data folder
        path = Path(opts["file"])
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror or exc}") from exc
        try:
            result = restore(data, slug=opts.get("slug"), create_users=True)
        except DeskError as exc:
            raise CommandError(exc.message) from exc
        t = result.tournament
        created = ", ".join(result.created_users)
        self.stdout.write(
            _(
                "„%(name)s“ eingespielt als %(slug)s: %(entrants)s Teilnehmer, "
                "%(rounds)s Durchgänge, %(members)s Mitglieder"
            )
            % {
                "name": t.name,
                "slug": t.slug,
                "entrants": t.entrants.count(),
                "rounds": t.round_set.count(),
                "members": t.memberships.count(),
            }
            + (_(", neue Konten: %(names)s") % {"names": created} if created else "")
        )
