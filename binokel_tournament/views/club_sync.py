"""Hall laptop and club server (services/club_sync.py): the desk page "Vereinsserver" of a
Verein's organiser (fetch registrations, send a result, the keys for the hall laptops) and the
club server's small API the laptops call with their key (no login, no session)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from ..models import Tournament, UploadKey, Verein
from ..services import club_sync, tenancy
from ..services.access import NotAllowed, can_create_tournament
from ..services.errors import DeskError
from ..services.imports import MAX_BYTES
from ..services.server.client_address import client_address
from ..services.server.throttle import allow
from .common import plain_int

KEY_LIMIT, KEY_WINDOW = 60, 60  # requests per minute and address, against guessing keys


# --- the desk page ------------------------------------------------------------------------------
def _verein_of_organiser(request: HttpRequest) -> Verein:
    verein = tenancy.current_verein(request)
    if verein is None or not can_create_tournament(request.user, verein):
        raise NotAllowed(_("Den Vereinsserver bedient nur die Turnierleitung des Vereins."))
    return verein


@login_required
def club_server(request: HttpRequest) -> HttpResponse:
    verein = _verein_of_organiser(request)
    context: dict[str, Any] = {
        "verein": verein,
        "server": (request.POST.get("server") or verein.club_server).strip(),
        "secret": request.POST.get("secret", "").strip(),
        "remote": None,
        "new_secret": None,
    }
    if request.method == "POST":
        try:
            answer = _act(request, verein, context)
        except (DeskError, NotAllowed) as exc:
            messages.error(request, exc.message)
        else:
            if answer is not None:
                return answer
    context["keys"] = club_sync.keys_of(verein)
    context["played"] = Tournament.objects.filter(verein=verein, imported="").order_by(
        "-date", "name"
    )
    return render(request, "desk/club_server.html", context)


def _act(request: HttpRequest, verein: Verein, context: dict[str, Any]) -> HttpResponse | None:
    action = request.POST.get("action", "")
    server, secret = context["server"], context["secret"]
    if action == "list":
        context["remote"] = club_sync.remote_evenings(server, secret)
    elif action == "fetch":
        done = club_sync.fetch_entries(
            server, secret, request.POST.get("evening", ""), request.user, verein
        )
        messages.success(
            request,
            _(
                "Anmeldungen geholt für „%(name)s“: %(entrants)s neu angemeldet, %(waiting)s "
                "auf der Warteliste."
            )
            % {"name": done.tournament.name, "entrants": done.entrants, "waiting": done.waiting},
        )
        return redirect("desk:dashboard", slug=done.tournament.slug)
    elif action == "send":
        t = Tournament.objects.filter(
            verein=verein, pk=plain_int(request.POST.get("tournament", "")) or 0
        ).first()
        if t is None:
            raise DeskError(_("Bitte den Abend wählen."))
        messages.success(request, club_sync.send_result(server, secret, t, request.user))
    elif action == "make_key":
        _key, context["new_secret"] = club_sync.make_key(
            verein, request.user, request.POST.get("label", "")
        )
    elif action == "revoke_key":
        key = UploadKey.objects.filter(
            verein=verein, pk=plain_int(request.POST.get("key", "")) or 0
        ).first()
        if key is None:
            raise DeskError(_("Diesen Schlüssel gibt es nicht."))
        club_sync.revoke_key(key, request.user)
        messages.success(request, _("Schlüssel „%(label)s“ widerrufen.") % {"label": key.label})
        return redirect("desk:club_server")
    else:
        raise DeskError(_("Unbekannte Aktion."))
    return None


# --- the club server's API ----------------------------------------------------------------------
def _refusal(message: str, status: int) -> JsonResponse:
    return JsonResponse({"ok": False, "message": message}, status=status)


def _keyed(request: HttpRequest) -> tuple[Verein, UploadKey] | JsonResponse:
    if not allow(f"key:{client_address(request)}", KEY_LIMIT, KEY_WINDOW):
        return _refusal(_("Zu viele Anfragen. Bitte eine Minute warten."), 429)
    header = request.headers.get("Authorization", "")
    secret = header.removeprefix("Bearer ").strip() if header.startswith("Bearer ") else ""
    try:
        return club_sync.verein_of_key(secret)
    except DeskError as exc:
        return _refusal(exc.message, 401)


@require_GET
def api_evenings(request: HttpRequest) -> JsonResponse:
    keyed = _keyed(request)
    if isinstance(keyed, JsonResponse):
        return keyed
    verein, _key = keyed
    return JsonResponse({"ok": True, "verein": verein.name, "evenings": club_sync.evenings(verein)})


@require_GET
def api_entries(request: HttpRequest, slug: str) -> HttpResponse:
    keyed = _keyed(request)
    if isinstance(keyed, JsonResponse):
        return keyed
    verein, _key = keyed
    try:
        data = club_sync.entries_file(verein, slug)
    except DeskError as exc:
        return _refusal(exc.message, 404)
    return HttpResponse(data, content_type="application/json")


@csrf_exempt  # no session, no cookie: the key in the Authorization header is the credential
@require_POST
def api_result(request: HttpRequest) -> JsonResponse:
    keyed = _keyed(request)
    if isinstance(keyed, JsonResponse):
        return keyed
    verein, key = keyed
    if len(request.body) > MAX_BYTES:
        return _refusal(_("Die Datei ist zu groß."), 413)
    try:
        received = club_sync.receive_result(verein, request.body, key)
    except club_sync.ResultConflict as exc:
        return _refusal(exc.message, 409)
    except DeskError as exc:
        return _refusal(exc.message, 400)
    return JsonResponse(
        {
            "ok": True,
            "outcome": received.outcome,
            "message": received.message,
            "slug": received.tournament.slug,
        }
    )


# --- the district: member clubs and submissions to its cups -----------------------------------
@login_required
def district_page(request: HttpRequest) -> HttpResponse:
    """For a district's organisers: its member clubs; for a member club's organisers: submit an
    evening (played here, or a hall laptop's result file) to a district's cup, and see what
    became of it."""
    from ..models import Series
    from ..services.money import district

    verein = _verein_of_organiser(request)
    if request.method == "POST":
        try:
            _district_action(request, verein)
        except (DeskError, NotAllowed) as exc:
            messages.error(request, exc.message)
        return redirect("desk:district")
    cups = district.district_cups_for(verein)
    return render(
        request,
        "desk/district.html",
        {
            "verein": verein,
            "members": district.member_clubs(verein) if verein.district else [],
            "own_cups": Series.objects.filter(verein=verein) if verein.district else [],
            "cups": cups,
            "evenings": Tournament.objects.filter(verein=verein, imported="").order_by("-date"),
            "submissions": district.submissions_of_club(verein),
        },
    )


def _district_action(request: HttpRequest, verein: Verein) -> None:
    from ..models import Series
    from ..services.money import district

    action = request.POST.get("action", "")
    if action == "add_member":
        club = district.add_member_club(verein, request.POST.get("club", ""), request.user)
        messages.success(request, _("„%(club)s“ ist jetzt Mitgliedsverein.") % {"club": club.name})
        return
    if action == "remove_member":
        club = get_member(verein, plain_int(request.POST.get("club", "")) or 0)
        withdrawn = district.remove_member_club(verein, club, request.user)
        messages.success(
            request,
            _(
                "„%(club)s“ ist kein Mitgliedsverein mehr (%(n)s wartende Einreichungen "
                "zurückgezogen)."
            )
            % {"club": club.name, "n": withdrawn},
        )
        return
    if action == "submit":
        cups = {s.pk: s for s in district.district_cups_for(verein)}
        series: Series | None = cups.get(plain_int(request.POST.get("cup", "")) or 0)
        if series is None:
            raise DeskError(_("Bitte den Cup wählen."))
        upload = request.FILES.get("file")
        if upload is not None:
            if (upload.size or 0) > MAX_BYTES:
                raise DeskError(_("Die Datei ist zu groß."))
            submission = district.submit_file(series, verein, upload.read(), request.user)
        else:
            evening = Tournament.objects.filter(
                verein=verein, pk=plain_int(request.POST.get("tournament", "")) or 0
            ).first()
            if evening is None:
                raise DeskError(_("Bitte den Abend wählen oder eine Ergebnisdatei."))
            submission = district.submit_tournament(series, evening, request.user)
        messages.success(
            request,
            _("„%(name)s“ ist bei „%(cup)s“ eingereicht; die Kreis-Turnierleitung entscheidet.")
            % {"name": submission.name, "cup": series.name},
        )
        return
    raise DeskError(_("Unbekannte Aktion."))


def get_member(district_verein: Verein, pk: int) -> Verein:
    from ..services.money import district

    for club in district.member_clubs(district_verein):
        if club.pk == pk:
            return club
    raise DeskError(_("Diesen Mitgliedsverein gibt es nicht."))
