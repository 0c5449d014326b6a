from __future__ import annotations

import re

from django.db.models import prefetch_related_objects
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from ..models import Competition, Tournament
from ..services.access import ROLE_ACTIONS, Action, NotAllowed, role_of
from ..services.evening.hall import HallView, hall_view

PLAIN_INT = re.compile(r"[0-9]{1,9}")


def plain_int(text: str) -> int | None:
    """ASCII digits (at most 9) as a number, else None — "²" and "٣" are digits to
    str.isdigit, and a 40-digit number overflows the database."""
    return int(text) if PLAIN_INT.fullmatch(text) else None


def get_tournament(slug: str) -> Tournament:
    """The tournament with its competitions (every page names them: one query, not one per
    use)."""
    return get_object_or_404(Tournament.objects.prefetch_related("competitions"), slug=slug)


def desk_tournament(request: HttpRequest, slug: str, action: Action = Action.VIEW) -> Tournament:
    """The tournament of a desk page: 404 unless the user is a member of it or of its
    Verein (a tournament one does not belong to does not exist for one; the desk's scope
    hides other Vereine' tournaments anyway), 403 when the role does not allow ``action``."""
    tournament = Tournament.objects.filter(slug=slug).first()  # within the desk's scope
    role = role_of(request.user, tournament) if tournament is not None else None
    if tournament is None or role is None:
        raise Http404
    if action not in ROLE_ACTIONS.get(role, frozenset()):
        raise NotAllowed(_("Das darf nur die Turnierleitung."))
    tournament.desk_role = role  # type: ignore[attr-defined]  # for the templates
    prefetch_related_objects([tournament], "competitions")  # every page names them
    return tournament


def requested_hall(request: HttpRequest, tournament: Tournament, **parts: bool) -> HallView:
    """The hall one round at a time as the page's query asks for it (``?round=``, ``?page=``,
    ``?q=``): the seating page, the results overview and the tables' board."""
    return hall_view(
        tournament,
        request.GET.get("round", ""),
        request.GET.get("page", ""),
        request.GET.get("q", ""),
        **parts,
    )


def get_competition(tournament: Tournament, mode: str) -> Competition:
    for competition in tournament.competitions.all():
        if competition.mode == mode:
            return competition
    raise Http404


def after_round_param(request: HttpRequest) -> int | None:
    """``?round=N`` as a small number, or None (anything else is ignored, never a 500)."""
    value = request.GET.get("round", "")
    return int(value) if re.fullmatch(r"[0-9]{1,2}", value) else None
