from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from binokel_tournament.management.base import SystemCommand

from ...exports import PDF_EXPORTERS, ExportError, ExportOptions
from ...models import Mode
from ...services.evening.seating import record_print
from ...services.server.public_links import is_loopback_url
from ..common import checked_base_url, resolve_tournament, write_export


def _numbers(text: str | None, refusal: str) -> tuple[int, ...]:
    """``1,4,7`` as numbers; ``refusal`` (with ``%(value)s``) when it is not a list of them."""
    if not text:
        return ()
    try:
        return tuple(int(t) for t in text.split(",") if t.strip())
    except ValueError as exc:
        raise CommandError(refusal % {"value": text[:40]}) from exc


def _table_numbers(text: str | None) -> tuple[int, ...]:
    return _numbers(text, _("--tables: „%(value)s“ sind keine Tischnummern."))


def _start_numbers(text: str | None) -> tuple[int, ...]:
    return _numbers(text, _("--start-numbers: „%(value)s“ sind keine Startnummern."))


class Command(SystemCommand):
    help = (
        "Write a PDF: seating plan, table cards, score sheets (of a round, or of every round), "
        "standings (after round N) or certificates."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("kind", choices=sorted(PDF_EXPORTERS))
        parser.add_argument("--tournament", metavar="SLUG")
        parser.add_argument("--round", type=int, dest="round_number", metavar="N")
        parser.add_argument("--mode", choices=Mode.values, help="one competition (default: all)")
        parser.add_argument("--top", type=int, default=3, help="certificates: places 1..TOP")
        parser.add_argument(
            "--base-url",
            metavar="URL",
            help=(
                "seating plan: the address at which players' phones reach the public pages, "
                "for the QR code, e.g. http://192.168.1.10:8000 (default: PUBLIC_BASE_URL; "
                "a loopback address such as 127.0.0.1 prints no QR code)"
            ),
        )
        parser.add_argument(
            "--tables",
            metavar="N,N,…",
            help=(
                "table cards, score sheets: only these tables of the round (a reprint; the "
                "desk's list of tables to print again loses them)"
            ),
        )
        parser.add_argument(
            "--format",
            choices=("80mm", "a6"),
            dest="paper",
            help="slips: an 80 mm receipt printer's roll (default) or A6",
        )
        parser.add_argument(
            "--start-numbers",
            metavar="N,N,…",
            help="slips: only these start numbers (a lost slip printed again)",
        )
        parser.add_argument("--out", required=True, metavar="FILE")

    def handle(self, *args: Any, **opts: Any) -> None:
        tournament = resolve_tournament(opts.get("tournament"))
        kind = opts["kind"]
        base_url = opts.get("base_url")
        base_url = checked_base_url(base_url) if base_url is not None else None
        exporter = PDF_EXPORTERS[kind](tournament)
        options = ExportOptions(
            round_number=opts.get("round_number"),
            mode=opts.get("mode"),
            top=opts["top"],
            base_url=base_url,
            tables=_table_numbers(opts.get("tables")),
            paper=opts.get("paper"),
            start_numbers=_start_numbers(opts.get("start_numbers")),
        )
        try:
            result = exporter.render(options)
        except ExportError as exc:
            raise CommandError(exc.message) from exc
        # the seating plan's QR code leads to "Wo sitze ich?", the table cards' and score
        # sheets' to the table's own link
        with_qr = tournament.public_pages if kind == "seating" else tournament.table_entry
        if kind == "slips" or (kind in ("seating", "tablecards", "scoresheets") and with_qr):
            self._warn_without_qr(base_url, kind)
        write_export(Path(opts["out"]), result, self.stdout)
        record_print(tournament, None, kind, options.round_number, options.tables)

    def _warn_without_qr(self, base_url: str | None, kind: str) -> None:
        url = base_url if base_url is not None else str(settings.PUBLIC_BASE_URL or "")
        if url and not is_loopback_url(url):
            return
        if kind == "slips":
            what = _(
                "die QR-Codes der Zettel öffnen auf einem Handy nichts (am Einlass scannen geht)."
            )
        elif kind == "seating":
            what = _("der Tischplan hat deshalb keinen QR-Code und keinen Link zu „Wo sitze ich?“.")
        elif kind == "tablecards":
            what = _("die Tischkarten haben deshalb keinen QR-Code zum Tisch-Link.")
        else:
            what = _("die Spielzettel haben deshalb keinen QR-Code zum Tisch-Link.")
        self.stderr.write(
            _(
                "Warnung: %(url)s erreicht nur dieser Rechner, kein Handy – %(what)s Mit "
                "--base-url die Adresse angeben, unter der die Handys die Seiten erreichen, "
                "z. B. --base-url http://192.168.1.10:8000"
            )
            % {"url": url or "PUBLIC_BASE_URL", "what": what}
        )
