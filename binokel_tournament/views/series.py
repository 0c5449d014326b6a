"""The player register and the series (cups): installation-wide pages of the desk, and the
per-tournament page that links entrants to the register."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from .. import pages
from ..charity_forms import SeriesForm
from ..forms import ResultFileForm
from ..models import CupSubmission, Entrant, Player, Series, Verein
from ..services import tenancy
from ..services.access import (
    Action,
    NotAllowed,
    can_see_series,
    may_run_register,
    series_visible_to,
    tournaments_of,
)
from ..services.errors import DeskError
from ..services.money import district
from ..services.money import series as service
from .cached import public_page, results_of_cup
from .common import desk_tournament, plain_int


def _require_register(request: HttpRequest) -> Verein:
    """The Verein whose register and cups the desk works on: the one chosen, where the
    account is an organiser; for anybody else there is no register (404: it holds the names
    of players who did not want to be named)."""
    verein = tenancy.current_verein(request)
    if verein is None or not may_run_register(request.user, verein):
        raise Http404
    return verein


@login_required
def players(request: HttpRequest) -> HttpResponse:
    """The register: search, consent, merge two entries, delete on request."""
    verein = _require_register(request)
    register = Player.objects.filter(verein=verein)
    if request.method == "POST":
        action = request.POST.get("action", "")
        player = get_object_or_404(register, pk=plain_int(request.POST.get("player", "")) or 0)
        try:
            if action == "delete":
                service.delete_player(player, request.user)
                messages.success(request, _("Der Eintrag wurde gelöscht."))
            elif action == "consent":
                service.set_consent(player, request.POST.get("consent") == "1", request.user)
            elif action == "merge":
                other = get_object_or_404(
                    register, pk=plain_int(request.POST.get("other", "")) or 0
                )
                service.merge_players(player, other, request.user)
                messages.success(request, _("Zusammengeführt."))
            elif action == "split":
                service.split_player(player, request.user)
                messages.success(request, _("Wieder getrennt."))
        except DeskError as exc:
            messages.error(request, exc.message)
        return redirect("desk:players")
    query = request.GET.get("q", "")[:60]
    return render(
        request,
        "desk/players.html",
        {"rows": service.register_rows(query, verein=verein), "query": query},
    )


@login_required
def player_links(request: HttpRequest, slug: str) -> HttpResponse:
    """This tournament's entrants and the register: link a returning player, or make a new
    entry (explicitly, one click each)."""
    t = desk_tournament(
        request, slug, Action.LINK_PLAYERS if request.method == "POST" else Action.VIEW
    )
    if request.method == "POST" and request.POST.get("action") in ("link_all", "create_rest"):
        try:
            summary = service.link_all(
                t, request.user, create_new=request.POST["action"] == "create_rest"
            )
        except DeskError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, link_summary_text(summary))
        return redirect(request.path)
    if request.method == "POST":
        entrant = get_object_or_404(
            Entrant, pk=plain_int(request.POST.get("entrant", "")) or 0, tournament=t
        )
        partner = request.POST.get("partner") == "1"
        action = request.POST.get("action", "")
        try:
            if action == "unlink":
                service.unlink_player(entrant, request.user, partner=partner)
            else:
                player = None
                if action == "link":
                    player = get_object_or_404(
                        Player.objects.filter(verein=t.verein),
                        pk=plain_int(request.POST.get("player", "")) or 0,
                    )
                service.link_player(entrant, player, request.user, partner=partner)
        except DeskError as exc:
            messages.error(request, exc.message)
        return redirect(f"{request.path}#e{entrant.start_number}")
    rows = []
    index = service.RegisterIndex(t.verein)
    for e in t.entrants.select_related("player", "partner_player").order_by("start_number"):
        people = [(False, e.name, e.player)]
        if e.partner:
            people.append((True, e.partner, e.partner_player))
        rows.append(
            {
                "entrant": e,
                "people": [
                    {
                        "partner": partner,
                        "name": name,
                        "player": player,
                        "candidates": index.candidates(name) if player is None else [],
                    }
                    for partner, name, player in people
                ],
            }
        )
    return render(request, "desk/player_links.html", {"tournament": t, "rows": rows})


def link_summary_text(summary: service.LinkSummary) -> str:
    text = _("%(linked)s verknüpft, %(created)s neu ins Register aufgenommen.") % {
        "linked": summary.linked,
        "created": summary.created,
    }
    if summary.ambiguous:
        text += " " + _("Nicht eindeutig, bitte einzeln entscheiden: %(names)s") % {
            "names": ", ".join(summary.ambiguous[:20])
        }
    return text


@login_required
def player_suggestions(request: HttpRequest, slug: str) -> HttpResponse:
    """While the desk types a name at registration: the register's players of that name
    (htmx). Choosing one links the new entrant to that player."""
    t = desk_tournament(request, slug, Action.REGISTER)
    field = "partner_player" if request.GET.get("for") == "partner" else "player"
    typed = request.GET.get("partner" if field == "partner_player" else "name", "")[:120]
    return render(
        request,
        "desk/_player_suggestions.html",
        {"players": service.suggestions(typed, verein=t.verein), "field": field},
    )


@login_required
def series_list(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        verein = _require_register(request)
        try:
            created = service.create_series(
                request.POST.get("name", "")[:200], request.user, verein=verein
            )
        except DeskError as exc:
            messages.error(request, exc.message)
            return redirect("desk:series_list")
        return redirect("desk:series_detail", slug=created.slug)
    current = tenancy.current_verein(request)
    can_edit = may_run_register(request.user, current)
    visible = series_visible_to(request.user, current)
    if not can_edit and not visible.exists():  # helpers and others: no cups here
        raise Http404
    return render(request, "desk/series_list.html", {"series": visible, "can_edit": can_edit})


@login_required
def series_detail(request: HttpRequest, slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=slug)  # within the desk's scope (its Vereine)
    if not can_see_series(request.user, series):  # the Verein's and its evenings' organisers
        raise Http404
    mine = tournaments_of(request.user).filter(verein=series.verein)
    can_edit = may_run_register(request.user, series.verein)
    action = request.POST.get("action", "") if request.method == "POST" else ""
    if action:
        if not can_edit:
            raise NotAllowed(_("Spielerregister und Cup-Serien verwaltet die Turnierleitung."))
        return _series_action(request, series, action)
    form = SeriesForm(
        request.POST if request.method == "POST" else None,
        instance=series,
        tournaments=(mine | series.tournaments.all()).distinct(),
    )
    if request.method == "POST":
        if not can_edit:
            raise NotAllowed(_("Spielerregister und Cup-Serien verwaltet die Turnierleitung."))
        if form.is_valid():
            fields = {
                k: form.cleaned_data[k]
                for k in ("name", "mode", "method", "best", "cup_points", "require_all")
            }
            fields["min_evenings"] = form.cleaned_data["min_evenings"]
            try:
                service.update_series(
                    Series.objects.get(pk=series.pk),
                    request.user,
                    fields,
                    list(form.cleaned_data["tournaments"]),
                )
            except DeskError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, _("Gespeichert."))
                return redirect("desk:series_detail", slug=slug)
    return render(
        request,
        "desk/series_detail.html",
        {
            "series": series,
            "standings": service.series_standings(series),
            "figures": service.season_lines(series, public=False),
            "candidates": service.candidates_in(series),
            "merged": service.merged_in(series),
            "form": form,
            "file_form": ResultFileForm(),
            "can_edit": can_edit,
            "submissions": district.pending_in(series) if series.verein.district else [],
        },
    )


def _series_action(request: HttpRequest, series: Series, action: str) -> HttpResponse:
    """A cup's evening from a result file, and the register's decisions on its players:
    the same person (merge), two people (keep apart), undo a merge (split); all audited."""

    def player(name: str) -> Player:
        return get_object_or_404(
            Player.objects.filter(verein=series.verein),
            pk=plain_int(request.POST.get(name, "")) or 0,
        )

    try:
        if action == "add_file":
            upload = request.FILES.get("file")
            if upload is None:
                raise DeskError(_("Bitte eine Ergebnisdatei wählen."))
            t = service.add_result_file(series, upload.read(), request.user)
            messages.success(request, _("„%(name)s“ zählt jetzt in diesem Cup.") % {"name": t.name})
        elif action in ("accept", "decline"):
            submission = get_object_or_404(
                CupSubmission.objects.filter(series=series),
                pk=plain_int(request.POST.get("submission", "")) or 0,
            )
            taken = district.decide(submission, action == "accept", request.user)
            if taken is not None:
                messages.success(
                    request, _("„%(name)s“ zählt jetzt in diesem Cup.") % {"name": taken.name}
                )
            else:
                messages.success(request, _("Einreichung abgelehnt."))
        elif action == "merge":
            service.merge_players(player("first"), player("second"), request.user)
            messages.success(request, _("Als dieselbe Person gespeichert."))
        elif action == "apart":
            service.keep_apart(player("first"), player("second"), request.user)
            messages.success(request, _("Als zwei Personen gespeichert."))
        elif action == "split":
            service.split_player(player("player"), request.user)
            messages.success(request, _("Wieder getrennt."))
    except (DeskError, NotAllowed) as exc:
        messages.error(request, exc.message)
    return redirect("desk:series_detail", slug=series.slug)


@public_page(results_of_cup)
def public_series(request: HttpRequest, slug: str) -> HttpResponse:
    """A series for everyone, when all its tournaments have public pages; players without
    consent are not named."""
    series = get_object_or_404(Series, slug=slug)
    tournaments = list(series.tournaments.all())
    if not tournaments or not all(t.public_pages for t in tournaments):
        raise Http404
    return render(request, "public/series.html", pages.series_page(series))
