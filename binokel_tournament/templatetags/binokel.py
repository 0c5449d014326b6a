"""Template helpers of the desk."""

from __future__ import annotations

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def points(value: object) -> str:
    """Points as the active language writes them, grouped (1.220 in German) and with a real
    minus sign, so long columns read at a glance."""
    if not isinstance(value, int) or isinstance(value, bool):
        return "" if value is None else str(value)
    text = number_format(abs(value), force_grouping=True)
    return f"−{text}" if value < 0 else text
