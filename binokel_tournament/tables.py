"""django-tables2 tables: the standings, with one column per round and the tie-break metrics.

django-tables2 gives the columns, headers and sorting; the body is rendered from plain value
rows (``StandingsTable.body``) by a lean template, since per-cell rendering through the table
machinery costs more than the whole ranking at 300 entrants."""

from __future__ import annotations

from html import escape  # the standard library's: no lazy-string wrapper per cell
from typing import Any

import django_tables2 as tables
from django.utils.formats import get_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from .numbers import grouped
from .services.evening.standings import Standings

NUMERIC = {"td": {"class": "num"}, "th": {"class": "num"}}
NOT_PLAYED_KEY = -(10**9)  # a round not played sorts below every score


class StandingsTable(tables.Table):
    place = tables.Column(verbose_name=_("Platz"), order_by=("sort_index",))
    start_number = tables.Column(verbose_name=_("Nr."), attrs=NUMERIC)
    name = tables.Column(verbose_name=_("Name"), order_by=("name_key",))
    club = tables.Column(verbose_name=_("Verein"))
    total = tables.Column(verbose_name=_("Gesamt"), attrs={"td": {"class": "num total"}})

    class Meta:
        attrs = {"class": "standings"}
        orderable = True
        template_name = "tables/standings_table.html"

    def css_of(self, name: str) -> str:
        """A column's class: ``num`` right-aligns, the rest lets a phone drop what it need not
        show (club, start number, tie-breaks) and keep place, name, rounds and total."""
        if name in ("place", "name", "club"):
            return name
        if name == "start_number":
            return "num start"
        if name == "total":
            return "num total"
        if name.startswith("round_"):
            return "num round"
        return "num metric"

    @property
    def head(self) -> list[tuple[Any, str]]:
        return [(column, self.css_of(column.name)) for column in self.columns]

    @property
    def body_html(self) -> SafeString:
        """The ``<tbody>`` rows as HTML, every value escaped; one string instead of a template
        loop over some 3,000 cells."""
        rows = []
        for cells in self.body:
            tds = "".join(f'<td class="{css}">{escape(str(value))}</td>' for css, value in cells)
            rows.append(f"<tr>{tds}</tr>")
        return mark_safe("".join(rows))  # noqa: S308 - built from escaped values only

    @property
    def body(self) -> list[list[tuple[str, Any]]]:
        """(css class, text) per cell, in column order, for the rows in their current order;
        points are grouped as the language writes them (1.220)."""
        columns = [(c.name, self.css_of(c.name)) for c in self.columns]
        separator = get_format("THOUSAND_SEPARATOR")  # once, not per cell
        return [
            [
                (
                    css,
                    "–"
                    if item[name] is None
                    else item[name]
                    if not css.startswith("num")
                    or name == "start_number"
                    or not isinstance(item[name], int)
                    else grouped(item[name], separator),
                )
                for name, css in columns
            ]
            for item in self.data
        ]


def standings_table(standings: Standings, request: Any = None) -> StandingsTable:
    data = []
    for index, row in enumerate(standings.rows):
        item: dict[str, Any] = {
            "sort_index": index,
            "place": row.place_label,
            "start_number": row.entrant.start_number,
            "name": row.entrant.listed_name,
            "name_key": row.entrant.display_name.lower(),
            "club": row.entrant.listed_club,
            "total": row.total,
        }
        for n, pts in zip(standings.rounds, row.round_points, strict=True):
            item[f"round_{n}"] = pts  # None: not played (yet), shown "–"
            item[f"round_{n}_key"] = NOT_PLAYED_KEY if pts is None else pts
        for metric in standings.metrics:
            item[metric.key] = row.metrics[metric.key]
        data.append(item)
    round_columns = [
        (
            f"round_{n}",
            tables.Column(
                verbose_name=_("D%(n)s") % {"n": n}, attrs=NUMERIC, order_by=(f"round_{n}_key",)
            ),
        )
        for n in standings.rounds
    ]
    metric_columns = [
        (m.key, tables.Column(verbose_name=m.label, attrs=NUMERIC)) for m in standings.metrics
    ]
    table = StandingsTable(data, extra_columns=round_columns + metric_columns)
    table.sequence = [
        "place",
        "start_number",
        "name",
        "club",
        *[key for key, _column in round_columns],
        "total",
        *[m.key for m in standings.metrics],
    ]
    if request is not None:
        tables.RequestConfig(request, paginate=False).configure(table)
    return table
