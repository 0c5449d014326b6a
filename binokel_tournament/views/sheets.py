"""The desk's score sheet: typing with a live check that also keeps a private working draft
(autosave), saving through the sheet's one writer (only the games that differ from what the page
was opened on; retries recognised by a submission key), confirming with the four-eyes check,
and the paper typed blind for it.

Nothing typed is lost: the page keeps every value in the browser (localStorage) the moment it is
typed, the live check keeps it on the server as the typist's draft, and a save that fails for any
reason leaves the page as it was and says so. Saves from the page's script are answered with
JSON (the page stays put on an error); without script the form posts and redirects as usual."""

from __future__ import annotations

import re
import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import RuleSet

from ..models import GAME_KIND_KEYS, GameKind, ScoreSheet, SheetDraft, SheetStatus, Table
from ..services.access import NotAllowed
from ..services.errors import DeskError, active_language
from ..services.sheets import inputs, live, paper_check, results, words, writer
from ..services.sheets import sheet_fields as F
from ..services.sheets.operations import Reopen, SheetConflict
from .common import desk_tournament

_SMALL_NUMBER = re.compile(r"^[0-9]{1,9}$")


def _table(request: HttpRequest, slug: str, table_id: int) -> Table:
    """The table of a tournament the user belongs to (404 otherwise); its round carries the
    request's one tournament object (with its competitions for the navigation)."""
    t = desk_tournament(request, slug)
    table = results.load_table(table_id, t)
    table.round.tournament = t
    return table


def _version(text: str) -> int | None:
    """The form's ``version`` (the sheet version the page was typed on), None when it is not a
    small whole number (a tampered or broken form)."""
    return int(text) if _SMALL_NUMBER.match(text) else None


def _as_number(text: str) -> int | str:
    """A typed figure as a number where it is one (so it is shown like computed points)."""
    return int(text) if re.fullmatch(r"-?[0-9]{1,9}", text) else text


def _wants_json(request: HttpRequest) -> bool:
    return request.headers.get("X-Sheet-Save") == "1"


def _cells(evaluation: results.SheetEvaluation) -> list[dict[str, Any]]:
    """Per game: its row of the evaluation and every input's name and value."""
    layout = evaluation.layout
    entries = evaluation.entries
    rows = []
    for row in evaluation.rows:
        n = row.number

        def value(name: str) -> str:
            return entries.get(name, "")

        names = {a: F.game_field(n, a) for a in F.GAME_FIELDS}
        cells = []
        for c in layout.columns:
            cnames = {a: F.column_field(n, c.number, a) for a in F.COLUMN_FIELDS}
            cells.append(
                {
                    "column": c,
                    "names": cnames,
                    "meld": value(cnames["meld"]),
                    "tricks": value(cnames["tricks"]),
                    "revoked": bool(value(cnames["revoked"])),
                    "written": value(cnames["written"]),
                    "penalty": value(cnames["penalty"]),
                    "points": row.points[c.number] if row.points is not None else None,
                    "running": evaluation.running[c.number][n - 1],
                    "sits_out": row.sits_out == c.number,
                    "mismatch": c.number in row.written_mismatch,
                    "error": any(cnames[a] in evaluation.errors for a in ("meld", "tricks")),
                }
            )
        rows.append(
            {
                "row": row,
                "names": names,
                "dealer_label": layout.dealer_label(row.dealer),
                "cells": cells,
                "kind": value(names["kind"]) or "played",
                "declarer": value(names["declarer"]),
                "bid": value(names["bid"]),
                "dealer": value(names["dealer"]),
                "notrick": bool(value(names["notrick"])),
                "messages": list(dict.fromkeys(m for ms in row.errors.values() for m in ms)),
            }
        )
    return rows


def _context(
    table: Table,
    evaluation: results.SheetEvaluation,
    sheet: ScoreSheet | None,
    version: int,
    opened: str,
    paper: bool = False,
) -> dict[str, object]:
    layout = evaluation.layout
    totals = [
        {
            "column": c,
            "name": F.total_field(c.number),
            "total": evaluation.totals[c.number],
            "written": evaluation.entries.get(F.total_field(c.number), ""),
            # the scorer's figure in the message written as the computed one is (1.380)
            "written_shown": _as_number(evaluation.entries.get(F.total_field(c.number), "")),
            "mismatch": c.number in evaluation.total_mismatch,
        }
        for c in layout.columns
    ]
    rows = _cells(evaluation)
    first_open = next((r["row"].number for r in rows if not r["row"].entered), 1)
    rules = layout.rules
    labels = dict(GameKind.choices)
    kinds = [
        {
            "value": k.value,
            "label": labels[k.value],
            "key": GAME_KIND_KEYS[k.value],
            "melds": not k.is_special,  # the engine's rule: special games have no melds
            "tricks": k.has_tricks,
        }
        for k in rules.game_kinds
    ]
    return {
        "table": table,
        "tournament": table.round.tournament,
        "layout": layout,
        "evaluation": evaluation,
        "rows": rows,
        "totals": totals,
        "sheet": sheet,
        "version": version,
        "first_open": first_open,
        "error_fields": sorted(evaluation.errors),
        "players": list(enumerate(layout.players, start=1)),
        "msg_colspan": 4 + 3 * len(layout.columns),
        "kinds": kinds,
        "rules": rules,
        "penalties": rules.penalties,
        "total_eyes": rules.total_eyes,
        "submission": uuid.uuid4().hex,
        "opened": opened,
        "paper": paper,  # the paper typed blind for the four-eyes check
    }


def _page(request: HttpRequest, context: dict[str, object], status: int = 200) -> HttpResponse:
    """The whole sheet page (not the live check's fragments): with the rules beside it."""
    rules = context["rules"]
    assert isinstance(rules, RuleSet)
    context["rule_lines"] = rules.describe(active_language())
    context["meld_rows"] = rules.describe_melds(active_language())
    return render(request, "desk/sheet.html", context, status=status)


@login_required
def sheet(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """The sheet as stored (the table's games included): correcting one game changes that
    game; the four-eyes check lists what to compare with the paper."""
    table = _table(request, slug, table_id)
    if request.method == "POST":
        return _save(request, table)
    stored = _stored(table)
    entries = results.entries_snapshot(stored.entries) if stored else {}
    version = stored.version if stored else 0
    opened = inputs.opened_text(entries)
    draft = results.draft_of(table, request.user)
    restored: SheetDraft | None = None
    if draft is not None and F.normalized(results.entries_snapshot(draft.entries)) != entries:
        restored = draft
        entries = results.entries_snapshot(draft.entries)
        version = draft.base_version  # saving it shows what others changed since
        opened = ",".join(f"{n}:{s}" for n, s in sorted(draft.base_stamps.items()))
    evaluation = results.evaluate_table(table, entries)
    context = _context(table, evaluation, stored, version, opened)
    context["restored"] = restored
    context["draft_seq"] = draft.seq if draft is not None else 0
    # the typist's unsaved state is on the server already: the autosave line says so from the
    # start, as it does after every check
    context["autosaved"] = restored is not None
    context["draft"] = restored
    context.update(_checks(table, stored, request.user))
    context.update(_elsewhere(table, request.user, _watch(stored)))
    return _page(request, context)


def _watch(stored: ScoreSheet | None) -> QueryDict:
    stamps = F.part_stamps(stored.entries) if stored else {}
    watch = QueryDict(mutable=True)
    watch["v"] = str(stored.version if stored else 0)
    watch["s"] = ",".join(f"{n}:{s}" for n, s in sorted(stamps.items()))
    return watch


def _checks(table: Table, stored: ScoreSheet | None, user: results.User) -> dict[str, object]:
    """The four-eyes check on the page: the paper to type blind, where paper and sheet
    differ, and the games to compare one by one (or, on a confirmed sheet, what was corrected
    since its confirmation)."""
    rows = paper_check.check_rows(table, stored, user) if stored is not None else []
    paper = (stored.paper or {}) if stored is not None else {}
    return {
        "paper_pending": paper_check.paper_pending(table, stored),
        "paper_required": paper_check.paper_required(table, stored),
        "paper_record": paper,
        "paper_by": paper.get("by"),
        "differences": paper_check.differences(table, stored),
        "check_rows": [(row, row.author or "") for row in rows],
        "checked_count": sum(1 for row in rows if row.checked),
        "confirmed_sheet": stored is not None and stored.status == SheetStatus.CONFIRMED,
    }


@login_required
def sheet_paper_entry(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """The four-eyes check by the paper: the paper sheet typed into an empty form, blind to
    what the sheet holds; saved as its own record and compared game by game."""
    table = _table(request, slug, table_id)
    if request.method == "POST":
        entries = F.clean(request.POST)
        try:
            paper_check.record_paper(table, request.user, request.POST, _key(request))
        except NotAllowed:
            raise
        except DeskError as exc:
            evaluation = results.evaluate_table(table, entries)
            page = _context(table, evaluation, None, 0, "", paper=True)
            return _failed(request, page, exc.message, status=400)
        messages.success(request, _("Papier gespeichert: unten steht, wo es vom Zettel abweicht."))
        target = reverse("desk:sheet", args=[slug, table.pk])
        if _wants_json(request):
            return JsonResponse({"ok": True, "redirect": target})
        return redirect(target)
    draft = results.draft_of(table, request.user, results.PAPER)
    entries = results.entries_snapshot(draft.entries) if draft is not None else {}
    evaluation = results.evaluate_table(table, entries)
    context = _context(table, evaluation, _stored(table), 0, "", paper=True)
    context["restored"] = draft
    context["draft_seq"] = draft.seq if draft is not None else 0
    context["autosaved"] = draft is not None
    context["draft"] = draft
    return _page(request, context)


def _key(request: HttpRequest) -> str:
    return re.sub(r"[^0-9a-f]", "", request.POST.get("submission", ""))[:32]


@login_required
@require_POST
def sheet_paper(request: HttpRequest, slug: str, table_id: int, number: int) -> HttpResponse:
    """One game where the paper typed blind differs from the sheet: the paper counts
    (``choice=paper``) or the sheet does (``choice=sheet``), both as shown (their stamps)."""
    table = _table(request, slug, table_id)
    choice = request.POST.get("choice", "")
    try:
        paper_check.take(
            table,
            request.user,
            number,
            choice,
            request.POST.get("paper_stamp", ""),
            request.POST.get("sheet_stamp", ""),
        )
    except NotAllowed:
        raise
    except DeskError as exc:
        messages.error(request, exc.message)
    else:
        text = (
            _("Spiel %(n)s: das Papier gilt.")
            if choice == "paper"
            else _("Spiel %(n)s: der Zettel gilt.")
        )
        messages.success(request, text % {"n": number})
    return redirect("desk:sheet", slug=slug, table_id=table.pk)


def _elsewhere(table: Table, user: object, watch: QueryDict) -> dict[str, object]:
    """Who else types this sheet right now, and which games others changed since the page was
    opened: ``watch`` holds the version it was opened on (``v``) and each part's stamp then
    (``s=1:ab12,2:cd34``)."""
    version = _version(watch.get("v", "")) or 0
    stamps = watch.get("s", "")[:2000]
    seen = dict(item.split(":", 1) for item in stamps.split(",") if ":" in item)
    return {
        "watch_query": watch.urlencode(),
        "others_typing": live.others_typing(table, user),  # type: ignore[arg-type]
        "changed_elsewhere": live.changed_since(table, seen, version),
    }


@login_required
def sheet_elsewhere(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """htmx, every few seconds while a sheet is open: who else is typing it, and what others
    changed since it was opened (in words; nothing typed here is touched)."""
    table = _table(request, slug, table_id)
    context: dict[str, object] = {"table": table, "tournament": table.round.tournament}
    watch = QueryDict(mutable=True)
    watch["v"], watch["s"] = request.GET.get("v", ""), request.GET.get("s", "")
    context.update(_elsewhere(table, request.user, watch))
    return render(request, "desk/_sheet_elsewhere.html", context)


def _stored(table: Table) -> ScoreSheet | None:
    return (
        ScoreSheet.objects.filter(table=table).select_related("entered_by", "confirmed_by").first()
    )


def _save(request: HttpRequest, table: Table) -> HttpResponse:
    entries = F.clean(request.POST)
    version_text = request.POST.get("version", "")
    expected = _version(version_text)
    opened = request.POST.get("opened", "")[: inputs.MAX_OPENED]

    def context() -> dict[str, object]:  # the page again, only when the save did not happen
        evaluation = results.evaluate_table(table, entries)
        page = _context(table, evaluation, None, expected or 0, opened)
        page.update(_checks(table, _stored(table), request.user))
        return page

    if expected is None:
        message = _(
            "Das Formular ist veraltet oder beschädigt (Version „%(version)s“). Es wurde nichts "
            "gespeichert; Ihre Eingaben stehen unverändert unten. Bitte erneut speichern."
        ) % {"version": version_text[:20]}
        return _failed(request, context(), message, status=400)
    try:
        outcome = writer.save_sheet(
            table, request.POST, request.user, expected, "confirm" in request.POST, _key(request)
        )
    except SheetConflict as exc:
        page = context()
        columns = len(page["layout"].columns)  # type: ignore[attr-defined]
        page["conflicts"] = [
            {
                "number": c.number,
                "title": words.part_title(c.number),
                "mine": words.game_line(c.mine, c.number, columns),
                "theirs": words.game_line(c.theirs, c.number, columns),
                "current": c.stamp or "-",
                "by": c.author or words.source_label(c.source) or "–",
            }
            for c in exc.conflicts
        ]
        page["version"] = exc.version
        return _failed(request, page, exc.message, status=409)
    except NotAllowed as exc:  # e.g. a helper correcting a confirmed sheet: keep the input
        return _failed(request, context(), exc.message, status=403)
    except DeskError as exc:
        return _failed(request, context(), exc.message, status=400)
    if outcome.repeated:
        text = _("Schon gespeichert (Version %(version)s).") % {"version": outcome.version}
        messages.info(request, text)
    elif outcome.notice:
        messages.warning(request, outcome.notice)
    elif outcome.confirmed:
        messages.success(request, _("Spielzettel bestätigt."))
    elif outcome.changed:
        messages.success(request, _("Entwurf gespeichert."))
    else:
        messages.info(request, _("Nichts geändert."))
    target = reverse("desk:sheet", args=[table.round.tournament.slug, table.pk])
    if outcome.confirmed and "confirm" in request.POST and not outcome.notice:
        nxt = _next_open_table(table)
        slug = table.round.tournament.slug
        target = (
            reverse("desk:sheet", args=[slug, nxt.pk])
            if nxt is not None
            else reverse("desk:overview", args=[slug])
        )
    if _wants_json(request):
        return JsonResponse({"ok": True, "redirect": target, "version": outcome.version})
    return redirect(target)


def _failed(
    request: HttpRequest, context: dict[str, object], message: str, status: int
) -> HttpResponse:
    """A save that did not happen: the page keeps every typed value and says why."""
    table = context["table"]
    assert isinstance(table, Table)
    context["sheet"] = _stored(table)
    if _wants_json(request):
        payload: dict[str, object] = {"ok": False, "message": message}
        if "conflicts" in context:
            payload["version"] = context["version"]
            payload["conflict"] = render_to_string(
                "desk/_sheet_conflict.html", context, request=request
            )
        return JsonResponse(payload, status=status)
    messages.error(request, message)
    return _page(request, context, status)


def _next_open_table(table: Table) -> Table | None:
    return (
        Table.objects.filter(round=table.round)
        .exclude(sheet__status=SheetStatus.CONFIRMED)
        .exclude(pk=table.pk)
        .order_by("number")
        .first()
    )


@login_required
@require_POST
def sheet_check(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """htmx, on every pause in typing: evaluate what is typed so far, keep it as the typist's
    working draft, and return out-of-band fragments (points, running totals, messages, error
    marks, the autosave state); inputs are never replaced, so the cursor stays put. The page
    sends one check at a time and queues only the newest state (``hx-sync``); the reply
    carries the request's sequence number, so the page can ignore a reply that is out of date."""
    table = _table(request, slug, table_id)
    entries = F.clean(request.POST)
    evaluation = results.evaluate_table(table, entries)
    version = _version(request.POST.get("version", "")) or 0
    opened = request.POST.get("opened", "")[: inputs.MAX_OPENED]
    kind = results.PAPER if request.POST.get("mode") == "paper" else results.SHEET
    seq_text = request.POST.get("draft_seq", "")
    seq = int(seq_text) if re.fullmatch(r"[0-9]{1,18}", seq_text) else None
    kept = None
    if seq is not None:
        stamps = inputs.read_opened(opened) or {}
        kept = results.keep_draft(table, request.user, entries, seq, version, stamps, kind)
    context = _context(table, evaluation, None, version, opened, paper=kind == results.PAPER)
    context["autosaved"] = seq is not None
    context["draft"] = kept
    response = render(request, "desk/_sheet_check.html", context)
    if seq is not None:
        response["X-Sheet-Seq"] = str(seq)
    return response


@login_required
@require_POST
def sheet_reopen(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """The organiser opens a confirmed sheet again (or one the table confirmed by mistake): a
    draft once more, the table's phone may enter again; as shown (``version``)."""
    table = _table(request, slug, table_id)
    version = _version(request.POST.get("version", ""))
    try:
        if version is None:
            raise DeskError(_("Das Formular ist veraltet; bitte die Seite neu laden."))
        writer.write(table, [Reopen(version)], user=request.user)
    except NotAllowed:
        raise
    except DeskError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, _("Der Zettel ist wieder offen; der Tisch kann wieder eintragen.")
        )
    return redirect("desk:sheet", slug=slug, table_id=table.pk)


@login_required
@require_POST
def sheet_discard(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """Throw away the typist's unsaved draft: the sheet shows its saved version again."""
    table = _table(request, slug, table_id)
    paper = request.POST.get("mode") == "paper"
    results.discard_draft(table, request.user, results.PAPER if paper else results.SHEET)
    messages.info(request, _("Ungespeicherte Eingaben verworfen."))
    return redirect(
        "desk:sheet_paper_entry" if paper else "desk:sheet", slug=slug, table_id=table.pk
    )
