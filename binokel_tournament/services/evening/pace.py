"""The pace of the evening from the database: when each round started, when each phone's
games arrived (the audit log's ``sheet.table`` entries), when each sheet was complete (the
last game from a phone, or the first save of a paper sheet typed at the desk) — handed to the
engine (``charity.pace``), which forecasts the round's end and the prize-giving.

The forecast is kept in the cache for a short while per tournament: the board, the beamer
and a hall of personal pages ask for it all the time, and all show this one (kept public
pages get it put in place when served: ``kept_forecast``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Min
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from charity.pace import Forecast, PacePlan, RoundClock, TableClock, forecast

from ...models import AuditLog, ScoreSheet, Seat, Table, Tournament
from ..server import public_cache
from ..server.cache_guard import cache
from ..sheets import sheet_fields as F

KEEP_SECONDS = 20  # a forecast is made again at most this often (and after every change)
PHONE_GAME = ("sheet.table",)
SHEET_SAVES = ("sheet.save", "sheet.confirm", "sheet.table_confirm")


def plan_of(tournament: Tournament) -> PacePlan:
    return PacePlan(
        minutes_per_game=float(tournament.pace_minutes),
        break_minutes=float(tournament.break_minutes),
    )


def round_clocks(tournament: Tournament) -> list[RoundClock]:
    """Every round with its tables' games as far as they arrived, and who sits there."""
    rules = tournament.rules()
    rounds = list(tournament.round_set.order_by("number"))
    tables = list(
        Table.objects.filter(round__tournament=tournament).values_list(
            "pk", "round_id", "number", "kind"
        )
    )
    # when each game first arrived from a phone (the entry names the games it brought) ...
    first_game: dict[int, dict[int, datetime]] = defaultdict(dict)
    phone_games = (
        AuditLog.objects.filter(tournament=tournament, object_type="ScoreSheet")
        .filter(action__in=PHONE_GAME)
        .order_by("at", "id")
        .values_list("object_id", "at", "after")
    )
    for object_id, at, after in phone_games:
        if object_id.isdigit() and isinstance(after, dict):
            for part in after.get("games", {}):
                if str(part).isdigit() and int(part) != F.TOTALS:
                    first_game[int(object_id)].setdefault(int(part), at)
    # ... and when each sheet was first saved (one row a sheet: no entry's contents read)
    first_save: dict[int, datetime] = {
        int(object_id): at
        for object_id, at in AuditLog.objects.filter(
            tournament=tournament, object_type="ScoreSheet", action__in=SHEET_SAVES
        )
        .values("object_id")
        .annotate(first=Min("at"))
        .values_list("object_id", "first")
        .order_by()
        if object_id.isdigit()
    }
    # which games a sheet holds now (a game taken back no longer counts): only for sheets
    # with games from a phone, since paper sheets have no arrival times to weigh
    sheets = ScoreSheet.objects.filter(table__round__tournament=tournament)
    fields = (
        ("pk", "table_id", "complete", "entries") if first_game else ("pk", "table_id", "complete")
    )
    by_table: dict[int, tuple[int, bool, set[int]]] = {}
    for pk, table_id, complete, *data in sheets.values_list(*fields):
        by_table[table_id] = (
            pk,
            complete,
            F.games_in(data[0]) if data and pk in first_game else set(),
        )
    # who sits at each table (the same entrant in every round: a slow player is slow again)
    seated: dict[int, list[int]] = defaultdict(list)
    for table_id, entrant_id in (
        Seat.objects.filter(table__round__tournament=tournament)
        .order_by("table_id", "position")
        .values_list("table_id", "entrant_id")
    ):
        seated[table_id].append(entrant_id)
    clocks: dict[int, list[TableClock]] = defaultdict(list)
    for pk, round_id, number, kind in tables:
        games = rules.games_for(kind)
        found = by_table.get(pk)
        arrived: tuple[datetime, ...] = ()
        finished = None
        if found is not None:
            sheet_pk, complete, present = found
            times = first_game.get(sheet_pk, {})
            arrived = tuple(sorted(t for n, t in times.items() if n in present))
            if complete:
                finished = arrived[-1] if len(arrived) >= games else first_save.get(sheet_pk)
                if finished is None and arrived:
                    finished = arrived[-1]
        clocks[round_id].append(
            TableClock(number, games, arrived, finished, tuple(seated.get(pk, ())))
        )
    return [
        RoundClock(r.number, r.started_at, tuple(sorted(clocks[r.pk], key=lambda t: t.number)))
        for r in rounds
    ]


def _now() -> datetime:
    return timezone.now()


def _key(slug: str) -> str:
    # a round started (or its start taken back) and a changed plan change every public
    # page's generation (model signals, audited changes): the forecast is made anew at once
    return f"binokel:pace:{slug}:{public_cache.generation()}"


_recent = public_cache.Recent(100)  # the forecasts this process read last, by key


def _kept(slug: str, make: Callable[[], Tournament | None]) -> Forecast | None:
    """The one kept forecast of the tournament ``slug`` while it is younger than
    ``KEEP_SECONDS``, else made anew now (from the tournament ``make`` loads)."""
    key = _key(slug)
    now = _now()
    # the forecast this process read last, while it is young enough: every process takes the
    # same one from the cache until then, and none makes a new one before (a forecast of a
    # full hall is some 20 KB to unpickle, for every page served with it)
    kept = _recent.get(key)
    if kept is None or now - kept[0] >= timedelta(seconds=KEEP_SECONDS):
        kept = cache.get(key)
    if kept is not None and now - kept[0] < timedelta(seconds=KEEP_SECONDS):
        _recent.put(key, kept)
        return kept[1]
    renewing = kept is not None
    if renewing and not cache.add(key + public_cache.MAKING, 1, KEEP_SECONDS):
        return kept[1]  # another request is making the new one: the old one until then
    try:
        tournament = make()
        if tournament is None:
            return None
        result = forecast(round_clocks(tournament), now, plan_of(tournament))
        cache.set(key, (now, result), KEEP_SECONDS * 3)
        _recent.put(key, (now, result))
    finally:
        if renewing:
            cache.delete(key + public_cache.MAKING)
    return result


def evening_forecast(tournament: Tournament, now: datetime | None = None) -> Forecast | None:
    """The forecast of the round being played and of the prize-giving (None before the first
    round and after the last). Made at most every ``KEEP_SECONDS`` per tournament and kept for
    all who ask (the board, the beamer, every player's page): the forecast moves by minutes,
    while the games arrive every few seconds. Every page shows this one kept forecast, so they
    all show the same, at most ``KEEP_SECONDS`` old."""
    if now is not None:
        return forecast(round_clocks(tournament), now, plan_of(tournament))
    return _kept(tournament.slug, lambda: tournament)


def kept_forecast(slug: str) -> Forecast | None:
    """The same kept forecast by the tournament's slug: a public page kept in the cache puts
    it in place when it is served (views/cached.py), so a page made before the last games
    came in shows the forecast of now, not of when the page was made."""
    return _kept(slug, lambda: Tournament.across_vereine.filter(slug=slug).first())


@dataclass(frozen=True)
class PaceLine:
    """The forecast in words, for the board, the beamer and the players' pages."""

    text: str
    basis: str
    behind: tuple[int, ...]  # tables far behind (for the desk)


def _clock(at: datetime) -> str:
    return formats.time_format(timezone.localtime(at), "H:i")


def pace_line(result: Forecast | None) -> PaceLine | None:
    """ "Durchgang 2 endet voraussichtlich ca. 21:40 · Siegerehrung ca. 23:10" and its basis
    "aus 68 Spielen, 3,4 min je Spiel" (before any game: "nach Plan, 4,0 min je Spiel")."""
    if result is None:
        return None
    text = _(
        "Durchgang %(round)s endet voraussichtlich ca. %(end)s · Siegerehrung ca. %(prize)s"
    ) % {
        "round": result.round,
        "end": _clock(result.round_end),
        "prize": _clock(result.prize_giving),
    }
    minutes = formats.number_format(round(result.minutes_per_game, 1), 1)
    if result.games_seen:
        basis = _("aus %(games)s Spielen, %(minutes)s min je Spiel") % {
            "games": result.games_seen,
            "minutes": minutes,
        }
    else:
        basis = _("nach Plan, %(minutes)s min je Spiel") % {"minutes": minutes}
    return PaceLine(text, basis, tuple(t.number for t in result.behind))
