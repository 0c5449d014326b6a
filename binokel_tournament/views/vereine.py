"""The Vereine of a server for many clubs, at the desk and in public: an account of several
Vereine chooses the one it works in (a laptop of one Verein never shows any of this); a
Verein's public page lists its evenings and cups; a server's home lists its Vereine."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from ..middleware import DESK_PREFIX
from ..models import Series, Tournament, Verein
from ..services import tenancy
from ..services.errors import DeskError
from .common import plain_int


def desk_vereine(request: HttpRequest) -> dict[str, Any]:
    """For the desk's header: the account's Vereine and the one it works in, when it has
    more than one."""
    if not request.path_info.startswith(DESK_PREFIX) or not request.user.is_authenticated:
        return {}
    mine = tenancy.vereine_of(request.user)
    if len(mine) < 2:
        return {}
    return {"desk_vereine": mine, "current_verein": tenancy.current_verein(request)}


@login_required
@require_POST
def choose(request: HttpRequest) -> HttpResponse:
    try:
        tenancy.choose_verein(request, plain_int(request.POST.get("verein", "")) or 0)
    except DeskError as exc:
        messages.error(request, exc.message)
    return redirect("desk:home")


def verein_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A Verein's evenings for everyone: upcoming (with registration) and past (with results)
    of those with public pages, and its cups."""
    verein = get_object_or_404(Verein, slug=slug)
    shown = Tournament.across_vereine.filter(verein=verein, public_pages=True)
    today = timezone.localdate()
    upcoming = shown.filter(date__gte=today).order_by("date", "name")
    past = shown.exclude(date__gte=today).order_by("-date", "name")
    cups = [
        s
        for s in Series.across_vereine.filter(verein=verein).prefetch_related("tournaments")
        if s.tournaments.exists() and all(t.public_pages for t in s.tournaments.all())
    ]
    return render(
        request,
        "public/verein.html",
        {"verein": verein, "upcoming": upcoming, "past": past, "cups": cups},
    )
