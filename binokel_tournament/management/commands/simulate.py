from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from binokel_tournament.management.base import SystemCommand

from ...models import Membership, Role, Round, ScoreSheet, SheetStatus
from ...services.evening.simulation import simulate_round
from ..common import resolve_tournament


class Command(SystemCommand):
    help = "Fill a round's missing score sheets with results from really dealt hands."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--round", type=int, required=True, dest="round_number")
        parser.add_argument("--tournament", metavar="SLUG")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--draft", action="store_true", help="save as drafts, do not confirm")

    def handle(self, *args: Any, **opts: Any) -> None:
        tournament = resolve_tournament(opts.get("tournament"))
        try:
            round_obj = tournament.round_set.get(number=opts["round_number"])
        except Round.DoesNotExist as exc:
            raise CommandError(
                _("Durchgang %(n)s hat keinen Spielplan.") % {"n": opts["round_number"]}
            ) from exc
        # the tournament's first organiser runs it (the sheets are audited as the simulation)
        organiser = (
            Membership.objects.filter(tournament=tournament, role=Role.ORGANISER)
            .order_by("pk")
            .select_related("user")
            .first()
        )
        user = organiser.user if organiser is not None else None
        n = simulate_round(round_obj, user, seed=opts["seed"], confirm=not opts["draft"])
        self.stdout.write(
            _("Durchgang %(n)s: %(count)s Spielzettel ausgefüllt.")
            % {"n": round_obj.number, "count": n}
        )
        waiting = (
            ScoreSheet.objects.filter(table__round=round_obj)
            .exclude(status=SheetStatus.CONFIRMED)
            .count()
        )
        if n and waiting and not opts["draft"] and tournament.double_check:
            # entered as the simulation: the Vier-Augen-Prinzip wants a person to check them
            self.stdout.write(
                _(
                    "Vier-Augen-Prinzip: %(count)s Zettel warten auf die Bestätigung durch eine "
                    "zweite Person (Ergebnisse, je Zettel „Bestätigen“)."
                )
                % {"count": waiting}
            )
