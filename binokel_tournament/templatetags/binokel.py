"""Template helpers of the desk."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django import template
from django.utils.formats import get_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

if TYPE_CHECKING:
    from ..services.standings import StandingRow

register = template.Library()


def grouped(value: int, separator: str) -> str:
    """1220 -> "1.220" with the given separator; negative numbers with a real minus sign."""
    text = f"{abs(value):,}".replace(",", separator)
    return f"−{text}" if value < 0 else text


@register.filter
def points(value: object) -> str:
    """Points as the active language writes them, grouped (1.220 in German) and with a real
    minus sign, so long columns read at a glance."""
    if not isinstance(value, int) or isinstance(value, bool):
        return "" if value is None else str(value)
    return grouped(value, get_format("THOUSAND_SEPARATOR"))


@register.filter
def euro(value: object) -> str:
    """Cents as euros, German style: 650 → "6,50 €"."""
    from charity.money import euro_text

    if not isinstance(value, int) or isinstance(value, bool):
        return "" if value is None else str(value)
    return euro_text(value)


@register.filter
def zip_lists(first: object, second: object) -> list[tuple[object, object]]:
    """Two lists side by side (a series' values and whether each counts)."""
    return list(zip(first, second, strict=False))  # type: ignore[call-overload]


@register.simple_tag
def beamer_rows(rows: Iterable[StandingRow]) -> SafeString:
    """The beamer's table rows (place, start number, name, points per round, total), every
    text escaped. One tag instead of a template loop: at 999 entrants the loop's 7,000
    variables took half of the page's time (``benchmarks/scale.py``)."""
    separator = get_format("THOUSAND_SEPARATOR")

    def number(value: int | None) -> str:
        return "–" if value is None else escape(grouped(value, separator))

    html = []
    for row in rows:
        start = row.entrant.start_number
        rounds = "".join(f'<td class="num">{number(p)}</td>' for p in row.round_points)
        html.append(
            f'<tr data-start="{start}"><td>{escape(row.place_label)}</td>'
            f'<td class="num">{start}</td><td class="name">{escape(row.entrant.listed_name)}</td>'
            f'{rounds}<td class="num"><strong>{number(row.total)}</strong></td></tr>'
        )
    return mark_safe("".join(html))  # every text above is escaped
