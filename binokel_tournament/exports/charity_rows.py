"""The charity evening's sheets of the rankings workbook: "Spenden" (per entrant: Startgeld,
lost games, donation, paid, open; the extra donations and the evening's total below) and
"Statistik" (the evening in figures). Rows from the same services as the desk."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _

from ..models import Mode, Tournament
from ..numbers import euro as euro_text
from ..services.evening.standings import Standings
from ..services.money import charity
from ..services.money.subrankings import sub_rankings
from .statistics_rows import statistics_rows
from .table import INTEGER_FORMAT, POINTS_FORMAT, Column, RowTable, Value

EURO_FORMAT = '#,##0.00 "€"'


def euros(cents: int) -> float:
    return cents / 100


def donations_rows(tournament: Tournament) -> RowTable:
    columns = [
        Column("start_number", _("Startnummer"), 12, INTEGER_FORMAT),
        Column("name", _("Name")),
        Column("competition", _("Wertung"), 9),
        Column("fee", _("Startgeld"), 11, EURO_FORMAT),
        Column("fee_paid", _("Startgeld bezahlt"), 10),
        Column("lost", _("verlorene Spiele"), 10, INTEGER_FORMAT),
        Column("donation", _("Spende"), 11, EURO_FORMAT),
        Column("donation_paid", _("Spende bezahlt"), 10),
        Column("open", _("offen"), 11, EURO_FORMAT),
    ]
    table = RowTable(slug="spenden", title=_("Spenden"), columns=columns)
    modes = {m: str(label) for m, label in Mode.choices}
    items = charity.statements(tournament)
    for item in items:
        s = item.statement
        table.rows.append(
            [
                s.start_number,
                s.name,
                modes[item.entrant.competition.mode],
                euros(s.fee_cents),
                s.fee_paid,
                s.lost,
                euros(s.donation_cents),
                s.donation_paid,
                euros(s.open_cents),
            ]
        )
    for extra in tournament.extra_donations.all():
        row: list[Value] = [None, extra.description, _("Spende"), None, None, None]
        row += [euros(extra.amount_cents), True, 0.0]
        table.rows.append(row)
    total = charity.evening(tournament, items)
    table.rows.append(
        [
            None,
            _("Summe des Abends: %(total)s") % {"total": euro_text(total.total_cents)},
            None,
            euros(total.fees_cents),
            None,
            sum(i.statement.lost for i in items),
            euros(total.donations_cents + total.extra_cents),
            None,
            euros(total.open_cents),
        ]
    )
    return table


def subranking_rows(
    tournament: Tournament,
    after_round: int | None = None,
    computed: Mapping[int, Standings] | None = None,
) -> list[RowTable]:
    """ "Kategorien" (one row per entrant and category, long format) and "Vereine"."""
    people = RowTable(
        slug="kategorien",
        title=_("Kategorien"),
        columns=[
            Column("competition", _("Wertung"), 9),
            Column("category", _("Kategorie"), 12),
            Column("place", _("Platz"), 7, INTEGER_FORMAT),
            Column("overall", _("Platz gesamt"), 12, INTEGER_FORMAT),
            Column("start_number", _("Startnummer"), 12, INTEGER_FORMAT),
            Column("name", _("Name")),
            Column("club", _("Verein")),
            Column("total", _("Punkte"), 10, POINTS_FORMAT),
        ],
    )
    clubs = RowTable(
        slug="vereine",
        title=_("Vereine"),
        columns=[
            Column("competition", _("Wertung"), 9),
            Column("place", _("Platz"), 7, INTEGER_FORMAT),
            Column("club", _("Verein")),
            Column("total", _("Punkte"), 10, POINTS_FORMAT),
            Column("members", _("Teilnehmer"), 11, INTEGER_FORMAT),
            Column("counted", _("gewertet")),
        ],
    )
    modes = {m: str(label) for m, label in Mode.choices}
    for competition in sorted(tournament.competitions.all(), key=lambda c: c.mode != Mode.SINGLES):
        known = (computed or {}).get(competition.pk)
        sub = sub_rankings(competition, after_round, standings=known)
        mode = modes[competition.mode]
        for cat in sub.categories:
            for r in cat.rows:
                e = r.row.entrant
                people.rows.append(
                    [
                        mode,
                        cat.label,
                        r.place.place,
                        r.place.overall,
                        e.start_number,
                        e.display_name,
                        e.club,
                        r.row.total,
                    ]
                )
        for c in sub.clubs:
            clubs.rows.append(
                [
                    mode,
                    c.place.place,
                    c.place.club,
                    c.place.total,
                    c.place.members,
                    ", ".join(f"{e.start_number} {e.display_name}" for e in c.counted),
                ]
            )
    return [people, clubs]


def charity_tables(
    tournament: Tournament,
    after_round: int | None = None,
    computed: Mapping[int, Standings] | None = None,
) -> list[RowTable]:
    """The charity sheets of the workbook (in the order of ``excel.workbook_tables``); the
    standings the workbook already computed (by competition id) are used, not computed again."""
    return [
        donations_rows(tournament),
        *subranking_rows(tournament, after_round, computed),
        statistics_rows(tournament, after_round),
    ]
