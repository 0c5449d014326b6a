from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from binokel_tournament.management.base import SystemCommand

from ...services import tenancy
from ...services.errors import DeskError
from ...services.server.backup import restore
from ...services.server.backup.restore import SlugTaken
from ..common import ensure_database


class Command(SystemCommand):
    help = (
        "Bring a tournament backup (from 'backup', the desk, or the automatic backups in "
        "BACKUP_DIR) into this database, empty or not. Accounts the backup names are created "
        "with their passwords where they do not exist here (an organiser who could create "
        "tournaments may create them here too); accounts that exist here keep their passwords "
        "and rights. --replace replaces an older state of the same evening here (a second "
        "laptop continues it: the printed table and player links stay valid)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument(
            "--as",
            dest="slug",
            metavar="NEW-SLUG",
            help="restore a copy under this short name (its own table and player links)",
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help="replace the tournament of the same slug here when it is an older state of "
            "the same evening (its links stay; audited)",
        )
        parser.add_argument(
            "--verein", metavar="SLUG", help="the Verein it goes into (default: the one)"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        ensure_database(self.stdout)  # a second laptop's fresh data folder
        path = Path(opts["file"])
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror or exc}") from exc
        try:
            verein = tenancy.verein_by_slug(opts["verein"]) if opts["verein"] else None
            result = restore(
                data,
                slug=opts.get("slug"),
                create_users=True,
                verein=verein,
                replace=opts["replace"],
            )
        except SlugTaken as exc:
            hint = (
                _(
                    "Mit --replace wird der ältere Stand ersetzt (Tisch- und Spielerlinks "
                    "bleiben gültig); mit --as NEUER-NAME wird eine Kopie mit eigenen Links "
                    "eingespielt."
                )
                if exc.replaceable
                else _("Mit --as NEUER-NAME wird eine Kopie mit eigenen Links eingespielt.")
            )
            raise CommandError(f"{exc.message} {hint}") from exc
        except DeskError as exc:
            raise CommandError(exc.message) from exc
        t = result.tournament
        if result.replaced:
            self.stdout.write(
                _("Der ältere Stand von „%(name)s“ wurde ersetzt; die Links bleiben gültig.")
                % {"name": t.name}
            )
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
        for lines, text in (
            (
                result.may_create,
                _("Diese neuen Konten dürfen hier Turniere anlegen und einspielen: %(names)s"),
            ),
            (
                result.kept_users,
                _("Diese Konten gab es hier schon; sie behalten Passwort und Rechte: %(names)s"),
            ),
            (
                result.without_right,
                _(
                    "Diese Konten durften dort Turniere anlegen, hier nicht (manage.py "
                    "organiser NAME --keep-password gibt es ihnen): %(names)s"
                ),
            ),
        ):
            if lines:
                self.stdout.write(text % {"names": ", ".join(lines)})
