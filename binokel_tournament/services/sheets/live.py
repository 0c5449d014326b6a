"""What the desk sees of the others while it works: who is typing which sheet right now (their
working drafts, kept while they type), and which games of an open sheet someone else changed
since the page was opened (another desk, a table's phone) -- said in words, never applied to
what this desk has typed."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from ...models import ScoreSheet, SheetDraft, Table
from ..access import account_id
from . import sheet_fields as F
from .operations import SOURCE_TABLE
from .results import User

# A working draft saved within this time is someone typing now (the sheet keeps a draft on
# every pause in typing).
LIVE_SECONDS = 10 * 60


@dataclass(frozen=True)
class Typist:
    username: str
    at: datetime


def typists(table_ids: Iterable[int], now: datetime | None = None) -> dict[int, list[Typist]]:
    """Who is typing each of these tables' sheets right now (one query), newest first."""
    since = (now or timezone.now()) - timedelta(seconds=LIVE_SECONDS)
    rows = (
        SheetDraft.objects.filter(table_id__in=list(table_ids), updated_at__gte=since)
        .order_by("-updated_at")
        .values_list("table_id", "user__username", "updated_at")
    )
    out: dict[int, list[Typist]] = {}
    for table_id, username, at in rows:
        out.setdefault(table_id, []).append(Typist(username, at))
    return out


def others_typing(table: Table, user: User) -> list[Typist]:
    """Who else is typing this table's sheet right now (not ``user``)."""
    mine = account_id(user)
    since = timezone.now() - timedelta(seconds=LIVE_SECONDS)
    rows = (
        SheetDraft.objects.filter(table=table, updated_at__gte=since)
        .exclude(user_id=mine)
        .order_by("-updated_at")
        .values_list("user__username", "updated_at")
    )
    return [Typist(username, at) for username, at in rows]


@dataclass(frozen=True)
class ChangedGame:
    number: int
    by_table: bool

    @property
    def text(self) -> str:
        if self.number == F.TOTALS:
            return _("Summe laut Listenführer: von der Turnierleitung")
        if self.by_table:
            return _("Spiel %(n)s: vom Tisch-Handy") % {"n": self.number}
        return _("Spiel %(n)s: von der Turnierleitung") % {"n": self.number}


def changed_since(table: Table, seen: Mapping[str, str], version: int) -> list[ChangedGame]:
    """The parts of the table's sheet (games, and 0: the written totals) that differ from the
    stamps the page was opened with (``seen``: part -> stamp), when the sheet has moved on from
    ``version``."""
    sheet = (
        ScoreSheet.objects.filter(table=table).only("version", "entries", "game_sources").first()
    )
    if sheet is None or sheet.version == version:
        return []
    now = F.part_stamps(sheet.entries)
    sources = sheet.game_sources or {}
    numbers = {int(n) for n in seen if n.isdigit()} | set(now)
    return [
        ChangedGame(n, sources.get(str(n)) == SOURCE_TABLE)
        for n in sorted(numbers)
        if now.get(n, "") != seen.get(str(n), "")
    ]
