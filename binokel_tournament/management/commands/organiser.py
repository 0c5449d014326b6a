from __future__ import annotations

import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import CommandError, CommandParser
from django.db import transaction
from django.utils.translation import gettext as _

from binokel_tournament.management.base import SystemCommand

from ...models import Membership, Role, Tournament
from ...services import tenancy
from ...services.access import CREATE_TOURNAMENT_PERMISSION
from ...services.errors import DeskError
from ..common import ensure_database
from ..passwords import ask_new_password, checked, password_from_file


class Command(SystemCommand):
    help = (
        "Create (or update) an organiser account for a new installation: it may create "
        "tournaments and becomes organiser of the tournaments named. Asks for the password "
        "(or reads it from --password-file)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--tournament",
            action="append",
            default=[],
            metavar="SLUG",
            help="make the account organiser of this tournament (repeatable)",
        )
        parser.add_argument(
            "--all-tournaments", action="store_true", help="organiser of every tournament"
        )
        parser.add_argument(
            "--verein",
            metavar="SLUG",
            help="make the account organiser of this Verein (default: the installation's one)",
        )
        parser.add_argument(
            "--password-file",
            metavar="FILE",
            help="read the new password from FILE (first line) instead of asking",
        )
        parser.add_argument(
            "--keep-password",
            action="store_true",
            help="an existing account keeps its password (no prompt)",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        ensure_database(self.stdout)  # the first command of a new installation
        User = get_user_model()
        username = opts["username"].strip()
        user = User.objects.filter(username=username).first()
        created = user is None
        if user is None:
            user = User(username=username)
            try:
                user.full_clean(exclude=["password"])
            except Exception as exc:  # noqa: BLE001 - the validator's message for the console
                raise CommandError(f"{username!r}: {exc}") from exc
        if opts["password_file"]:
            password: str | None = checked(password_from_file(opts["password_file"]), user)
        elif opts["keep_password"] and not created:
            password = None
        elif sys.stdin.isatty():
            password = ask_new_password(user)
        else:
            raise CommandError(
                _("Kein Terminal, um nach dem Passwort zu fragen: --password-file DATEI angeben.")
            )
        try:  # without --verein as before Vereine: the installation's one (a laptop)
            verein = (
                tenancy.verein_by_slug(opts["verein"])
                if opts["verein"]
                else tenancy.default_verein()
            )
        except DeskError as exc:
            raise CommandError(exc.message) from exc
        slugs = list(opts["tournament"])
        everything = Tournament.objects.filter(verein=verein) if opts["verein"] else None
        if everything is None:
            everything = Tournament.objects.all()
        tournaments = list(everything) if opts["all_tournaments"] else []
        for slug in slugs:
            found = Tournament.objects.filter(slug=slug).first()
            if found is None:
                raise CommandError(_("Kein Turnier mit dem Kurznamen „%(slug)s“.") % {"slug": slug})
            tournaments.append(found)
        with transaction.atomic():
            if password is not None:
                user.set_password(password)
            user.is_active = True
            user.save()
            app_label, codename = CREATE_TOURNAMENT_PERMISSION.split(".")
            user.user_permissions.add(
                Permission.objects.get(content_type__app_label=app_label, codename=codename)
            )
            for tournament in tournaments:
                Membership.objects.update_or_create(
                    tournament=tournament, user=user, defaults={"role": Role.ORGANISER}
                )
            if opts["verein"]:  # its roles apply to all the Verein's tournaments
                tenancy.set_member(verein, user, Role.ORGANISER, None)
        verb = _("angelegt") if created else _("aktualisiert")
        names = ", ".join(t.slug for t in tournaments) or "-"
        self.stdout.write(
            _(
                "Konto der Turnierleitung „%(name)s“ %(verb)s; darf Turniere anlegen; "
                "Turnierleitung von: %(names)s"
            )
            % {"name": username, "verb": verb, "names": names}
        )
        if opts["verein"]:
            self.stdout.write(
                _("Turnierleitung des Vereins „%(verein)s“ (%(slug)s)")
                % {"verein": verein.name, "slug": verein.slug}
            )
