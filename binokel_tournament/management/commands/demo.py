from __future__ import annotations

import time
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ...services.demo import (
    DEMO_PAIRS,
    DEMO_PASSWORD,
    DEMO_SINGLES,
    create_demo,
    demo_name,
    demo_slug,
)
from ...services.errors import DeskError


class Command(BaseCommand):
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

    def handle(self, *args: Any, **opts: Any) -> None:
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
            )
        except DeskError as exc:
            raise CommandError(exc.message) from exc
        counts = {c.mode: c.entrants.count() for c in tournament.competitions.all()}
        size = f"{counts.get('singles', 0)} Einzel, {counts.get('pairs', 0)} Paare"
        verb = f"created in {time.perf_counter() - start:.1f} s" if created else "already there"
        self.stdout.write(
            f"Demo tournament '{tournament.name}' ({tournament.slug}, {size}) {verb}. "
            f"Desk login: orga / {DEMO_PASSWORD} (second person: kasse / {DEMO_PASSWORD}) - "
            "demo only: the hall server (make hall) refuses to start while they are set."
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
            self.stdout.write(f"Fixture written to {opts['dump']}")
