from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

from ...services.demo import DEMO_PASSWORD, create_demo


class Command(BaseCommand):
    help = (
        "Create (idempotently) the demo tournament: 46 individuals (one 4-table with a sitting-out "
        "dealer per round) and 12 pairs, seating for 3 rounds, rounds 1-2 scored from really "
        "dealt hands, round 3 open."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--singles", type=int, default=46)
        parser.add_argument("--pairs", type=int, default=12)
        parser.add_argument("--scored-rounds", type=int, default=2)
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument(
            "--dump", metavar="FILE", help="also write the demo data as a JSON fixture"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        tournament, created = create_demo(
            opts["singles"], opts["pairs"], opts["scored_rounds"], opts["seed"]
        )
        verb = "created" if created else "already there"
        self.stdout.write(
            f"Demo tournament '{tournament.name}' ({tournament.slug}) {verb}. "
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
