"""``manage.py hall``: serve the desk to the hall's network for the evening.

gunicorn (threaded workers, a count that suits a laptop) with WhiteNoise for the static files,
DEBUG off, ALLOWED_HOSTS and CSRF_TRUSTED_ORIGINS set to this machine's addresses, which are
printed for the phones. It refuses to start while an account still has the published demo
password and asks for the organiser's own password instead (``--password-file`` for scripts).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import CommandError, CommandParser
from django.db import connection, connections
from django.utils.translation import gettext as _

from binokel_tournament.management.base import SystemCommand

from ...models import Membership, Role
from ...services.members import DEMO_PASSWORD
from ...services.server import backup, cache_guard, public_cache
from ...services.server.warmup import warm_up
from ..common import ensure_database
from ..passwords import ask_new_password, checked, password_from_file

LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
HALL_CONN_MAX_AGE = 600  # seconds a worker thread keeps its database connection


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses in its networks (not loopback, not link-local)."""
    import ifaddr

    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            address = ip.ip
            if not isinstance(address, str):  # IPv6: phones in a hall use the IPv4 address
                continue
            if address.startswith(("127.", "169.254.")) or address in found:
                continue
            found.append(address)
    return sorted(found)


def default_workers(vendor: str = "") -> int:
    """Threaded workers. On SQLite (the laptop): one process per core and one more (a 2-core
    laptop: 3 processes of 4 threads), at most 5 — SQLite writes one at a time anyway, more
    processes only wait. On PostgreSQL (a hosted server): two per core and one more (gunicorn's
    rule), of 2 threads each (``default_threads``): a request's every query and cache call
    waits for the network, and a thread that waits must win Python's lock back from a
    neighbour making a page; with 4 threads a desk's save (some 40 such waits) took longer
    under load (benchmarks/federation.py: p95 123-192 ms against 104-114 ms; under a burst of
    saves 0.8-2.2 s against 0.7-1.4 s; docs/operations.md)."""
    cores = os.cpu_count() or 2
    if (vendor or connection.vendor) == "sqlite":
        return max(2, min(cores + 1, 5))
    return max(3, min(2 * cores + 1, 17))


def default_threads(vendor: str = "") -> int:
    return 4 if (vendor or connection.vendor) == "sqlite" else 2


def accounts_with_demo_password() -> list[Any]:
    return [
        user
        for user in get_user_model().objects.filter(is_active=True).order_by("username")
        if user.has_usable_password() and user.check_password(DEMO_PASSWORD)
    ]


def is_organiser(user: Any) -> bool:
    return bool(
        user.is_superuser
        or user.is_staff
        or Membership.objects.filter(user=user, role=Role.ORGANISER).exists()
    )


class Command(SystemCommand):
    help = (
        "Serve the desk to the hall's network (gunicorn + WhiteNoise, DEBUG off) and print "
        "the addresses phones can use. Refuses while an account has the demo password."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="0.0.0.0", help="bind address (default: all)")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--workers", type=int, default=default_workers())
        parser.add_argument("--threads", type=int, default=default_threads())
        parser.add_argument(
            "--password-file",
            metavar="FILE",
            help=(
                "non-interactive: organiser accounts still on the demo password get the "
                "password in FILE; other such accounts are locked (no password)"
            ),
        )
        parser.add_argument(
            "--noinput",
            "--no-input",
            action="store_false",
            dest="interactive",
            help="never prompt (refuse instead of asking for passwords)",
        )
        parser.add_argument(
            "--check", action="store_true", help="check and print the addresses, do not serve"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        ensure_database(self.stdout)
        self._replace_demo_passwords(opts["password_file"], opts["interactive"])
        host, port = opts["host"], opts["port"]
        loopback_only = host in ("127.0.0.1", "localhost", "::1")
        addresses = [] if loopback_only else lan_addresses()
        self._configure(addresses, port)
        self._print_addresses(addresses, host, port)
        self._check_cache()
        if opts["check"]:
            return
        # first the backup writer: after a crash it backs up the state before it at once,
        # while this process still prepares the workers
        connections.close_all()
        writer = self._start_backup_process()
        try:
            warm_up()  # once here, inherited by every worker process
            # a change whose process was killed between its commit and its note to the cache
            # must not leave an old public page behind
            public_cache.changed()
            connections.close_all()  # the workers open their own
            self._serve(host, port, opts["workers"], opts["threads"])
        finally:
            writer.terminate()
            writer.wait(timeout=60)

    def _check_cache(self) -> None:
        """The cache is a helper: one that does not answer is said in a line, not a reason
        to stay closed (services/server/cache_guard.py)."""
        problem = cache_guard.check_at_start()
        if problem:
            self.stdout.write(
                self.style.WARNING(
                    _(
                        "Der Cache (%(url)s) antwortet nicht: %(problem)s. Die Seiten werden "
                        "ohne ihn jedes Mal neu gemacht; sobald er antwortet, wird er genutzt."
                    )
                    % {"url": cache_guard.where(), "problem": problem}
                )
            )

    def _start_backup_process(self) -> subprocess.Popen[bytes]:
        """The automatic backups are written by a process of their own at a lower priority;
        the web workers only leave it a note (services.backup)."""
        os.environ[backup.WORKER_ENV] = "1"
        return subprocess.Popen(  # it lowers its own priority once it has caught up
            [sys.executable, "-m", "django", "backup_process"],
            env={**os.environ, "DJANGO_SETTINGS_MODULE": "binokel_tournament.settings"},
        )

    def _replace_demo_passwords(self, password_file: str | None, interactive: bool) -> None:
        accounts = accounts_with_demo_password()
        if not accounts:
            return
        names = ", ".join(u.get_username() for u in accounts)
        self.stderr.write(
            f"Diese Konten haben noch das veröffentlichte Demo-Passwort: {names}. "
            "Im Saal kann es jede/r lesen – der Server startet erst mit eigenen Passwörtern.\n"
            f"These accounts still have the published demo password: {names}."
        )
        if password_file:
            password = password_from_file(password_file)
            for user in accounts:
                if is_organiser(user):
                    user.set_password(checked(password, user))
                    self.stdout.write(
                        _("%(user)s: Passwort aus %(file)s gesetzt")
                        % {"user": user.get_username(), "file": password_file}
                    )
                else:
                    user.set_unusable_password()
                    self.stdout.write(
                        _(
                            "%(user)s: gesperrt (kein Passwort) – die Turnierleitung vergibt mit "
                            "`manage.py changepassword` ein neues oder legt auf der Seite "
                            "Mitglieder ein neues Konto an"
                        )
                        % {"user": user.get_username()}
                    )
                user.save()
            return
        if not interactive or not sys.stdin.isatty():
            raise CommandError(
                _(
                    "Der Saal-Server startet nicht, solange %(names)s noch das Demo-Passwort "
                    "haben. Rufen Sie `python manage.py hall` in einem Terminal auf, um neue "
                    "Passwörter zu setzen, oder geben Sie --password-file DATEI an (oder "
                    "`python manage.py changepassword NAME`)."
                )
                % {"names": names}
            )
        for user in sorted(accounts, key=lambda u: not is_organiser(u)):
            user.set_password(ask_new_password(user))
            user.save()
            self.stdout.write(f"{user.get_username()}: neues Passwort gesetzt / new password set")

    def _configure(self, addresses: list[str], port: int) -> None:
        # Each worker thread keeps its database connection from request to request (checked
        # before reuse) instead of opening one per request; CONN_MAX_AGE in the environment
        # overrides the hall's default.
        database = settings.DATABASES["default"]
        if not os.environ.get("CONN_MAX_AGE"):
            database["CONN_MAX_AGE"] = HALL_CONN_MAX_AGE
        database["CONN_HEALTH_CHECKS"] = True
        hostname = socket.gethostname()
        hosts = [*LOOPBACK, *addresses, hostname, f"{hostname}.local"]
        settings.DEBUG = False
        settings.ALLOWED_HOSTS = list(dict.fromkeys([*settings.ALLOWED_HOSTS, *hosts]))
        origins = [f"http://{h}:{port}" for h in hosts]
        settings.CSRF_TRUSTED_ORIGINS = list(
            dict.fromkeys([*settings.CSRF_TRUSTED_ORIGINS, *origins])
        )
        if addresses and settings.PUBLIC_BASE_URL.startswith(("http://127.", "http://localhost")):
            settings.PUBLIC_BASE_URL = f"http://{addresses[0]}:{port}"

    def _print_addresses(self, addresses: list[str], host: str, port: int) -> None:
        self.stdout.write("Binokel-Turnierverwaltung für den Saal / for the hall")
        self.stdout.write(f"  Turniertisch / desk:      http://127.0.0.1:{port}/desk/")
        if not addresses and host == "0.0.0.0":
            self.stdout.write("  Kein Netzwerk gefunden / no network found")
        elif not addresses:
            self.stdout.write(f"  Nur dieser Rechner / this computer only ({host})")
        for address in addresses:
            self.stdout.write(f"  Handys im Saal / phones:  http://{address}:{port}/")
        self.stdout.write(f"  Fehlerprotokoll / error log: {settings.ERROR_LOG_FILE}")
        self.stdout.write(f"  Sicherungen / backups:       {settings.BACKUP_DIR}")
        if not get_user_model().objects.filter(is_active=True).exists():
            self.stdout.write("  Noch kein Konto / no account yet: python manage.py organiser NAME")
        self.stdout.write("  Beenden / stop: Strg+C / Ctrl+C")
        self.stdout.flush()

    def _serve(self, host: str, port: int, workers: int, threads: int) -> None:
        from gunicorn.app.base import BaseApplication

        from binokel_tournament.wsgi import application

        class Hall(BaseApplication):  # gunicorn's documented custom app
            def load_config(self) -> None:
                options = {
                    "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
                    "workers": workers,
                    "threads": threads,
                    "worker_class": "gthread",
                    "timeout": 120,  # a PDF of every score sheet of a big round takes seconds
                    "graceful_timeout": 20,
                    "keepalive": 5,
                    "accesslog": None,
                    "errorlog": "-",
                    "loglevel": "warning",
                    "proc_name": "binokel-hall",
                }
                for key, value in options.items():
                    self.cfg.set(key, value)

            def load(self) -> Any:
                return application

        Hall().run()
