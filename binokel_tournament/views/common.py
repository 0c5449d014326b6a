from __future__ import annotations

import re

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from ..models import Competition, Tournament


def get_tournament(slug: str) -> Tournament:
    """The tournament with its competitions (every page names them: one query, not one per
    use)."""
    return get_object_or_404(Tournament.objects.prefetch_related("competitions"), slug=slug)


def get_competition(tournament: Tournament, mode: str) -> Competition:
    for competition in tournament.competitions.all():
        if competition.mode == mode:
            return competition
    raise Http404


def after_round_param(request: HttpRequest) -> int | None:
    """``?round=N`` as a small number, or None (anything else is ignored, never a 500)."""
    value = request.GET.get("round", "")
    return int(value) if re.fullmatch(r"[0-9]{1,2}", value) else None
