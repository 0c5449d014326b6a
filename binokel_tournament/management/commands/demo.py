from __future__ import annotations

import time
from typing import Any

from django.core.management import call_command
from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from binokel_tournament.management.base import SystemCommand

from ...services import tenancy
from ...services.access import NotAllowed
from ...services.demo import (
    DEMO_PAIRS,
    DEMO_SINGLES,
    create_demo,
    demo_name,
    demo_slug,
)
from ...services.errors import DeskError
from ...services.members import DEMO_PASSWORD
from ..common import ensure_database


class Command(SystemCommand):
    help = (
        "Create (idempotently) the demo tournament: 46 individuals (one 4-table with a sitting-out "
        "dealer per round) and 12 pairs, seating for 3 rounds, rounds 1-2 scored from really "
        "dealt hands, round 3 open. Any size for a rehearsal: --entrants 999 --pairs 150 "
        "(its own slug, e.g. benefizbinokel-demo-999-150, unless --slug names one)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--entrants",
            "--singles",
            dest="singles",
            type=int,
            default=DEMO_SINGLES,
            help=f"Einzel entrants (default {DEMO_SINGLES})",
        )
        parser.add_argument(
            "--pairs", type=int, default=DEMO_PAIRS, help=f"pairs (default {DEMO_PAIRS})"
        )
        parser.add_argument(
            "--slug", help="the tournament's short name (default: one per field size)"
        )
        parser.add_argument("--scored-rounds", type=int, default=2)
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument(
            "--dump", metavar="FILE", help="also write the demo data as a JSON fixture"
        )
        parser.add_argument(
            "--verein", metavar="SLUG", help="the Verein it goes into (default: the one)"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        ensure_database(self.stdout)
        singles, pairs = opts["singles"], opts["pairs"]
        slug = opts["slug"] or demo_slug(singles, pairs)
        start = time.perf_counter()
        try:
            tournament, created = create_demo(
                singles,
                pairs,
                opts["scored_rounds"],
                opts["seed"],
                slug=slug,
                name=demo_name(singles, pairs),
                verein=tenancy.verein_by_slug(opts["verein"]) if opts["verein"] else None,
            )
        except DeskError as exc:
            raise CommandError(exc.message) from exc
        except NotAllowed as exc:  # orga of a restored backup without the right to create
            raise CommandError(
                _(
                    "%(message)s Das Konto orga darf hier keine Turniere anlegen: "
                    "manage.py organiser orga --keep-password gibt es ihm."
                )
                % {"message": exc.message}
            ) from exc
        counts = {c.mode: c.entrants.count() for c in tournament.competitions.all()}
        size = _("%(singles)s Einzel, %(pairs)s Paare") % {
            "singles": counts.get("singles", 0),
            "pairs": counts.get("pairs", 0),
        }
        verb = (
            _("in %(seconds).1f s angelegt") % {"seconds": time.perf_counter() - start}
            if created
            else _("schon vorhanden")
        )
        self.stdout.write(
            _(
                "Demo-Turnier „%(name)s“ (%(slug)s, %(size)s) %(verb)s. Anmeldung am "
                "Turniertisch: orga / %(password)s (zweite Person: kasse / %(password)s) – nur "
                "für die Demo: der Saal-Server (make hall) startet nicht, solange sie gelten."
            )
            % {
                "name": tournament.name,
                "slug": tournament.slug,
                "size": size,
                "verb": verb,
                "password": DEMO_PASSWORD,
            }
        )
        if opts["dump"]:
            call_command(
                "dumpdata",
                "auth.user",
                "binokel_tournament",
                indent=1,
                exclude=["binokel_tournament.AuditLog"],
                output=opts["dump"],
                natural_foreign=True,
            )
            self.stdout.write(_("Fixture geschrieben: %(path)s") % {"path": opts["dump"]})
