"""What the management commands share — one module, so that no command imports another: the
tournament named by ``--tournament``, writing an export to a file, and checking
``--base-url``."""

from __future__ import annotations

from pathlib import Path

from django.core.management import call_command
from django.core.management.base import CommandError, CommandParser, OutputWrapper
from django.db import connections
from django.db.migrations.executor import MigrationExecutor
from django.utils.translation import gettext as _

from ..exports import ExportFile
from ..models import Tournament
from ..services.server.public_links import is_full_url


def ensure_database(stdout: OutputWrapper | None = None) -> None:
    """Set the database up (or bring it up to date) before a command uses it: a new
    installation works in the README's order, whatever command comes first, and says so."""
    executor = MigrationExecutor(connections["default"])
    if not executor.migration_plan(executor.loader.graph.leaf_nodes()):
        return
    call_command("migrate", interactive=False, verbosity=0)
    if stdout is not None:
        name = connections["default"].settings_dict.get("NAME", "")
        stdout.write(_("Datenbank eingerichtet: %(name)s") % {"name": name})


def resolve_tournament(slug: str | None) -> Tournament:
    """The tournament named by --tournament; may be left out when there is just one."""
    ensure_database()
    if slug:
        try:
            return Tournament.objects.get(slug=slug)
        except Tournament.DoesNotExist as exc:
            raise CommandError(
                _("Es gibt kein Turnier mit dem Kürzel „%(slug)s“.") % {"slug": slug}
            ) from exc
    tournaments = list(Tournament.objects.all()[:2])
    if len(tournaments) != 1:
        raise CommandError(
            _("Mehrere Turniere (oder keines): eines mit --tournament KÜRZEL angeben.")
        )
    return tournaments[0]


def write_export(out: Path, result: ExportFile, stdout: OutputWrapper) -> None:
    """Write the file; a path that cannot be written is the user's mistake, not a traceback."""
    try:
        out.write_bytes(result.content)
    except OSError as exc:
        raise CommandError(
            _("%(path)s kann nicht geschrieben werden: %(reason)s")
            % {"path": out, "reason": exc.strerror or exc}
        ) from exc
    stdout.write(
        _("%(path)s: %(size)s Bytes (%(name)s)")
        % {"path": out, "size": f"{len(result.content):,}", "name": result.filename}
    )


def add_base_url_argument(parser: CommandParser) -> None:
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="the address phones reach the server at (default: PUBLIC_BASE_URL)",
    )


def checked_base_url(url: str) -> str:
    """``url`` when it is a full http(s) address; otherwise a ``CommandError``."""
    if not is_full_url(url):
        raise CommandError(
            _("--base-url: „%(url)s“ ist keine vollständige Adresse (http://… oder https://…).")
            % {"url": url}
        )
    return url.strip()
