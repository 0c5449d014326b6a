from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from ...models import Membership, Role, Round, Tournament
from ...services.simulation import simulate_round


class Command(BaseCommand):
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
        # the sheets are entered in the name of the tournament's first organiser
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


def resolve_tournament(slug: str | None) -> Tournament:
    """The tournament named by --tournament; may be left out when there is just one."""
    if slug:
        try:
            return Tournament.objects.get(slug=slug)
        except Tournament.DoesNotExist as exc:
            raise CommandError(
                _("Kein Turnier mit dem Kurznamen „%(slug)s“.") % {"slug": slug}
            ) from exc
    tournaments = list(Tournament.objects.all()[:2])
    if len(tournaments) != 1:
        raise CommandError(
            _("Mehrere Turniere (oder keines): nennen Sie eines mit --tournament SLUG.")
        )
    return tournaments[0]
