"""``manage.py player_links [--tournament SLUG] [--base-url URL]``: every person's own page
(each partner of a pair has one), as JSON (the contract of the players' issue)::

    {"players": [{"start_number": 1, "name": "…", "url": "http://…/p/…/"}]}

People without a link get one (a link once made stays until revoked).

``manage.py player_links --revoke NR [--partner]``: a lost slip: the link of start number NR
(with ``--partner`` the pair's second name) shows nothing any more and the person gets a new
one, printed at once with its short code::

    {"revoked": {"start_number": 13, "name": "…", "url": "http://…/p/…/", "code": "…"}}

(the slip again: ``manage.py export_pdf slips --start-numbers 13``)."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from binokel_tournament.management.base import SystemCommand

from ...models import Tournament
from ...services.errors import DeskError
from ...services.evening.players import ensure_links, revoke_person
from ...services.server.public_links import personal_url
from ..common import add_base_url_argument, checked_base_url, resolve_tournament


class Command(SystemCommand):
    help = "Print every player's own link as JSON (made where missing)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", metavar="SLUG")
        parser.add_argument(
            "--revoke",
            metavar="NR",
            type=int,
            help="replace the link of this start number (a lost slip) and print the new one",
        )
        parser.add_argument(
            "--partner", action="store_true", help="with --revoke: the pair's second name"
        )
        add_base_url_argument(parser)

    def handle(self, *args: Any, **opts: Any) -> None:
        tournament = resolve_tournament(opts.get("tournament"))
        base = checked_base_url(opts.get("base_url") or str(settings.PUBLIC_BASE_URL))
        if opts.get("revoke") is not None:
            self._revoke(tournament, opts["revoke"], opts["partner"], base)
            return
        if opts["partner"]:
            raise CommandError("--partner only with --revoke NR")
        players = [
            {
                "start_number": link.entrant.start_number,
                "name": link.person_name,
                "url": personal_url(link.token, base),
            }
            for link in ensure_links(tournament)
        ]
        self.stdout.write(json.dumps({"players": players}, ensure_ascii=False))

    def _revoke(self, tournament: Tournament, number: int, partner: bool, base: str) -> None:
        entrant = tournament.entrants.filter(start_number=number).first()
        if entrant is None:
            raise CommandError(f"no start number {number} in {tournament.slug}")
        try:
            new = revoke_person(entrant, partner, None)
        except DeskError as exc:
            raise CommandError(exc.message) from exc
        revoked = {
            "start_number": entrant.start_number,
            "name": new.person_name,
            "url": personal_url(new.token, base),
            "code": new.code,
        }
        self.stdout.write(json.dumps({"revoked": revoked}, ensure_ascii=False))
