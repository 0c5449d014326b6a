"""``manage.py table_links [--tournament SLUG] --round N [--base-url URL]``: every table's own
link for entering its games on a phone, as JSON (the contract of the table-entry issue)::

    {"round": 1, "tables": [{"table": 1, "url": "http://192.168.1.20:8000/tisch/…/"}]}
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from binokel_tournament.management.base import SystemCommand

from ...models import Round
from ...services.server.public_links import table_url
from ..common import add_base_url_argument, checked_base_url, resolve_tournament


class Command(SystemCommand):
    help = "Print every table's phone link of a round as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", metavar="SLUG")
        parser.add_argument("--round", type=int, required=True, dest="round_number", metavar="N")
        add_base_url_argument(parser)

    def handle(self, *args: Any, **opts: Any) -> None:
        tournament = resolve_tournament(opts.get("tournament"))
        base = checked_base_url(opts.get("base_url") or str(settings.PUBLIC_BASE_URL))
        number = opts["round_number"]
        round_obj = Round.objects.filter(tournament=tournament, number=number).first()
        if round_obj is None:
            raise CommandError(
                _("Durchgang %(n)s gibt es in diesem Turnier nicht.") % {"n": number}
            )
        if not tournament.table_entry:
            self.stderr.write(
                _("Warnung: die Tisch-Links sind ausgeschaltet (Einstellungen); sie öffnen nichts.")
            )
        tables = [
            {
                "table": table.number,
                "url": table_url(table, base),
            }
            for table in round_obj.tables.order_by("number")
        ]
        self.stdout.write(json.dumps({"round": number, "tables": tables}, ensure_ascii=False))
