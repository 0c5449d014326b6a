"""A static website of the evening to upload to a club's web space (``manage.py export_site``):
``index.html`` first, then per tournament the standings (final and after each round), the
categories and clubs, the prizes, the statistics, and the series it counts for. Plain HTML
with relative links and one stylesheet; the same services as the desk and public pages."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from .. import pages
from ..models import Competition, Mode, Series, Tournament, public_names
from ..services.evening.standings import ranking_scope

STYLE = "style.css"


@dataclass
class SitePage:
    path: str  # relative to the site's root
    title: str


@dataclass
class TournamentSite:
    tournament: Tournament
    folder: str  # "" or "<slug>/"
    pages: list[SitePage] = field(default_factory=list)


def _write(out: Path, path: str, template: str, context: dict[str, object]) -> None:
    depth = path.count("/")
    html = render_to_string(template, {**context, "root": "../" * depth, "style": STYLE})
    target = out / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(html, encoding="utf-8")


def _competitions(t: Tournament) -> list[Competition]:
    return sorted(t.competitions.all(), key=lambda c: c.mode != Mode.SINGLES)


def write_tournament(out: Path, t: Tournament, folder: str) -> TournamentSite:

    site = TournamentSite(t, folder)
    base = {"tournament": t, "site": site}
    for c in _competitions(t):
        label = str(c.get_mode_display())
        played = ranking_scope(c).after or 0  # the last round with counted results
        for after in [None, *range(1, played + 1)]:
            suffix = f"-d{after}" if after else ""
            name = f"rangliste-{c.mode}{suffix}.html"
            title = (
                _("Rangliste %(mode)s") % {"mode": label}
                if after is None
                else _("Rangliste %(mode)s nach dem %(n)s. Durchgang") % {"mode": label, "n": after}
            )
            site.pages.append(SitePage(folder + name, title))
            _write(
                out,
                folder + name,
                "site/standings.html",
                {**pages.standings_page(c, after), **base, "title": title},
            )
        sub = pages.subrankings_page(c)
        if sub["sub"].categories or sub["sub"].clubs:
            name = f"kategorien-{c.mode}.html"
            title = _("Kategorien und Vereine %(mode)s") % {"mode": label}
            site.pages.append(SitePage(folder + name, title))
            _write(out, folder + name, "site/subrankings.html", {**sub, **base, "title": title})
        if c.prizes.exists():
            name = f"preise-{c.mode}.html"
            title = _("Preise %(mode)s") % {"mode": label}
            site.pages.append(SitePage(folder + name, title))
            _write(
                out,
                folder + name,
                "site/prizes.html",
                {**pages.prizes_page(c), **base, "title": title},
            )
    title = _("Der Abend in Zahlen")
    site.pages.append(SitePage(folder + "statistik.html", title))
    _write(
        out,
        folder + "statistik.html",
        "site/statistics.html",
        {**pages.statistics_page(t), **base, "title": title},
    )
    for series in Series.objects.filter(tournaments=t):
        name = f"cup-{series.slug}.html"
        site.pages.append(SitePage(folder + name, series.name))
        _write(
            out,
            folder + name,
            "site/series.html",
            {**pages.series_page(series), **base, "title": series.name},
        )
    _write(
        out,
        folder + "index.html",
        "site/tournament.html",
        {**pages.tournament_page(t), **base, "title": t.name},
    )
    return site


def write_site(out: Path, tournaments: list[Tournament]) -> list[Path]:
    """Write the site into ``out``; returns the files written (``index.html`` first)."""
    with public_names():  # names without consent show as "Startnummer 17"
        return _write_site(out, tournaments)


def _write_site(out: Path, tournaments: list[Tournament]) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(Path(settings.BASE_DIR) / "static" / "binokel" / "desk.css", out / STYLE)
    if len(tournaments) == 1:
        write_tournament(out, tournaments[0], "")
    else:
        sites = [write_tournament(out, t, f"{t.slug}/") for t in tournaments]
        _write(out, "index.html", "site/index.html", {"sites": sites, "title": _("Turniere")})
    files = sorted(p for p in out.rglob("*") if p.is_file())
    index = out / "index.html"
    return [index, *[p for p in files if p != index]]
