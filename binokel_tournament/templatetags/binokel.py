"""Template helpers of the desk."""

from __future__ import annotations

from django import template

from .. import numbers
from ..numbers import grouped

__all__ = ["grouped", "register"]

register = template.Library()


@register.filter
def points(value: object) -> str:
    """Points as the active language writes them, grouped (1.220 in German) and with a real
    minus sign, so long columns read at a glance."""
    if not isinstance(value, int) or isinstance(value, bool):
        return "" if value is None else str(value)
    return numbers.points(value)


@register.filter
def euro(value: object) -> str:
    """Cents as euros in the active language: 650 → "6,50 €" (German), "€6.50" (English)."""
    if not isinstance(value, int) or isinstance(value, bool):
        return "" if value is None else str(value)
    return numbers.euro(value)


@register.filter
def get_item(mapping: object, key: object) -> object:
    """``mapping[key]``, or None (a template cannot index a dict by a variable)."""
    return mapping.get(key) if isinstance(mapping, dict) else None


@register.filter
def zip_lists(first: object, second: object) -> list[tuple[object, object]]:
    """Two lists side by side (a series' values and whether each counts)."""
    return list(zip(first, second, strict=False))  # type: ignore[call-overload]
