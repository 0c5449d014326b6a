"""Template helpers of the desk."""

from __future__ import annotations

from django import template
from django.utils.formats import get_format

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
def get_item(mapping: object, key: object) -> object:
    """``mapping[key]``, or None (a template cannot index a dict by a variable)."""
    return mapping.get(key) if isinstance(mapping, dict) else None


@register.filter
def zip_lists(first: object, second: object) -> list[tuple[object, object]]:
    """Two lists side by side (a series' values and whether each counts)."""
    return list(zip(first, second, strict=False))  # type: ignore[call-overload]
