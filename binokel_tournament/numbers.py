"""Numbers as the active language writes them, one locale per page: points (1.220 in German,
1,220 in English), amounts (1.075,00 € / €1,075.00) and percentages (82,3 % / 82.3%). Every
page, printout and chart asks here (the template filters ``points``, ``euro`` and ``percent``
too), so an English page never shows a German amount beside English points
(tests/web/test_number_formats.py)."""

from __future__ import annotations

from django.utils.formats import get_format
from django.utils.translation import get_language

MINUS = "−"  # a real minus sign: long columns read at a glance


def grouped(value: int, separator: str) -> str:
    """1220 -> "1.220" with the given separator; negative numbers with a real minus sign."""
    text = f"{abs(value):,}".replace(",", separator)
    return f"{MINUS}{text}" if value < 0 else text


def _german() -> bool:
    return (get_language() or "de").split("-")[0] == "de"


def points(value: int) -> str:
    """Points grouped as the active language writes them."""
    return grouped(value, get_format("THOUSAND_SEPARATOR"))


def decimal(value: float, digits: int = 1) -> str:
    """A figure with ``digits`` decimals and the active language's decimal separator."""
    text = f"{abs(value):,.{digits}f}"
    whole, _dot, rest = text.partition(".")
    whole = whole.replace(",", get_format("THOUSAND_SEPARATOR"))
    text = f"{whole}{get_format('DECIMAL_SEPARATOR')}{rest}" if rest else whole
    return f"{MINUS}{text}" if value < 0 and round(abs(value), digits) > 0 else text


def euro(cents: int) -> str:
    """Cents as euros: "1.075,00 €" in German, "€1,075.00" in English."""
    sign = MINUS if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    amount = f"{grouped(whole, get_format('THOUSAND_SEPARATOR'))}"
    amount += f"{get_format('DECIMAL_SEPARATOR')}{rest:02d}"
    return f"{sign}{amount}\u00a0€" if _german() else f"{sign}€{amount}"


def percent(value: float, digits: int = 1) -> str:
    """A share in per cent (``value`` 0.823 → "82,3 %" in German, "82.3%" in English)."""
    number = decimal(100 * value, digits)
    return f"{number}\u00a0%" if _german() else f"{number}%"
