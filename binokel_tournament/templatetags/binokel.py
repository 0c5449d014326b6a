"""Template helpers of the desk."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.urls import reverse
from django.utils.formats import get_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

if TYPE_CHECKING:
    from ..services.evening.standings import StandingRow
    from ..services.money.charity import EntrantStatement
    from ..services.money.series import SeriesLine
    from ..services.money.subrankings import CategoryRow

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


@register.simple_tag(takes_context=True)
def money_rows(
    context: template.Context, slug: str, items: Iterable[EntrantStatement]
) -> SafeString:
    """The money page's rows, one per entrant: Startgeld, lost games, donation, what is open,
    and a paid/open button for fee and donation (each a small form posting to ``desk:pay``),
    every text escaped. One tag instead of a template loop: at 999 entrants the loop's two
    forms a row (a URL, the CSRF field and some twenty variables each) took most of the page's
    time (``benchmarks/scale.py``)."""
    from charity.money import euro_text

    csrf = CsrfTokenNode().render(context)  # the same field in every form of the page
    back = escape(context["request"].path)
    head, tail = escape(reverse("desk:pay", args=[slug, 0])).rsplit("/0/", 1)
    paid_text, open_text = escape(gettext("bezahlt")), escape(gettext("offen"))

    def button(what: str, attribute: str, pk: int, number: int, paid: bool) -> str:
        return (
            f'<form method="post" action="{head}/{pk}/{tail}" class="inline">{csrf}'
            f'<input type="hidden" name="what" value="{what}">'
            f'<input type="hidden" name="next" value="{back}">'
            f'<input type="hidden" name="paid" value="{0 if paid else 1}">'
            f'<button class="{"paid" if paid else "open"}" data-{attribute}="{number}">'
            f"{paid_text if paid else open_text}</button></form>"
        )

    html = []
    for item in items:
        e, s = item.entrant, item.statement
        number = e.start_number
        fee = button("fee", "fee", e.pk, number, s.fee_paid) if s.fee_cents else ""
        donation = (
            button("donation", "donation", e.pk, number, s.donation_paid)
            if s.donation_cents
            else ""
        )
        still_open = f"<strong>{euro_text(s.open_cents)}</strong>" if s.open_cents else "–"
        html.append(
            f'<tr id="e{number}">\n'
            f'<td class="num">{number}</td><td>{escape(e.display_name)}</td>\n'
            f'<td class="num">{euro_text(s.fee_cents)}</td>\n'
            f"<td>{fee}</td>\n"
            f'<td class="num">{s.lost}</td>\n'
            f'<td class="num">{euro_text(s.donation_cents)}</td>\n'
            f"<td>{donation}</td>\n"
            f'<td class="num">{still_open}</td>\n'
            "</tr>"
        )
    return mark_safe("".join(html))  # every text above is escaped


@register.simple_tag(takes_context=True)
def player_link_rows(context: template.Context, rows: Iterable[dict[str, Any]]) -> SafeString:
    """The rows of the page that links a tournament's entrants to the register: per person
    the register entry it is linked to (and "lösen"), or the candidates of its name and "neu
    ins Register", each a small form; every text escaped. One tag instead of a template loop:
    at 999 entrants the loop's forms took two thirds of the page's time."""
    csrf = CsrfTokenNode().render(context)
    unlink, new = escape(gettext("lösen")), escape(gettext("neu ins Register"))
    is_who = gettext("ist %(who)s")
    html = []
    for row in rows:
        e = row["entrant"]
        number = e.start_number
        club = f' <span class="muted">({escape(e.club)})</span>' if e.club else ""
        for p in row["people"]:
            partner = p["partner"]
            fields = (
                f'<input type="hidden" name="entrant" value="{e.pk}">'
                f'<input type="hidden" name="partner" value="{1 if partner else 0}">'
            )
            player = p["player"]
            if player:
                cell = (
                    f"#{player.pk} {escape(player)} "
                    f'<form method="post" class="inline">{csrf}{fields}'
                    f'<input type="hidden" name="action" value="unlink">'
                    f"<button>{unlink}</button></form>\n"
                )
            else:
                offers = "".join(
                    f'<form method="post" class="inline">{csrf}{fields}'
                    f'<input type="hidden" name="action" value="link">'
                    f'<input type="hidden" name="player" value="{c.pk}">'
                    f'<button class="primary" data-link="{c.pk}">'
                    f"{is_who % {'who': escape(c)}}</button></form> "
                    for c in p["candidates"]
                )
                cell = (
                    f"{offers}\n"
                    f'<form method="post" class="inline">{csrf}{fields}'
                    f'<input type="hidden" name="action" value="new">'
                    f'<button data-new="{number}">{new}</button></form>'
                )
            html.append(
                f'<tr id="e{number}{"p" if partner else ""}">\n'
                f'<td class="num">{"" if partner else number}</td>'
                f"<td>{escape(p['name'])}{club}</td>\n"
                f"<td>{cell}</td></tr>"
            )
        html.append("\n")
    return mark_safe("".join(html))  # every text above is escaped


@register.simple_tag
def series_rows(lines: Iterable[SeriesLine], public: bool = False) -> SafeString:
    """The rows of a series' standings: place, name (on a public page only with the player's
    consent), each evening's value (counted ones bold, the others in brackets, "–" where the
    player was not there) and the total; every text escaped. One tag instead of a template
    loop: at 999 entrants the loop took more than half of the page's time."""
    separator = get_format("THOUSAND_SEPARATOR")
    anonymous = f'<span class="muted">{escape(gettext("(ohne Namen)"))}</span>'

    def value(v: int | None, counted: bool) -> str:
        if v is None:
            return "–"
        text = escape(grouped(v, separator))
        return f"<strong>{text}</strong>" if counted else f"({text})"

    html = []
    for line in lines:
        row = line.row
        place = f"{row.place}.{' =' if row.shared else ''}" if row.place else "–"
        name = anonymous if public and not line.consent else escape(line.name)
        values = "".join(
            f'<td class="num">{value(v, c)}</td>'
            for v, c in zip(row.values, row.counted, strict=False)
        )
        html.append(
            f'<tr class="{"" if row.place else "muted"}"><td>{place}</td><td>{name}</td>\n'
            f'{values}<td class="num"><strong>{escape(grouped(row.total, separator))}</strong>'
            "</td></tr>\n"
        )
    return mark_safe("".join(html))  # every text above is escaped


@register.simple_tag
def category_rows(rows: Iterable[CategoryRow]) -> SafeString:
    """The rows of one category's ranking (its place, the overall place, start number, name,
    club, points), every text escaped: one tag instead of a template loop over every entrant
    of a category (at 999 entrants, most of the page's time)."""
    separator = get_format("THOUSAND_SEPARATOR")
    html = []
    for r in rows:
        e = r.row.entrant
        html.append(
            f"<tr><td>{escape(r.place_label)}</td><td>{r.place.overall}.</td>"
            f'<td class="num">{e.start_number}</td><td>{escape(e.listed_name)}</td>'
            f'<td>{escape(e.club)}</td><td class="num">{escape(grouped(r.row.total, separator))}'
            "</td></tr>"
        )
    return mark_safe("".join(html))  # every text above is escaped
