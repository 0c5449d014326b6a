from __future__ import annotations

import re

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from ..models import Competition, Mode, Tournament


def get_tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def get_competition(tournament: Tournament, mode: str) -> Competition:
    if mode not in Mode.values:
        raise Http404
    return get_object_or_404(Competition, tournament=tournament, mode=mode)


def after_round_param(request: HttpRequest) -> int | None:
    """``?round=N`` as a small number, or None (anything else is ignored, never a 500)."""
    value = request.GET.get("round", "")
    return int(value) if re.fullmatch(r"[0-9]{1,2}", value) else None
