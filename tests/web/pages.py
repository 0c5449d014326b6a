"""Every page of a tournament, for the tests that render them all (big fields, query counts)."""

from __future__ import annotations

from urllib.parse import quote

from django.urls import reverse

from binokel_tournament.models import Entrant, Mode, ScoreSheet, Table, Tournament


def every_page(t: Tournament) -> list[tuple[str, str]]:
    """(audience, URL) of every desk and public page of a seated tournament with round 1
    scored: each list and form, a confirmed and an open sheet, searches, other rounds."""
    slug = t.slug
    confirmed = Table.objects.get(round__tournament=t, round__number=1, number=1)
    open_table = Table.objects.filter(round__tournament=t, round__number=3).order_by("number")[0]
    entrant = Entrant.objects.filter(tournament=t).order_by("-start_number")[0]
    sheet = ScoreSheet.objects.get(table=confirmed)
    surname = quote(entrant.name.split()[-1])  # a name search that finds someone
    seating = reverse("desk:seating", args=[slug])
    overview = reverse("desk:overview", args=[slug])
    audit = reverse("desk:audit", args=[slug])
    where = reverse("public:where", args=[slug])
    desk = [
        reverse("desk:home") + "?alle=1",
        reverse("desk:dashboard", args=[slug]),
        reverse("desk:tournament_edit", args=[slug]),
        reverse("desk:entrant_edit", args=[slug, entrant.pk]),
        seating,
        seating + "?round=2&page=2",
        seating + f"?round=1&q={entrant.start_number}",
        seating + f"?round=3&q={surname}",
        overview,
        overview + "?round=3&page=2",
        overview + "?round=1&q=1",
        reverse("desk:sheet", args=[slug, confirmed.pk]),
        reverse("desk:sheet", args=[slug, open_table.pk]),
        audit,
        audit + f"?type=ScoreSheet&id={sheet.pk}",
    ]
    public = [
        reverse("public:home"),
        reverse("public:tournament", args=[slug]),
        where + f"?q={entrant.start_number}",
        where + f"?q={surname}",
    ]
    for mode in (Mode.SINGLES, Mode.PAIRS):
        desk.append(reverse("desk:entrants", args=[slug, mode]))
        desk.append(reverse("desk:standings", args=[slug, mode]))
        desk.append(reverse("desk:standings", args=[slug, mode]) + "?round=1")
        public.append(reverse("public:standings", args=[slug, mode]))
        public.append(reverse("public:beamer", args=[slug, mode]) + "?page=2")
    return [("desk", url) for url in desk] + [("public", url) for url in public]
