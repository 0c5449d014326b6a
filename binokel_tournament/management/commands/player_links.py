"""``manage.py player_links [--tournament SLUG] [--base-url URL]``: every person's own page
(each partner of a pair has one), as JSON (the contract of the players' issue)::

    {"players": [{"start_number": 1, "name": "…", "url": "http://…/p/…/"}]}

People without a link get one (a link once made stays until revoked at the desk)."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.management.base import CommandParser

from binokel_tournament.management.base import SystemCommand

from ...services.evening.players import ensure_links
from ...services.server.public_links import personal_url
from ..common import add_base_url_argument, checked_base_url, resolve_tournament


class Command(SystemCommand):
    help = "Print every player's own link as JSON (made where missing)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", metavar="SLUG")
        add_base_url_argument(parser)

    def handle(self, *args: Any, **opts: Any) -> None:
        tournament = resolve_tournament(opts.get("tournament"))
        base = checked_base_url(opts.get("base_url") or str(settings.PUBLIC_BASE_URL))
        players = [
            {
                "start_number": link.entrant.start_number,
                "name": link.person_name,
                "url": personal_url(link.token, base),
            }
            for link in ensure_links(tournament)
        ]
        self.stdout.write(json.dumps({"players": players}, ensure_ascii=False))
