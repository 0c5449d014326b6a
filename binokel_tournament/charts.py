"""Small charts as server-rendered SVG (no JavaScript, no CDN): a bar chart of labelled
counts, readable on the beamer from the back of the hall."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from django.utils.safestring import SafeString, mark_safe

from .numbers import points

WIDTH, HEIGHT = 640, 300
PAD_LEFT, PAD_BOTTOM, PAD_TOP = 16, 44, 28
BAR_COLOUR = "#2e6b47"


def bar_chart(items: Sequence[tuple[str, int]], title: str, value_text: bool = True) -> SafeString:
    """Bars for ``items`` (label, value ≥ 0), the value above each bar."""
    top = max((v for _l, v in items), default=0) or 1
    n = max(len(items), 1)
    slot = (WIDTH - 2 * PAD_LEFT) / n
    bar = slot * 0.7
    room = HEIGHT - PAD_BOTTOM - PAD_TOP
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="{escape(title)}" class="chart">',
        f"<title>{escape(title)}</title>",
        f'<line x1="{PAD_LEFT}" y1="{HEIGHT - PAD_BOTTOM}" x2="{WIDTH - PAD_LEFT}" '
        f'y2="{HEIGHT - PAD_BOTTOM}" stroke="#888"/>',
    ]
    for i, (label, value) in enumerate(items):
        h = room * max(value, 0) / top
        x = PAD_LEFT + i * slot + (slot - bar) / 2
        y = HEIGHT - PAD_BOTTOM - h
        parts.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar:.1f}" height="{h:.1f}" '
            f'fill="{BAR_COLOUR}"><title>{escape(label)}: {value}</title></rect>'
        )
        centre = x + bar / 2
        if value_text:
            shown = points(value)
            parts.append(
                f'<text x="{centre:.1f}" y="{y - 6:.1f}" text-anchor="middle" '
                f'font-size="16">{shown}</text>'
            )
        parts.append(
            f'<text x="{centre:.1f}" y="{HEIGHT - PAD_BOTTOM + 22}" text-anchor="middle" '
            f'font-size="15">{escape(label)}</text>'
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - every label escaped above
