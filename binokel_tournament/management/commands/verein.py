from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from binokel_tournament.management.base import SystemCommand

from ...services import tenancy
from ...services.errors import DeskError
from ..common import ensure_database


class Command(SystemCommand):
    help = (
        "Create a Verein (a club, or with --district a Kreis/Verband whose cup takes its member "
        "clubs' evenings) on a server for many clubs; then make its organiser with "
        "`manage.py organiser USER --verein SLUG`."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name")
        parser.add_argument("--slug", default="", help="its short name (default: from the name)")
        parser.add_argument(
            "--district", action="store_true", help="a district (Kreis/Verband) with a cup"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        ensure_database(self.stdout)
        try:
            verein = tenancy.create_verein(opts["name"], opts["slug"], district=opts["district"])
        except DeskError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(
            _("Verein „%(name)s“ angelegt (Kurzname %(slug)s).")
            % {"name": verein.name, "slug": verein.slug}
        )
