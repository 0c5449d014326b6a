"""The double check of a table that entered its games on a phone (with the tournament's
"Vier-Augen-Prinzip" on): the desk types the paper sheet into an empty form, independently of
the phone; afterwards every game where paper and phone differ is shown with both versions, and
the desk decides game by game -- take the phone's game, or the paper counts -- before the sheet
can be confirmed (``results.unresolved_paper``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _

from ...models import GameKind, ScoreSheet, Table, TableEntry
from ..access import Action, require
from ..audit import log_action
from ..errors import DeskError
from . import sheet_fields as F
from .results import SaveOutcome, User, load_table, locked_sheet, save_sheet, unresolved_paper
from .writes import write_transaction


def phone_entries(table: Table) -> dict[str, str]:
    """What the table last entered on its phone (empty: it entered nothing there)."""
    found = TableEntry.objects.filter(table=table).values_list("entries", flat=True).first()
    return dict(found or {})


def paper_pending(table: Table, sheet: ScoreSheet | None) -> bool:
    """Whether the desk's paper entry of this sheet is still to be typed: the double check is
    on, the table entered its games on a phone, and no desk person has typed the sheet since."""
    return (
        table.round.tournament.double_check
        and sheet is not None
        and sheet.entered_at_table
        and bool(phone_entries(table))
    )


@dataclass(frozen=True)
class Difference:
    number: int
    phone: str
    paper: str
    stamp: str  # the paper's game as it is now ("Papier gilt" records it)
    accepted: bool


def describe(entries: Mapping[str, str], number: int, columns: int) -> str:
    """One game of a sheet in a line: kind, declarer, bid, each party's meld / tricks."""
    values = F.game_values(entries, number, columns)
    if not any(F.game_of(name) == number for name in entries):
        return _("nicht eingetragen")
    labels = dict(GameKind.choices)
    kind = str(values["kind"])
    parts = [
        str(labels.get(kind, kind)),
        _("Spielmacher %(c)s") % {"c": values["declarer"] or "–"},
        _("Reizwert %(bid)s") % {"bid": values["bid"] or "–"},
    ]
    cells = []
    columns_values: list[dict[str, object]] = values["columns"]  # type: ignore[assignment]
    for c, column in enumerate(columns_values, start=1):
        meld = "–" if column["meld"] is None else column["meld"]
        tricks = "–" if column["tricks"] is None else column["tricks"]
        cells.append(f"{c}: {meld}/{tricks}" + (" " + _("verworfen") if column["revoked"] else ""))
    parts.append(_("Meldung/Stiche") + " " + ", ".join(cells))
    return " · ".join(parts)


def differences(table: Table, sheet: ScoreSheet | None) -> list[Difference]:
    """The games where the paper typed at the desk differs from the phone (none while the
    paper has not been typed)."""
    if sheet is None or sheet.entered_at_table or not table.round.tournament.double_check:
        return []
    phone = phone_entries(table)
    columns = table.seats.count()
    stamps = F.game_stamps(sheet.entries)
    accepted = sheet.paper_accepted or {}
    return [
        Difference(
            n,
            describe(phone, n, columns),
            describe(sheet.entries, n, columns),
            stamps.get(n, ""),
            accepted.get(str(n)) == stamps.get(n, ""),
        )
        for n in F.differing_games(phone, sheet.entries)
    ]


def accept_paper(table: Table, user: User, number: int, stamp: str) -> None:
    """The desk decided that the paper's game ``number`` counts (as it is now: ``stamp``)."""
    require(user, table.round.tournament, Action.ENTER_RESULTS)
    with write_transaction():
        sheet = locked_sheet(table)
        if sheet is None or F.game_stamps(sheet.entries).get(number, "") != stamp:
            raise DeskError(
                _("Spiel %(n)s wurde inzwischen geändert; bitte noch einmal vergleichen.")
                % {"n": number}
            )
        if number not in unresolved_paper(sheet):
            return
        sheet.paper_accepted = {**(sheet.paper_accepted or {}), str(number): stamp}
        sheet.save(update_fields=["paper_accepted", "updated_at"])
        log_action(
            table.round.tournament, user, "sheet.paper_accepted", sheet, None, {"game": number}
        )


def take_phone(table: Table, user: User, number: int, version: int) -> SaveOutcome:
    """The desk takes the phone's game ``number`` instead of what it typed from the paper: a
    new version of the sheet through the one writer (``version``: the one the desk saw)."""
    phone = phone_entries(table)
    sheet = ScoreSheet.objects.filter(table=table).first()
    entries = dict(sheet.entries) if sheet else {}
    taken = {k: v for k, v in phone.items() if F.game_of(k) == number}
    merged = {**F.without_game(entries, number), **taken}
    return save_sheet(load_table(table.pk), merged, user, version)
