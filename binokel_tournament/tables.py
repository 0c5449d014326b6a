"""django-tables2 tables: the standings, with one column per round and the tie-break metrics."""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from .services.standings import Standings


class StandingsTable(tables.Table):
    place = tables.Column(verbose_name=_("Platz"), accessor="place_label", order_by=("sort_index",))
    start_number = tables.Column(verbose_name=_("Startnr."), accessor="entrant__start_number")
    name = tables.Column(
        verbose_name=_("Name"), accessor="entrant__display_name", order_by=("name_key",)
    )
    club = tables.Column(verbose_name=_("Verein"), accessor="entrant__club")
    total = tables.Column(verbose_name=_("Gesamt"), attrs={"td": {"class": "num total"}})

    class Meta:
        attrs = {"class": "standings"}
        orderable = True
        template_name = "django_tables2/table.html"
        sequence = ("place", "start_number", "name", "club", "...", "total")


def standings_table(standings: Standings, request: Any = None) -> StandingsTable:
    data = []
    for index, row in enumerate(standings.rows):
        item: dict[str, Any] = {
            "sort_index": index,
            "place_label": row.place_label,
            "entrant": row.entrant,
            "name_key": row.entrant.display_name.lower(),
            "total": row.total,
        }
        for n, pts in zip(standings.rounds, row.round_points, strict=True):
            item[f"round_{n}"] = pts
        for metric in standings.metrics:
            item[metric.key] = row.metrics[metric.key]
        data.append(item)
    extra: list[tuple[str, tables.Column]] = [
        (
            f"round_{n}",
            tables.Column(verbose_name=_("D%(n)s") % {"n": n}, attrs={"td": {"class": "num"}}),
        )
        for n in standings.rounds
    ]
    extra += [
        (m.key, tables.Column(verbose_name=m.label, attrs={"td": {"class": "num"}}))
        for m in standings.metrics
    ]
    table = StandingsTable(data, extra_columns=extra)
    table.sequence = [
        "place",
        "start_number",
        "name",
        "club",
        *[k for k, _c in extra[: len(standings.rounds)]],
        "total",
        *[m.key for m in standings.metrics],
    ]
    if request is not None:
        tables.RequestConfig(request, paginate=False).configure(table)
    return table
