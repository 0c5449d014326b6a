"""Big fields: every desk, public and table page, a sheet save, each PDF of a round and the
workbook, for demo tournaments of 30, 300 and 999 Einzel entrants (with 10, 50 and 150 pairs),
rounds 1-2 scored from dealt hands, round 3 open — the tournament ``manage.py demo --entrants N
--pairs P`` makes. Prints the median time and the SQL query count of each, per size, and checks
the targets: every page ≤ 100 ms at 300 and ≤ 250 ms at 999 entrants with query counts equal
across sizes, a save ≤ 50 ms, the round's score sheets ≤ 3 s and the workbook ≤ 2 s at 999.

The pages are not listed by hand: every named GET route of the desk, public and table
namespaces of ``binokel_tournament.urls`` is measured, its URL keywords filled from the demo
tournament (``FILL``, ``ROUTE_FILL``, query strings in ``QUERIES``) — each competition mode, a
confirmed round-1 and an open round-3 table, the last entrant, the cup. Routes that only take
POST (``require_POST`` or a GET answered 405) are left out, downloads are measured by their
exporters. A route the script cannot fill stops it with an error: a new page cannot be missed.
Public pages are measured as they are made (after every change), not as served from the cache.

Run: .venv/bin/python benchmarks/scale.py [--sizes 30,300,999] [--runs 7]
     DATABASE_URL=postgres://postgres@127.0.0.1:5432/NAME .venv/bin/python benchmarks/scale.py
(a throwaway SQLite file unless DATABASE_URL names a database; the tournaments are built once
per database and reused, the build time is printed separately)."""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import _machine as machine
from _django import setup

setup()

from django.db import connection, reset_queries  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, override_settings  # noqa: E402
from django.urls import URLPattern, URLResolver, get_resolver, reverse  # noqa: E402
from django.utils.http import urlencode  # noqa: E402

from binokel_tournament.exports import (  # noqa: E402
    PDF_EXPORTERS,  # noqa: E402
    CsvExporter,
    ExportOptions,
)
from binokel_tournament.exports import RankingsWorkbookExporter as Workbook  # noqa: E402
from binokel_tournament.exports.registry import EXPORTERS  # noqa: E402
from binokel_tournament.models import (  # noqa: E402
    Entrant,
    Mode,
    ScoreSheet,
    Table,
    TableKind,
    Tournament,
)
from binokel_tournament.services.demo import create_demo, ensure_users  # noqa: E402
from binokel_tournament.services.evening.players import ensure_links  # noqa: E402
from binokel_tournament.services.evening.simulation import simulated_entries  # noqa: E402
from binokel_tournament.services.server import backup  # noqa: E402
from binokel_tournament.services.sheets import results, sheet_fields, table_entry  # noqa: E402

PAIRS = {30: 10, 300: 50, 999: 150}
PAGE_TARGETS_MS = {300: 100.0, 999: 250.0}
PAGE_GROUPS = ("desk", "public", "table")
SAVE_TARGET_MS = 50.0
SHEETS_TARGET_S = 3.0
WORKBOOK_TARGET_S = 2.0


class Unfilled(Exception):
    """A route this script does not know how to fill: teach it (FILL, ROUTE_FILL, QUERIES)."""


@dataclass
class Figure:
    seconds: float | None = None  # median wall time
    cpu: float | None = None  # median CPU time of this process (see timed)
    queries: int | None = None
    error: str = ""

    def time(self, measure: str) -> float:
        value = self.seconds if measure == "wall" else self.cpu
        assert value is not None
        return value


@dataclass
class Row:
    group: str
    label: str
    figures: dict[int, Figure] = field(default_factory=dict)


def timed(call: Callable[[], object], runs: int) -> Figure:
    """Median wall time over ``runs`` after one warm-up, the median CPU time of this process
    over the same runs, and the queries of one more call. On SQLite the database works in
    this process, so the CPU time is what the wall time would be if no other program
    competed for the processor (on a shared machine the wall time can be several times
    more); PostgreSQL's own work is not in it."""
    try:
        call()
        times, cpu = [], []
        for _ in range(runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            call()
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        with CaptureQueriesContext(connection) as ctx:
            call()
        queries = len(ctx.captured_queries)
        reset_queries()
        return Figure(statistics.median(times), statistics.median(cpu), queries)
    except Unfilled:  # the page list is wrong: stop, do not report a figure
        raise
    except Exception as exc:  # report and go on: one broken page must not hide the others
        return Figure(error=f"{type(exc).__name__}: {str(exc).splitlines()[0][:60]}")


def build(entrants: int) -> tuple[Tournament, float]:
    slug = f"scale-{entrants}"
    start = time.perf_counter()
    tournament, _created = create_demo(entrants, PAIRS.get(entrants, entrants // 7), slug=slug)
    seconds = time.perf_counter() - start
    if connection.vendor == "postgresql":  # what autovacuum does after a bulk load
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return tournament, seconds


# The pages come from the URL configuration: every named GET route of these namespaces.
NAMESPACES = ("desk", "public", "table")
# Downloads are measured by their exporters below (measure_exports), not fetched as pages.
DOWNLOADS = frozenset(
    {
        "desk:export_pdf",
        "desk:export_xlsx",
        "desk:export_csv",
        "desk:export",
        "desk:backup_download",
        "public:certificate",
    }
)


@dataclass(frozen=True)
class Route:
    name: str  # "desk:standings"
    view: Callable[..., object]
    keywords: tuple[str, ...]  # the URL's keyword arguments

    @property
    def namespace(self) -> str:
        return self.name.split(":", 1)[0]

    @property
    def short(self) -> str:
        return self.name.split(":", 1)[1]


def routes() -> list[Route]:
    """Every named route of ``NAMESPACES`` in ``binokel_tournament.urls``, through includes."""
    found: list[Route] = []

    def walk(resolver: URLResolver, namespaces: list[str], keywords: tuple[str, ...]) -> None:
        for pattern in resolver.url_patterns:
            here = keywords + tuple(pattern.pattern.converters)
            if isinstance(pattern, URLResolver):
                inner = [*namespaces, pattern.namespace] if pattern.namespace else namespaces
                walk(pattern, inner, here)
            elif namespaces and namespaces[0] in NAMESPACES:
                assert isinstance(pattern, URLPattern)
                if not pattern.name:
                    raise Unfilled(f"an unnamed route in {namespaces}: {pattern.pattern}")
                name = ":".join([*namespaces, pattern.name])
                found.append(Route(name, pattern.callback, here))

    walk(get_resolver(), [], ())
    named = {*DOWNLOADS, *QUERIES, *HTMX, *(name for name, _keyword in ROUTE_FILL)}
    unknown = named - {r.name for r in found}
    if unknown:  # a route renamed or gone: its measurement would silently stop
        raise Unfilled(f"this script names routes that do not exist: {sorted(unknown)}")
    return found


def allowed_methods(view: Callable[..., object]) -> frozenset[str] | None:
    """The methods a view's ``require_http_methods`` (``require_POST``, ``require_GET``)
    allows, found through the decorators' ``__wrapped__`` chain; None: not restricted."""
    f: object = view
    while f is not None:
        code = getattr(f, "__code__", None)
        if code is not None and "request_method_list" in code.co_freevars:
            cell = f.__closure__[code.co_freevars.index("request_method_list")]  # type: ignore[attr-defined]
            return frozenset(cell.cell_contents)
        f = getattr(f, "__wrapped__", None)
    return None


@dataclass(frozen=True)
class Ids:
    """What the URLs are filled from: the demo tournament, one confirmed round-1 table and one
    open round-3 table (the round the evening is in), the last entrant, the tournament's cup."""

    t: Tournament
    confirmed: Table
    open: Table
    entrant: Entrant
    series_slug: str

    @classmethod
    def of(cls, t: Tournament) -> Ids:
        confirmed = Table.objects.get(round__tournament=t, round__number=1, number=1)
        open_table = Table.objects.get(round__tournament=t, round__number=3, number=1)
        entrant = Entrant.objects.filter(tournament=t).order_by("start_number").last()
        series = t.series.order_by("pk").first()
        assert entrant is not None and series is not None, "the demo has entrants and a cup"
        return cls(t, confirmed, open_table, entrant, series.slug)


Values = list[tuple[str, object]]  # (label, value) of each value a keyword is measured with
# How to fill a URL keyword, whatever the route ...
FILL: dict[str, Callable[[Ids], Values]] = {
    "slug": lambda ids: [("", ids.t.slug)],
    "mode": lambda ids: [
        (str(mode.label), mode.value)
        for mode in Mode
        if ids.t.competitions.filter(mode=mode).exists()
    ],
    "table_id": lambda ids: [
        ("R1 confirmed", ids.confirmed.pk),
        ("R3 open", ids.open.pk),
    ],
    "token": lambda ids: [("R3 open", ids.open.entry_token)],
    "number": lambda ids: [("R1", 1), ("R3", 3)],
    "kind": lambda ids: [(kind, kind) for kind in PDF_EXPORTERS],
    "key": lambda ids: [(key, key) for key in EXPORTERS],
    "table": lambda ids: [(table, table) for table in CsvExporter.TABLES],
}
# ... and where a route means something else by it (``pk`` has no meaning of its own).
ROUTE_FILL: dict[tuple[str, str], Callable[[Ids], Values]] = {
    ("desk:entrant_edit", "pk"): lambda ids: [("last", ids.entrant.pk)],
    ("desk:pay", "pk"): lambda ids: [("last", ids.entrant.pk)],
    ("desk:series_detail", "slug"): lambda ids: [("cup", ids.series_slug)],
    ("public:series", "slug"): lambda ids: [("cup", ids.series_slug)],
    ("public:verein", "slug"): lambda ids: [("Verein", ids.t.verein.slug)],
    # a player's own page: the last entrant's (a pair at the end of the field)
    ("public:personal", "token"): lambda ids: [
        ("last entrant", next(x.token for x in ensure_links(ids.t) if x.entrant == ids.entrant))
    ],
    ("public:certificate", "token"): lambda ids: [
        ("last entrant", next(x.token for x in ensure_links(ids.t) if x.entrant == ids.entrant))
    ],
    # the registration's confirmation page: the last entrant's, as after registering online
    ("public:signed_up", "token"): lambda ids: [
        ("last entrant", next(x.token for x in ensure_links(ids.t) if x.entrant == ids.entrant))
    ],
}


def _elsewhere_query(ids: Ids, kwargs: dict[str, object]) -> list[tuple[str, str]]:
    """What the open sheet polls (htmx): the version and game stamps it was opened on."""
    sheet = ScoreSheet.objects.filter(table_id=kwargs["table_id"]).first()
    stamps = sheet_fields.game_stamps(sheet.entries) if sheet else {}
    query = {
        "v": str(sheet.version if sheet else 0),
        "s": ",".join(f"{n}:{s}" for n, s in sorted(stamps.items())),
    }
    return [("", "?" + urlencode(query))]


def _state_query(ids: Ids, kwargs: dict[str, object]) -> list[tuple[str, str]]:
    """The phone's first load (the whole state) and its regular poll (nothing changed)."""
    stamp = table_entry.phone_stamp(table_entry.table_by_token(str(kwargs["token"])))
    return [("", ""), ("poll", "?" + urlencode({"since": stamp}))]


def _sheet_history(ids: Ids, kwargs: dict[str, object]) -> list[tuple[str, str]]:
    sheet = ScoreSheet.objects.get(table=ids.confirmed)
    return [("", ""), ("sheet history", f"?type=ScoreSheet&id={sheet.pk}")]


# The query strings a route is measured with (default: none), the way the pages use them.
Queries = Callable[[Ids, dict[str, object]], list[tuple[str, str]]]
QUERIES: dict[str, Queries] = {
    "desk:home": lambda ids, kw: [("all", "?alle=1")],
    "desk:audit": _sheet_history,
    "desk:players": lambda ids, kw: [("", ""), ("search", "?q=M%C3%BCller")],
    "desk:player_suggestions": lambda ids, kw: [("", "?name=M%C3%BCller")],
    "desk:sheet_elsewhere": _elsewhere_query,
    "table:state": _state_query,
    "public:where": lambda ids, kw: [
        ("number", f"?q={ids.entrant.start_number}"),
        ("name", "?q=M%C3%BCller"),
    ],
}
HTMX = frozenset({"desk:player_suggestions", "desk:sheet_elsewhere"})


@dataclass(frozen=True)
class Page:
    route: Route
    label: str
    url: str
    headers: dict[str, str] = field(default_factory=dict)


def fill(route: Route, ids: Ids) -> list[tuple[str, str]]:
    """(label, URL) for every combination of the route's keyword values and query strings."""
    choices = []
    for keyword in route.keywords:
        filler = ROUTE_FILL.get((route.name, keyword)) or FILL.get(keyword)
        if filler is None:
            raise Unfilled(
                f"{route.name}: no value for the URL keyword {keyword!r} "
                "(teach benchmarks/scale.py: FILL or ROUTE_FILL)"
            )
        values = filler(ids)
        if not values:
            raise Unfilled(f"{route.name}: the demo tournament gives no {keyword!r}")
        choices.append([(keyword, label, value) for label, value in values])
    out = []
    for combination in itertools.product(*choices):
        kwargs = {keyword: value for keyword, _label, value in combination}
        labels = [label for _keyword, label, _value in combination if label]
        url = reverse(route.name, kwargs=kwargs)
        queries = QUERIES[route.name](ids, kwargs) if route.name in QUERIES else [("", "")]
        for query_label, query in queries:
            label = " ".join([route.short, *labels, *([query_label] if query_label else [])])
            out.append((label, url + query))
    return out


@dataclass
class PageList:
    pages: list[Page]
    post_only: list[str]
    downloads: list[str]


def page_list(t: Tournament, desk: Client, public: Client) -> PageList:
    """Every named GET route of ``NAMESPACES``, filled from the demo tournament; POST-only
    routes (by their decorator, or a GET answered 405) and downloads are set aside. A route
    that cannot be filled stops the script (raises ``Unfilled``)."""
    ids = Ids.of(t)
    pages: list[Page] = []
    post_only, downloads = [], []
    for route in routes():
        methods = allowed_methods(route.view)
        if methods is not None and "GET" not in methods:
            post_only.append(route.name)
            continue
        urls = fill(route, ids)
        if route.name in DOWNLOADS:
            downloads.append(route.name)
            continue
        client = desk if route.namespace == "desk" else public
        headers = {"HX-Request": "true"} if route.name in HTMX else {}
        if client.get(urls[0][1], headers=headers).status_code == 405:
            post_only.append(route.name)
            continue
        pages.extend(Page(route, label, url, headers) for label, url in urls)
    return PageList(pages, post_only, downloads)


def measure_pages(t: Tournament, runs: int, listed: set[str]) -> list[tuple[str, str, Figure]]:
    desk = Client()
    desk.force_login(ensure_users())
    public = Client()
    found = page_list(t, desk, public)
    if not listed:  # once: what is not measured as a page, and why
        print(f"  POST only, not measured: {', '.join(found.post_only)}")
        print(f"  downloads, measured as exports below: {', '.join(found.downloads)}")
    listed.add(t.slug)
    out = []
    for page in found.pages:
        client = desk if page.route.namespace == "desk" else public

        def get(client: Client = client, page: Page = page) -> None:
            response = client.get(page.url, headers=page.headers)
            if response.status_code != 200:
                raise RuntimeError(f"HTTP {response.status_code}")
            if response.get("X-Binokel-Page") == "kept":
                raise RuntimeError("served from the cache")
            if "attachment" in response.get("Content-Disposition", ""):
                raise Unfilled(f"{page.route.name} is a download: add it to DOWNLOADS")

        out.append((page.route.namespace, page.label, timed(get, runs)))
    # the sheet's live check (htmx) posts what is typed so far
    table = results.load_table(
        Table.objects.get(round__tournament=t, round__number=3, number=2, kind=TableKind.THREE).pk
    )
    typed = simulated_entries(table, random.Random(1), t.rules())
    check = reverse("desk:sheet_check", args=[t.slug, table.pk])

    def post() -> None:
        if desk.post(check, typed, HTTP_HX_REQUEST="true").status_code != 200:
            raise RuntimeError("sheet check failed")

    out.append(("desk", "sheet check (htmx POST)", timed(post, runs)))
    return out


def measure_save(t: Tournament, runs: int) -> Figure:
    """Save a full, valid sheet of an open round through ``results.save_sheet``, as a draft
    each time with other games (so every save really writes)."""
    table = Table.objects.filter(round__tournament=t, round__number=3, kind=TableKind.THREE)[0]
    table = results.load_table(table.pk)
    rules = t.rules()
    user = ensure_users()
    drafts = [simulated_entries(table, random.Random(i), rules) for i in range(runs + 2)]
    sheet = ScoreSheet.objects.filter(table=table).first()
    state = {"saves": 0, "version": sheet.version if sheet else 0}

    def save() -> None:
        entries = drafts[state["saves"] % len(drafts)]
        outcome = results.save_sheet(table, entries, user, state["version"])
        state["saves"] += 1
        state["version"] = outcome.sheet.version

    save()  # the first save creates the sheet
    return timed(save, runs)


def measure_exports(t: Tournament, runs: int) -> list[tuple[str, Figure]]:
    out = []
    for kind in ("seating", "tablecards", "scoresheets", "standings"):
        exporter = PDF_EXPORTERS[kind](t)
        out.append(
            (
                f"PDF {kind} (round 1)",
                timed(lambda e=exporter: e.render(ExportOptions(round_number=1)), runs),
            )
        )
    certificates = PDF_EXPORTERS["certificates"](t)
    out.append(("PDF certificates", timed(lambda: certificates.render(ExportOptions()), runs)))
    out.append(("workbook (xlsx)", timed(lambda: Workbook(t).render(), runs)))
    games = CsvExporter(t, "spiele")
    out.append(("CSV games", timed(lambda: games.render(), runs)))
    user = ensure_users()
    out.append(("backup (JSON)", timed(lambda: backup.backup_bytes(t, user), runs)))
    return out


def fmt(figure: Figure | None) -> str:
    if figure is None:
        return ""
    if figure.error:
        return figure.error[:24]
    assert figure.seconds is not None and figure.cpu is not None

    def duration(seconds: float) -> str:
        return f"{seconds * 1000:.1f} ms" if seconds < 10 else f"{seconds:.2f} s"

    return f"{duration(figure.seconds)} ({duration(figure.cpu)}) {figure.queries:3d} q"


# Public pages are kept in the cache until the next change (views/cached.py); measured here is
# what a page costs to make, as after every confirmed sheet: no cache (nor the tables' rate
# limit, which counts in it).
NO_CACHE = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}


def main() -> int:
    try:
        with override_settings(CACHES=NO_CACHE):
            return run()
    except Unfilled as exc:
        print(f"\nFAILED: {exc}", file=sys.stderr)
        return 2


def run() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="30,300,999")
    parser.add_argument("--runs", type=int, default=7, help="timed runs per item (median)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"database: {connection.vendor}; median of {args.runs} runs after a warm-up; "
        f"load average at start {load} ({os.cpu_count()} CPUs); {machine.describe()}"
    )
    rows: dict[tuple[str, str], Row] = {}

    def add(group: str, label: str, size: int, figure: Figure) -> None:
        rows.setdefault((group, label), Row(group, label)).figures[size] = figure

    listed: set[str] = set()
    for size in sizes:
        t, seconds = build(size)
        tables = Table.objects.filter(round__tournament=t, round__number=1).count()
        print(
            f"{size} Einzel + {PAIRS.get(size, size // 7)} pairs ({tables} tables per round): "
            f"built in {seconds:.1f} s",
            flush=True,
        )
        for group, label, figure in measure_pages(t, args.runs, listed):
            add(group, label, size, figure)
        add("save", "save a 12-game sheet", size, measure_save(t, args.runs))
        for label, figure in measure_exports(t, max(1, args.runs // 3)):
            add("export", label, size, figure)

    width = max(len(f"{r.group} {r.label}") for r in rows.values())
    print()
    print("wall time median (CPU time median of this process), SQL queries")
    print(f"{'':{width}}  " + "  ".join(f"{f'{s} entrants':>28}" for s in sizes))
    for row in rows.values():
        name = f"{row.group} {row.label}"
        print(f"{name:{width}}  " + "  ".join(f"{fmt(row.figures.get(s)):>28}" for s in sizes))
    print()
    print(
        f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}; "
        f"{machine.describe()}"
    )
    verdicts = []
    for measure in ("wall", "cpu"):
        missed = missed_targets(rows, measure)
        verdicts.append(not missed)
        title = f"targets by {measure} time"
        print(f"{title}: met" if not missed else f"{title}: MISSED\n  " + "\n  ".join(missed))
    return 0 if verdicts[0] else 1


def missed_targets(rows: dict[tuple[str, str], Row], measure: str) -> list[str]:
    missed = []
    limits = {
        "save a 12-game sheet": SAVE_TARGET_MS / 1000,
        "PDF scoresheets (round 1)": SHEETS_TARGET_S,
        "workbook (xlsx)": WORKBOOK_TARGET_S,
    }
    for row in rows.values():
        figures = row.figures
        if any(f.error for f in figures.values()):
            missed.append(f"{row.group} {row.label}: fails")
            continue
        counts = {f.queries for f in figures.values()}
        if row.group in ("desk", "public", "table", "save") and len(counts) > 1:
            missed.append(f"{row.group} {row.label}: query counts {sorted(counts)}")
        for size, target in PAGE_TARGETS_MS.items():
            f = figures.get(size)
            if row.group in PAGE_GROUPS and f and f.time(measure) * 1000 > target:
                missed.append(f"{row.group} {row.label}: {f.time(measure) * 1000:.0f} ms at {size}")
        big = figures.get(999)
        if big is not None and row.label in limits and big.time(measure) > limits[row.label]:
            missed.append(f"{row.label}: {big.time(measure):.3f} s at 999")
    return missed


if __name__ == "__main__":
    sys.exit(main())
