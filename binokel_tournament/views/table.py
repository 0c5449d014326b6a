"""The tables' own pages: a phone opens its table's link (a QR code on the table card), checks
who sits where, enters the games as they are played, and the opponents confirm the sheet at the
end of the round. No login: the link is the key, and opens that one table and nothing else.

The page is one HTML document whose script keeps everything in the phone (localStorage) and
sends each game to ``…/spiel/`` in order, once the connection allows; these endpoints answer in
JSON. Each request is counted against the link's rate limit (``TABLE_LINK_LIMIT``), requests
with unknown links against the device's (``TABLE_GUESS_LIMIT``)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

from ..models import Table
from ..services.errors import DeskError, active_language
from ..services.rounds.state import RoundNotStarted, require_started
from ..services.server.client_address import client_address
from ..services.server.throttle import allow, exceeded
from ..services.sheets import table_entry
from ..services.sheets.operations import GameRefused, StaleConfirmation, TableLocked
from ..services.sheets.results import SheetEvaluation
from ..services.sheets.table_entry import GameConflict, TableLinkError
from .common import plain_int

TableView = Callable[..., HttpResponse]
_GAME_FIELD = re.compile(r"^games\[\d+\]\.?")
_COLUMN = re.compile(r"^columns\[(\d+)\]")
MAX_BODY = 20_000  # bytes: one game is a few hundred
MAX_DEPTH = 8  # lists and objects in lists and objects: a game is 4 deep


def _refused(request: HttpRequest, message: str, status: int) -> HttpResponse:
    if request.method == "GET" and "application/json" not in request.headers.get("Accept", ""):
        return render(request, "table/refused.html", {"message": message}, status=status)
    return JsonResponse({"ok": False, "message": message}, status=status)


def table_link(view: TableView) -> TableView:
    """Open the link's table (404 for an unknown or dead link), within the rate limits."""

    @wraps(view)
    def wrapper(request: HttpRequest, token: str, *args: Any, **kwargs: Any) -> HttpResponse:
        # A valid link is never refused for other devices' wrong guesses behind the same
        # address (a hall's phones share the router's): only unknown links count and are
        # refused. A link holds 128 random bits, so the limit bounds the load of guessing,
        # not the odds of a hit.
        guesses = f"guess:{client_address(request)}"
        too_many = _("Zu viele Versuche. Bitte eine Minute warten.")
        try:
            table = table_entry.table_by_token(token)
        except TableLinkError as exc:  # an unknown or dead link counts as a guess
            if exceeded(guesses, settings.TABLE_GUESS_LIMIT, settings.TABLE_GUESS_WINDOW):
                return _refused(request, too_many, 429)
            if not allow(guesses, settings.TABLE_GUESS_LIMIT, settings.TABLE_GUESS_WINDOW):
                return _refused(request, too_many, 429)
            return _refused(request, exc.message, 404)
        limit, window = settings.TABLE_LINK_LIMIT, settings.TABLE_LINK_WINDOW
        if not allow(f"table:{table.pk}", limit, window):
            return _refused(
                request, _("Zu viele Anfragen von diesem Tisch. Bitte kurz warten."), 429
            )
        try:
            return view(request, table, *args, **kwargs)
        except RoundNotStarted as exc:  # a link printed in advance: nothing taken, nothing locked
            return _not_started(request, table, exc)

    return wrapper


def _not_started(request: HttpRequest, table: Table, exc: RoundNotStarted) -> HttpResponse:
    if request.method == "GET" and "application/json" not in request.headers.get("Accept", ""):
        context = {"table": table, "message": exc.message, "refresh": settings.TABLE_POLL_SECONDS}
        return render(request, "table/not_started.html", context)
    return JsonResponse({"ok": False, "not_started": True, "message": exc.message}, status=409)


def _body(request: HttpRequest) -> dict[str, Any]:
    if len(request.body) > MAX_BODY:
        raise DeskError(_("Die Anfrage ist zu groß."))
    try:
        data = json.loads(request.body or b"{}")
    except RecursionError:  # nested deeper than the parser goes
        raise DeskError(_("Die Anfrage ist zu tief verschachtelt.")) from None
    except ValueError:
        raise DeskError(_("Die Anfrage ist nicht lesbar.")) from None
    if not isinstance(data, dict):
        raise DeskError(_("Die Anfrage ist nicht lesbar."))
    if _depth(data) > MAX_DEPTH:  # what the parser read, nothing after it need go that deep
        raise DeskError(_("Die Anfrage ist zu tief verschachtelt."))
    return data


def _depth(value: object) -> int:
    """How deeply lists and objects nest in ``value`` (a plain value: 0), without recursion."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth + 1)
        if deepest > MAX_DEPTH:
            break
        stack.extend((child, depth + 1) for child in children)
    return deepest


def _number(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 0 <= value < 10**9 else None
    return plain_int(str(value).strip()) if value is not None else None


def _phone_field(engine_field: str) -> str:
    """An engine field of one game as the phone names it: ``games[2].columns[1].tricks`` ->
    ``columns.2.tricks`` (columns 1-based), ``games[2].bid`` -> ``bid``."""
    name = _GAME_FIELD.sub("", engine_field)
    return _COLUMN.sub(lambda m: f"columns.{int(m.group(1)) + 1}", name).replace("].", ".")


def _game_answer(evaluation: SheetEvaluation, number: int) -> dict[str, Any]:
    game = evaluation.score.games[number - 1]
    lang = active_language()
    messages: dict[str, list[str]] = {}
    for error in game.errors:
        messages.setdefault(_phone_field(error.field), []).append(error.text(lang))
    return {
        "number": number,
        "points": None if game.points is None else list(game.points),
        "won": game.won,
        "running": list(game.running),
        "messages": messages,
        "notes": [w.text(lang) for w in game.warnings],
    }


def phone_strings() -> dict[str, str]:
    """The words the page's script shows, in the page's language."""
    return {
        "all_sent": _("Alles ist bei der Turnierleitung."),
        "pending": _("Noch nicht bei der Turnierleitung: %(n)s"),
        "offline": _(
            "Keine Verbindung: alles bleibt in diesem Handy und wird gesendet, sobald das Netz "
            "wieder da ist. Bitte nicht neu laden (falls doch: im Netz noch einmal laden)."
        ),
        "sending": _("Wird gesendet …"),
        "dead_link": _(
            "Dieser Tisch-Link gilt nicht mehr. Nichts ist verloren (es steht auch auf dem "
            "Zettel): bitte die Turnierleitung rufen."
        ),
        "game": _("Spiel"),
        "dealer": _("Geber"),
        "dealer_later": _("Geber: wird nach dem Senden angezeigt"),
        "dealer_choose": _("Wer gibt? (Nach dem Durch gibt der Durch-Spieler)"),
        "declarer": _("Spielmacher"),
        "kind": _("Art"),
        "bid": _("Reizwert"),
        "meld": _("Meldung"),
        "tricks": _("Stiche"),
        "penalty": _("Minuspunkte"),
        "revoked": _("verworfen"),
        "notrick": _("Spielmacher ohne Stich"),
        "sits_out": _("setzt aus"),
        "save_game": _("Spiel %(n)s eintragen"),
        "edit": _("ändern"),
        "not_sent": _("nicht gesendet"),
        "checking": _("wird geprüft …"),
        "check_later": _("Prüfung, sobald eine Verbindung besteht."),
        "points": _("Punkte"),
        "total": _("Summe"),
        "seats_title": _("Wer sitzt wo?"),
        "seats_help": _(
            "Bitte die Startnummern so eintragen, wie ihr sitzt (Platz 1 gibt das erste Spiel)."
        ),
        "seat": _("Platz %(n)s"),
        "deals_first": _("gibt zuerst"),
        "keeps_score": _("schreibt"),
        "seats_ok": _("Plätze prüfen"),
        "seats_later": _("später"),
        "seats_done": _("Plätze geprüft ✓"),
        "finish_title": _("Runde abschließen"),
        "finish_help": _(
            "Die Gegenspieler des Listenführers prüfen den Zettel und bestätigen jeweils mit "
            "ihrer eigenen Startnummer. Danach kann nur noch die Turnierleitung ändern."
        ),
        "start_number_of": _("Startnummer von %(name)s"),
        "confirm": _("Zettel bestätigen"),
        "locked": _(
            "Der Zettel ist bestätigt – vielen Dank! Ändern kann ihn jetzt nur noch die "
            "Turnierleitung."
        ),
        "confirmed_desk": _("Die Turnierleitung hat den Zettel bestätigt."),
        "call": _("Turnierleitung rufen"),
        "calling": _("Ruf wird gesendet …"),
        "called": _("Die Turnierleitung ist gerufen."),
        "coming": _("Die Turnierleitung kommt."),
        "changed_desk": _("Die Turnierleitung hat Spiel %(n)s geändert: %(what)s"),
        "changed_phone": _("Ein anderes Handy hat Spiel %(n)s geändert: %(what)s"),
        "added_desk": _("Die Turnierleitung hat Spiel %(n)s eingetragen."),
        "added_phone": _("Ein anderes Handy hat Spiel %(n)s eingetragen."),
        "removed_desk": _("Die Turnierleitung hat Spiel %(n)s gelöscht."),
        "removed_phone": _("Ein anderes Handy hat Spiel %(n)s gelöscht."),
        # what one writer did to several games, in one line ("die Spiele 1–5", "1, 3 und 7")
        "changed_desk_many": _("Die Turnierleitung hat die Spiele %(games)s geändert: %(what)s"),
        "changed_phone_many": _("Ein anderes Handy hat die Spiele %(games)s geändert: %(what)s"),
        "added_desk_many": _("Die Turnierleitung hat die Spiele %(games)s eingetragen."),
        "added_phone_many": _("Ein anderes Handy hat die Spiele %(games)s eingetragen."),
        "removed_desk_many": _("Die Turnierleitung hat die Spiele %(games)s gelöscht."),
        "removed_phone_many": _("Ein anderes Handy hat die Spiele %(games)s gelöscht."),
        "game_what": _("Spiel %(n)s: %(what)s"),
        "and": _("und"),
        "seen": _("Gesehen"),
        "yes": _("ja"),
        "no": _("nein"),
        "conflict_title": _("Spiel %(n)s: zwei Fassungen"),
        "theirs_desk": _("Fassung der Turnierleitung (gespeichert)"),
        "theirs_phone": _("Fassung des anderen Handys (gespeichert)"),
        "mine": _("Ihre Fassung (nicht gespeichert)"),
        "keep_mine": _("Meine Fassung speichern"),
        "keep_theirs": _("Die gespeicherte Fassung behalten"),
        "deleted": _("gelöscht"),
        "delete_game": _("Spiel %(n)s löschen"),
        "delete_sure": _("Spiel %(n)s wirklich löschen? Noch einmal tippen."),
        "refused": _("Nicht eingetragen:"),
        "next": _("Nächstes Spiel"),
    }


@never_cache
@ensure_csrf_cookie
@require_GET
@table_link
def page(request: HttpRequest, table: Table) -> HttpResponse:
    require_started(table.round)
    state = table_entry.phone_state(table)
    return render(
        request,
        "table/page.html",
        {
            "table": table,
            "state": state,
            "strings": phone_strings(),
            "token": table.entry_token,
            "poll_ms": int(settings.TABLE_POLL_SECONDS * 1000),
        },
    )


@never_cache
@require_GET
def state(request: HttpRequest, token: str) -> HttpResponse:
    """The table's state; ``?since=STAMP`` (the ``stamp`` of the state the phone shows) gets a
    short "unchanged" while nothing the phone shows has changed (its regular poll, every few
    seconds from every table: answered from the stamp's values alone, within the link's rate
    limit; anything else, a changed state or a link that opens nothing, as the table's page)."""
    since = request.GET.get("since")
    polled = table_entry.polled_stamp(token) if since else None
    if polled is not None and polled[1] == since:
        limit, window = settings.TABLE_LINK_LIMIT, settings.TABLE_LINK_WINDOW
        if allow(f"table:{polled[0]}", limit, window):
            return JsonResponse({"ok": True, "unchanged": True})
    return _state(request, token)


@table_link
def _state(request: HttpRequest, table: Table) -> HttpResponse:
    require_started(table.round)
    if request.GET.get("since") == table_entry.phone_stamp(table):
        return JsonResponse({"ok": True, "unchanged": True})
    return JsonResponse({"ok": True, "state": table_entry.phone_state(table)})


@require_POST
@table_link
def seats(request: HttpRequest, table: Table) -> HttpResponse:
    try:
        data = _body(request)
    except DeskError as exc:
        return JsonResponse({"ok": False, "message": exc.message}, status=400)
    raw = data.get("numbers")
    numbers = [_number(n) for n in raw] if isinstance(raw, list) else []
    problems = table_entry.check_seats(table, numbers)
    if problems:
        return JsonResponse({"ok": False, "problems": problems}, status=400)
    return JsonResponse({"ok": True, "state": table_entry.phone_state(table)})


@require_POST
@table_link
def check(request: HttpRequest, table: Table) -> HttpResponse:
    """The engine's messages, points and running totals for a game being typed (not kept)."""
    require_started(table.round)
    try:
        data = _body(request)
    except DeskError as exc:
        return JsonResponse({"ok": False, "message": exc.message}, status=400)
    number = _number(data.get("number"))
    games = table.round.tournament.rules().games_for(table.kind)
    values = data.get("game")
    if number is None or not 1 <= number <= games or not isinstance(values, dict):
        return JsonResponse({"ok": False, "message": _("Unbekanntes Spiel.")}, status=400)
    evaluation = table_entry.check_game(table, number, values)
    answer = _game_answer(evaluation, number)
    seq = data.get("seq")  # the phone's counter, echoed: a number or nothing
    seq = seq if isinstance(seq, int) and not isinstance(seq, bool) else None
    return JsonResponse({"ok": True, "seq": seq, "game": answer})


@require_POST
@table_link
def game(request: HttpRequest, table: Table) -> HttpResponse:
    """Keep one game: ``{"op": key, "number": n, "base": stamp, "game": {...}}``, or remove it:
    ``{"op": key, "number": n, "base": stamp, "delete": true}``. The same key again is the same
    save; a game changed since ``base`` is refused with both versions (409, ``conflict``)."""
    try:
        data = _body(request)
        number = _number(data.get("number"))
        delete = data.get("delete") is True
        values = data.get("game")
        if number is None or (not delete and not isinstance(values, dict)):
            raise DeskError(_("Unbekanntes Spiel."))
        base = data.get("base")
        op = str(data.get("op", ""))[:64]
        saved = table_entry.save_game(
            table, number, values, op, base if isinstance(base, str) else None, delete
        )
    except GameConflict as exc:
        conflict = {
            "number": exc.number,
            "stamp": exc.stamp,
            "by": exc.source,
            "theirs": exc.theirs,
            "mine": None if data.get("delete") is True else data.get("game"),
        }
        return JsonResponse({"ok": False, "message": exc.message, "conflict": conflict}, status=409)
    except GameRefused as exc:
        return JsonResponse(
            {"ok": False, "message": exc.message, "messages": _phone_messages(exc.messages)},
            status=400,
        )
    except TableLocked as exc:
        return JsonResponse({"ok": False, "locked": True, "message": exc.message}, status=409)
    except DeskError as exc:
        return JsonResponse({"ok": False, "message": exc.message}, status=400)
    if saved.repeated:  # the table as it is now (a new save updated ``table`` itself)
        table = table_entry.table_by_token(table.entry_token or "")
    return JsonResponse(
        {
            "ok": True,
            "repeated": saved.repeated,
            "state": table_entry.phone_state(table, saved.evaluation),
        }
    )


def _phone_messages(messages: dict[str, list[str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for field, texts in messages.items():
        out.setdefault(_phone_field(field), []).extend(texts)
    return out


@require_POST
@table_link
def confirm(request: HttpRequest, table: Table) -> HttpResponse:
    try:
        data = _body(request)
        raw = data.get("numbers")
        numbers = [_number(n) for n in raw] if isinstance(raw, list) else []
        table_entry.confirm_at_table(table, numbers, _number(data.get("version")))
    except StaleConfirmation as exc:
        fresh = table_entry.table_by_token(table.entry_token or "")
        return JsonResponse(
            {
                "ok": False,
                "stale": True,
                "message": exc.message,
                "state": table_entry.phone_state(fresh),
            },
            status=409,
        )
    except DeskError as exc:
        return JsonResponse({"ok": False, "message": exc.message}, status=400)
    table = table_entry.table_by_token(table.entry_token or "")
    return JsonResponse({"ok": True, "state": table_entry.phone_state(table)})


@require_POST
@table_link
def call(request: HttpRequest, table: Table) -> HttpResponse:
    """The table calls the desk; the answer carries the state with the call in it, so the phone
    says "gerufen" from the call's own answer, not from whichever refresh comes next."""
    table_entry.call_desk(table)
    table = table_entry.table_by_token(table.entry_token or "")
    return JsonResponse({"ok": True, "state": table_entry.phone_state(table)})


SERVICE_WORKER = Path(settings.BASE_DIR) / "static" / "binokel" / "table-sw.js"


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The tables' service worker, served from /tisch/ so that it may keep the table pages
    for a reload without a connection (browsers allow that on https and on localhost)."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/tisch/"
    response["Cache-Control"] = "no-cache"
    return response
