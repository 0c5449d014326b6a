from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ...services.backup import restore
from ...services.errors import DeskError


class Command(BaseCommand):
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
        self.stdout.write(
            f"Restored '{t.name}' as {t.slug}: {t.entrants.count()} entrants, "
            f"{t.round_set.count()} rounds, "
            f"{t.memberships.count()} members"
            + (f", new accounts: {', '.join(result.created_users)}" if result.created_users else "")
        )
