"""Organiser-only desk pages: the tournament's members (and their logins), backups."""

from __future__ import annotations

import os
import secrets
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..forms import MemberForm, RestoreForm, ResultFileForm
from ..models import AuditLog, Membership, Role, Tournament
from ..services import club_sync, imports, members, tenancy
from ..services.access import Action, NotAllowed, can_create_tournament
from ..services.errors import DeskError
from ..services.server import backup
from ..services.server.backup.restore import SlugTaken
from .common import desk_tournament, plain_int

LOGIN_ACTIONS = ("login", "login.failed", "login.locked")


@login_required
def member_list(request: HttpRequest, slug: str) -> HttpResponse:
    t = desk_tournament(request, slug, Action.MEMBERS)
    form = MemberForm(request.POST or None)
    if request.method == "POST":
        action = request.POST.get("action", "add")
        try:
            if action == "add":
                if form.is_valid():
                    member = members.add_member(
                        t,
                        form.cleaned_data["username"],
                        form.cleaned_data["role"],
                        request.user,
                        form.cleaned_data["password"],
                    )
                    messages.success(
                        request,
                        _("%(user)s ist jetzt Mitglied (%(role)s).")
                        % {"user": member.user, "role": member.get_role_display()},
                    )
                    return redirect("desk:members", slug=slug)
            else:
                return _change_member(request, t, action)
        except DeskError as exc:
            if action == "add" and exc.field in form.fields:
                form.add_error(exc.field, exc.message)
            else:
                messages.error(request, exc.message)
                return redirect("desk:members", slug=slug)
    member_rows = list(t.memberships.select_related("user").order_by("role", "user__username"))
    usernames = [m.user.get_username() for m in member_rows]
    logins = AuditLog.objects.filter(
        tournament=None, action__in=LOGIN_ACTIONS, object_id__in=usernames
    ).select_related("user")[:100]
    return render(
        request,
        "desk/members.html",
        {
            "tournament": t,
            "members": member_rows,
            "form": form,
            "roles": Role.choices,
            "logins": logins,
        },
    )


def _change_member(request: HttpRequest, tournament: Tournament, action: str) -> HttpResponse:
    slug = tournament.slug
    if action == "unlock":
        count = members.unlock_login(
            tournament,
            request.POST.get("username", "")[:150],
            request.user,
        )
        messages.success(
            request,
            _("Anmeldung entsperrt (%(count)s Fehlversuche vergessen).") % {"count": count},
        )
        return redirect("desk:members", slug=slug)
    member_id = plain_int(request.POST.get("member", ""))
    if member_id is None:
        return redirect("desk:members", slug=slug)
    member = get_object_or_404(Membership, pk=member_id, tournament=tournament)
    if action == "role":
        members.change_role(member, request.POST.get("role", ""), request.user)
        messages.success(request, _("Rolle geändert."))
    elif action == "remove":
        members.remove_member(member, request.user)
        messages.success(request, _("%(user)s ist nicht mehr Mitglied.") % {"user": member.user})
    return redirect("desk:members", slug=slug)


@login_required
def backups(request: HttpRequest, slug: str) -> HttpResponse:
    t = desk_tournament(request, slug, Action.BACKUP)
    return render(
        request,
        "desk/backups.html",
        {
            "tournament": t,
            "automatic": backup.list_backups(t.slug)[:10],
            "folder": backup.backup_folder(t.slug),
            "backup_status": backup.backup_status(t),
        },
    )


@login_required
def backup_state(request: HttpRequest, slug: str) -> HttpResponse:
    """The line about the automatic backups, which the dashboard and the backup page ask for
    again every few seconds (a failure shows without reloading the page)."""
    t = desk_tournament(request, slug)
    return render(
        request,
        "desk/_backup_status.html",
        {"tournament": t, "backup_status": backup.backup_status(t)},
    )


@login_required
def backup_download(request: HttpRequest, slug: str) -> HttpResponse:
    t = desk_tournament(request, slug, Action.BACKUP)
    data = backup.backup_bytes(t, request.user)
    response = HttpResponse(data, content_type="application/json")
    name = f"{t.slug}-{timezone.localtime():%Y%m%d-%H%M%S}.json"
    response["Content-Disposition"] = content_disposition_header(True, name)
    return response


WAITING_KEY = "binokel_restore_waiting"  # the session's backup that waits for "Ersetzen"
WAITING_SECONDS = 3600


@login_required
@require_POST
def restore_upload(request: HttpRequest) -> HttpResponse:
    """Bring a backup in as a new tournament of the Verein the desk works in; the uploader
    becomes its organiser. A backup of an evening held here in an older state replaces it
    only after the desk is asked (the file waits on the server meanwhile, for this session
    only): the tables' and players' links stay valid."""
    verein = tenancy.current_verein(request)
    if not can_create_tournament(request.user, verein):
        raise NotAllowed(_("Sicherungen einspielen darf nur eine Turnierleitung."))
    if "waiting" in request.POST:
        return _replace_confirmed(request, verein)
    form = RestoreForm(request.POST, request.FILES)
    if not form.is_valid():
        return _refused_form(request, form)
    upload = form.cleaned_data["file"]
    if upload.size > backup.MAX_BYTES:
        messages.error(request, _("Die Datei ist zu groß für eine Sicherung."))
        return redirect(f"{_home()}?alle=1")
    data = upload.read()
    slug = form.cleaned_data["slug"] or None
    try:
        result = backup.restore(
            data, slug=slug, user=request.user, create_users=False, verein=verein
        )
    except SlugTaken as exc:
        if not exc.replaceable:
            messages.error(
                request,
                f"{exc.message} "
                + _(
                    "Bitte einen neuen Kurznamen angeben: die Sicherung wird dann als Kopie "
                    "mit eigenen Tisch- und Spielerlinks eingespielt."
                ),
            )
            return redirect(f"{_home()}?alle=1")
        token = _keep_waiting(request, data, slug)
        return render(
            request,
            "desk/restore_replace.html",
            {"question": exc.message, "token": token, "slug": slug or ""},
        )
    except DeskError as exc:
        messages.error(request, exc.message)
        return redirect(f"{_home()}?alle=1")
    return _restored(request, result)


def _waiting_folder() -> Path:
    return Path(settings.BACKUP_STATUS_DIR) / ".restore-waiting"


def _keep_waiting(request: HttpRequest, data: bytes, slug: str | None) -> str:
    """Keep the uploaded backup until the desk answers (readable by this account only)."""
    folder = _waiting_folder()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    for old in folder.glob("*.json"):  # questions nobody answered
        with suppress(OSError):
            if time.time() - old.stat().st_mtime > WAITING_SECONDS:
                old.unlink()
    token = secrets.token_urlsafe(16)
    path = folder / f"{token}.json"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    request.session[WAITING_KEY] = {"token": token, "slug": slug or ""}
    return token


def _replace_confirmed(request: HttpRequest, verein: Any) -> HttpResponse:
    waiting = request.session.pop(WAITING_KEY, None)
    token = str(request.POST.get("waiting", ""))
    if not isinstance(waiting, dict) or not token or waiting.get("token") != token:
        messages.error(
            request,
            _("Die Rückfrage gilt nicht mehr; bitte die Sicherung noch einmal einspielen."),
        )
        return redirect(f"{_home()}?alle=1")
    path = _waiting_folder() / f"{token}.json"
    try:
        data = path.read_bytes()
    except OSError:
        messages.error(
            request,
            _("Die Rückfrage gilt nicht mehr; bitte die Sicherung noch einmal einspielen."),
        )
        return redirect(f"{_home()}?alle=1")
    finally:
        with suppress(OSError):
            path.unlink()
    if request.POST.get("answer") != "replace":
        messages.info(request, _("Nichts eingespielt; der Abend hier bleibt, wie er ist."))
        return redirect(f"{_home()}?alle=1")
    try:
        result = backup.restore(
            data,
            slug=waiting.get("slug") or None,
            user=request.user,
            create_users=False,
            verein=verein,
            replace=True,
        )
    except DeskError as exc:
        messages.error(request, exc.message)
        return redirect(f"{_home()}?alle=1")
    return _restored(request, result)


def _restored(request: HttpRequest, result: backup.RestoreResult) -> HttpResponse:
    name = result.tournament.name
    if result.replaced:
        messages.success(
            request,
            _(
                "Der ältere Stand von „%(name)s“ wurde durch die Sicherung ersetzt; die Tisch- "
                "und Spielerlinks bleiben gültig."
            )
            % {"name": name},
        )
    else:
        messages.success(
            request, _("Die Sicherung wurde als „%(name)s“ eingespielt.") % {"name": name}
        )
    if result.skipped_members:
        messages.warning(
            request,
            _(
                "Diese Konten gibt es hier nicht; sie wurden nicht angelegt und sind keine "
                "Mitglieder (die Turnierleitung kann sie unter „Mitglieder“ eintragen): "
                "%(names)s"
            )
            % {"names": ", ".join(result.skipped_members)},
        )
    if result.without_right:
        messages.warning(
            request,
            _("Diese Konten durften dort Turniere anlegen, hier nicht: %(names)s")
            % {"names": ", ".join(result.without_right)},
        )
    return redirect("desk:dashboard", slug=result.tournament.slug)


@login_required
@require_POST
def result_upload(request: HttpRequest) -> HttpResponse:
    """Take in an open result file (docs/result-format.md): results become a read-only
    evening, entries register, an invitation makes the evening. A file that does not check
    out is refused with what the checker found; nothing is stored then."""
    form = ResultFileForm(request.POST, request.FILES)
    if not form.is_valid():
        return _refused_form(request, form)
    upload = form.cleaned_data["file"]
    if upload.size > imports.MAX_BYTES:
        messages.error(request, _("Die Datei ist zu groß."))
        return redirect(f"{_home()}?alle=1")
    data, verein = upload.read(), tenancy.current_verein(request)
    try:
        if verein is not None and club_sync.result_of_an_evening_here(data, verein):
            # the result of an evening registered here, brought on a USB stick: as if sent
            received = club_sync.receive_result(verein, data, None, user=request.user)
            messages.success(request, received.message)
            return redirect("desk:dashboard", slug=received.tournament.slug)
        done = imports.import_result(data, request.user, verein=verein)
    except (DeskError, NotAllowed) as exc:  # said on the page; nothing was stored
        messages.error(request, exc.message)
        return redirect(f"{_home()}?alle=1")
    texts = {
        "results": _("Übernommen: „%(name)s“, nur zum Ansehen (%(entrants)s Teilnehmer)."),
        "entries": _(
            "Anmeldungen übernommen in „%(name)s“: %(entrants)s angemeldet, %(waiting)s auf "
            "der Warteliste."
        ),
        "invitation": _("Einladung übernommen: „%(name)s“."),
    }
    messages.success(
        request,
        texts[done.kind]
        % {"name": done.tournament.name, "entrants": done.entrants, "waiting": done.waiting},
    )
    return redirect("desk:dashboard", slug=done.tournament.slug)


def _refused_form(request: HttpRequest, form: forms.Form) -> HttpResponse:
    """An upload form that did not validate: its errors said on the desk's home page."""
    for errors in form.errors.values():
        for error in errors:
            messages.error(request, str(error))
    return redirect(f"{_home()}?alle=1")


def _home() -> str:
    from django.urls import reverse

    return reverse("desk:home")
