"""A sheet's games and their changes in words, for the desk: one game in a line, what a change
did ("Reizwert 230 → 500"), and what an audit entry of the sheet's writer says. Party columns
are named by their number on the sheet (1, 2, 3)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ...models import GameKind, SheetStatus
from . import sheet_fields as F


def _value(text: str | None) -> str:
    return text if text else "–"


def _tick(text: str | None) -> str:
    return _("ja") if text else _("nein")


def _kind(text: str | None) -> str:
    labels = dict(GameKind.choices)
    value = text or GameKind.PLAYED.value
    return str(labels.get(value, value))


def game_line(fields: Mapping[str, str], number: int, columns: int) -> str:
    """One game in a line: kind, declarer, bid, each party's meld / tricks."""
    if not fields:
        return _("nicht eingetragen")
    if number == F.TOTALS:
        return (
            _("Summe laut Listenführer")
            + " "
            + ", ".join(
                f"{c}: {_value(fields.get(F.total_field(c)))}" for c in range(1, columns + 1)
            )
        )
    parts = [
        _kind(fields.get(F.game_field(number, "kind"))),
        _("Spielmacher %(c)s") % {"c": _value(fields.get(F.game_field(number, "declarer")))},
        _("Reizwert %(bid)s") % {"bid": _value(fields.get(F.game_field(number, "bid")))},
    ]
    cells = []
    for c in range(1, columns + 1):
        meld = _value(fields.get(F.column_field(number, c, "meld")))
        tricks = _value(fields.get(F.column_field(number, c, "tricks")))
        revoked = fields.get(F.column_field(number, c, "revoked"))
        cells.append(f"{c}: {meld}/{tricks}" + (" " + _("verworfen") if revoked else ""))
    parts.append(_("Meldung/Stiche") + " " + ", ".join(cells))
    return " · ".join(parts)


def _labels() -> dict[str, str]:
    return {
        "kind": _("Art"),
        "dealer": _("Geber"),
        "declarer": _("Spielmacher"),
        "bid": _("Reizwert"),
        "notrick": _("ohne Stich"),
        "meld": _("Meldung"),
        "tricks": _("Stiche"),
        "revoked": _("verworfen"),
        "written": _("Liste"),
        "penalty": _("Minus"),
        "written-total": _("Summe laut Listenführer"),
    }


def part_changes(
    before: Mapping[str, str], after: Mapping[str, str], number: int, columns: int
) -> list[str]:
    """What changed in one part, field by field ("Reizwert 230 → 500", "Meldung 2: 20 → 40");
    a part added or removed as a whole in one line."""
    if not before and after:
        return [_("neu: %(game)s") % {"game": game_line(after, number, columns)}]
    if before and not after:
        return [_("gelöscht (war: %(game)s)") % {"game": game_line(before, number, columns)}]
    labels = _labels()
    out = []
    for name in sorted(set(before) | set(after), key=_order):
        old, new = before.get(name), after.get(name)
        if (old or "") == (new or ""):
            continue
        ref = F.parse_name(name)
        if ref is None:
            continue
        label = labels.get(ref.attr, ref.attr)
        if ref.column is not None:
            label = f"{label} {ref.column}"
        if ref.attr in ("notrick", "revoked"):
            shown = f"{_tick(old)} → {_tick(new)}"
        elif ref.attr == "kind":
            shown = f"{_kind(old)} → {_kind(new)}"
        else:
            shown = f"{_value(old)} → {_value(new)}"
        out.append(f"{label}: {shown}")
    return out


def _order(name: str) -> tuple[int, ...]:
    ref = F.parse_name(name)
    assert ref is not None
    attrs = (*F.GAME_FIELDS, *F.COLUMN_FIELDS, "written-total")
    return (ref.game or 0, ref.column or 0, attrs.index(ref.attr))


def part_title(number: int) -> str:
    if number == F.TOTALS:
        return _("Summe laut Listenführer")
    return _("Spiel %(n)s") % {"n": number}


_SOURCES = {
    "table": gettext_lazy("vom Tisch-Handy"),
    "simulation": gettext_lazy("Simulation"),
    "import": gettext_lazy("Import"),
    "paper": gettext_lazy("Papier übernommen"),
}


def source_label(source: str) -> str:
    """Who wrote, when it was not a desk person (the audit names those by their account)."""
    label = _SOURCES.get(source)
    return str(label) if label is not None else ""


def sheet_audit_lines(before: Any, after: Any, columns: int = 3) -> list[str]:
    """The lines of a sheet's audit entry written by the one writer: each changed part, the
    status, the paper check. Entries of an older shape give none (the page shows their fields)."""
    if not isinstance(after, dict) or "games" not in after or not isinstance(after["games"], dict):
        return []
    old_games = before.get("games", {}) if isinstance(before, dict) else {}
    lines = []
    for key in sorted(after["games"], key=lambda k: int(k) if str(k).isdigit() else 0):
        if not str(key).isdigit():
            continue
        number = int(key)
        changes = part_changes(old_games.get(key) or {}, after["games"][key] or {}, number, columns)
        lines.append(f"{part_title(number)}: " + "; ".join(changes))
    status_before = before.get("status") if isinstance(before, dict) else None
    status_after = after.get("status")
    if status_after and status_before and status_after != status_before:
        labels = dict(SheetStatus.choices)
        lines.append(
            _("Zettel: %(before)s → %(after)s")
            % {
                "before": labels.get(status_before, status_before),
                "after": labels.get(status_after, status_after),
            }
        )
    if after.get("table_confirmed") is True:
        lines.append(_("am Tisch bestätigt"))
    if isinstance(after.get("paper"), dict):
        games = after["paper"].get("games", [])
        lines.append(_("Papier blind eingetippt (%(n)s Spiele)") % {"n": len(games)})
    for key, took in (after.get("decisions") or {}).items():
        lines.append(
            _("Spiel %(n)s: das Papier gilt") % {"n": key}
            if took == "paper"
            else _("Spiel %(n)s: der Zettel gilt") % {"n": key}
        )
    return lines
