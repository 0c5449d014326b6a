"""CSV files from the same rows as the Excel workbook: UTF-8 with a byte order mark and ``;``
between fields, which is what a German spreadsheet program opens without asking.

A spreadsheet program runs a field that starts with ``=``, ``+``, ``-`` or ``@`` as a formula
(a name typed at registration could be ``=HYPERLINK(…)``), so such text — and text starting
with a tab or carriage return — is written with a leading ``'`` (OWASP "CSV injection").
Numbers are not text: negative points stay ``-170``."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..models import Competition, Mode, Tournament
from .base import BaseExporter, ExportError, ExportFile, ExportOptions, Offer
from .rows import entrants_rows, games_rows, standings_rows
from .table import RowTable, Value

CSV_CONTENT_TYPE = "text/csv; charset=utf-8"
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_text(value: Value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value).replace(".", ",")  # the decimal comma of a German spreadsheet
    text = str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def csv_bytes(table: RowTable, delimiter: str = ";") -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow(table.header)
    writer.writerows([csv_text(v) for v in row] for row in table.rows)
    return out.getvalue().encode("utf-8-sig")


def _table_for(tournament: Tournament, after_round: int | None, what: str) -> RowTable:
    providers: dict[str, Callable[[], RowTable]] = {
        "spiele": lambda: games_rows(tournament, after_round),
        "teilnehmer": lambda: entrants_rows(tournament),
    }
    if what in providers:
        return providers[what]()
    competition = tournament.competitions.filter(mode=what).first()
    if competition is None:
        raise ExportError(_("Dieses Turnier hat keine solche Wertung."))
    return standings_rows(competition, after_round)


class CsvExporter(BaseExporter):
    """One table of the workbook as CSV: a competition's ranking, the games or the entrants."""

    identifier = "csv"
    verbose_name = gettext_lazy("Tabelle (CSV)")
    file_stem = "csv"
    extension = "csv"
    content_type = CSV_CONTENT_TYPE
    TABLES = (Mode.SINGLES, Mode.PAIRS, "spiele", "teilnehmer")

    def __init__(self, tournament: Tournament, table: str = Mode.SINGLES) -> None:
        super().__init__(tournament)
        if table not in self.TABLES:
            raise ExportError(_("Unbekannte Tabelle."))
        self.table = str(table)

    @classmethod
    def for_query(cls, tournament: Tournament, query: Mapping[str, str]) -> CsvExporter:
        return cls(tournament, query.get("table", ""))

    @classmethod
    def offers(cls, competitions: Sequence[Competition]) -> list[Offer]:
        rankings = [
            Offer(_("Rangliste %(mode)s") % {"mode": c.get_mode_display()}, {"table": c.mode})
            for c in competitions
        ]
        return rankings + [
            Offer(_("Spiele"), {"table": "spiele"}),
            Offer(_("Teilnehmer"), {"table": "teilnehmer"}),
        ]

    def render(self, options: ExportOptions | None = None) -> ExportFile:
        options = options or ExportOptions()
        number = self.round_number(options)
        table = _table_for(self.tournament, number, self.table)
        suffix = f"-nach-d{number}" if number and self.table != "teilnehmer" else ""
        name = f"{self.tournament.slug}-{table.slug}{suffix}.{self.extension}"
        return ExportFile(name, self.content_type, csv_bytes(table))
