"""The open result file (``binokel-result``, docs/result-format.md) written from a tournament: its
invitation, its entries or its results with every game, the rules, the standings and the money,
so that anyone can check it (``python -m scoring check-result``) and another club's laptop, a cup
or an archive can take it in (``services/imports.py``).

The same evening written again gives the same file: the event keeps its id, and everything is in
a fixed order (players by start number, rounds and tables by number). A file for the public
(``public``) names no player who did not agree to be named; no file holds an e-mail address, a
link's token or a short code."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from importlib import metadata
from typing import Any

from django.db.models import Prefetch
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import result_file
from scoring.sheet import SheetInput
from scoring.tables import table_shape

from ..models import (
    AuditLog,
    Competition,
    Entrant,
    ScoreSheet,
    Seat,
    Table,
    Tournament,
    WaitingRegistration,
)
from ..services.evening.standings import compute_standings, counted_statuses
from ..services.money import charity
from ..services.money.prizes import prize_table
from ..services.sheets import sheet_fields as F
from ..services.sheets.results import evaluate, sheet_layout
from .base import BaseExporter, ExportError, ExportFile, ExportOptions, Offer

PROGRAM = "binokel-tournament"
KINDS = result_file.KINDS
CONTENT_TYPE = "application/json"


def program_version() -> str:
    try:
        return metadata.version(PROGRAM)
    except metadata.PackageNotFoundError:  # pragma: no cover - run from a plain checkout
        return "0"


def document(tournament: Tournament, kind: str, public: bool = False) -> dict[str, Any]:
    """The file's document of ``kind`` (invitation, entries, results)."""
    if kind not in KINDS:
        raise ExportError(_("Unbekannte Art der Ergebnisdatei."))
    out: dict[str, Any] = {
        "format": result_file.FORMAT,
        "version": result_file.VERSION,
        "kind": kind,
        "public": public,
        "generator": {"program": PROGRAM, "version": program_version()},
        "event": _event(tournament),
    }
    if kind in ("invitation", "results"):
        out["rules"] = {"preset": tournament.preset, "set": tournament.rules().to_dict()}
    money = _money(tournament, with_results=kind == "results")
    if money:
        out["money"] = money
    if kind in ("entries", "results"):
        out["players"] = _players(tournament, public, waiting=kind == "entries")
    if kind == "results":
        out["rounds"] = _rounds(tournament)
        out["corrections"] = _corrections(tournament)
        out["withdrawals"] = _withdrawals(tournament)
        out["adjustments"] = []
        out["standings"] = _standings(tournament)
        out["prizes"] = _prizes(tournament)
    extensions = tournament.imported_parts.get("extensions")
    if extensions:
        out["extensions"] = extensions
    return out


def to_bytes(doc: Mapping[str, Any]) -> bytes:
    """The file's bytes: UTF-8 JSON, keys in the document's order, one indent level."""
    return (json.dumps(doc, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


# --- the parts --------------------------------------------------------------------------------
def _event(t: Tournament) -> dict[str, Any]:
    competitions = []
    for c in t.competitions.order_by("mode"):
        competitions.append(
            {
                "mode": c.mode,
                "capacity": c.capacity,
                "registration_until": (
                    c.registration_closes.isoformat() if c.registration_closes else None
                ),
            }
        )
    event = {
        "id": t.event_id,
        "name": t.name,
        "date": t.date.isoformat() if t.date else None,
        "town": t.town,
        "venue": t.venue,
        "organiser": {"club": t.organiser_club},
        "series": _series(t),
        "rounds": t.rounds,
        "prize_mode": t.prize_mode,
        "competitions": competitions,
    }
    if t.one_prize_per_person:  # optional (1.x): written only where it is on
        event["one_prize_per_person"] = True
    return event


def _series(t: Tournament) -> list[dict[str, str]]:
    """The cups the evening counts for: here, and (taken in from a file) where it came from."""
    series = {s.slug: {"id": s.slug, "name": s.name} for s in t.series.all()}
    for kept in t.imported_parts.get("series", []):
        series.setdefault(kept["id"], dict(kept))
    return [series[key] for key in sorted(series)]


def _money(t: Tournament, with_results: bool) -> dict[str, Any]:
    if not charity.has_money(t):
        return {}
    rule = charity.donation_rule(t)
    out: dict[str, Any] = {
        "currency": "EUR",
        "entry_fee_cents": t.entry_fee_cents,
        "fee_per_player": t.fee_per_player,
        "purpose": t.charity_purpose,
        "donation": {"tiers": rule.to_pairs(), "count_conceded": rule.count_conceded},
    }
    if with_results:
        items = charity.statements(t)
        out["extra_donations_cents"] = charity.extra_cents(t)
        out["donations"] = [
            {
                "competition": i.entrant.competition.mode,
                "start_number": i.statement.start_number,
                "lost_games": i.statement.lost,
                "cents": i.statement.donation_cents,
            }
            for i in items
            if i.statement.lost or i.statement.donation_cents
        ]
        out["total_cents"] = charity.evening(t, items).total_cents
    return out


def _name(full: str) -> dict[str, str]:
    return {"full": full}


def _ids(entrant: Entrant, partner: bool) -> dict[str, str]:
    player = entrant.partner_player if partner else entrant.player
    return {"register": str(player.uid)} if player is not None else {}


def _players(t: Tournament, public: bool, waiting: bool) -> list[dict[str, Any]]:
    entrants = t.entrants.select_related("competition", "player", "partner_player").order_by(
        "start_number"
    )
    out = [_player(e, public) for e in entrants]
    if waiting:
        queue = WaitingRegistration.objects.filter(
            tournament=t, entrant=None, cancelled_at=None
        ).select_related("competition")
        for w in queue.order_by("created_at", "pk"):
            row: dict[str, Any] = {
                "competition": w.competition.mode,
                "status": "waiting",
                "public": w.public_name,
            }
            if w.public_name or not public:
                row["name"] = _name(w.name)
                if w.partner:
                    row["partner"] = _name(w.partner)
                if w.club:
                    row["club"] = w.club
                if w.categories:
                    row["categories"] = list(w.categories)
            out.append(row)
    return out


def _player(e: Entrant, public: bool) -> dict[str, Any]:
    row: dict[str, Any] = {
        "competition": e.competition.mode,
        "start_number": e.start_number,
        "public": e.public_name,
    }
    if public and not e.public_name:
        return row  # a start number only: no name, no club, no ids
    row["name"] = _name(e.name)
    if e.partner:
        row["partner"] = _name(e.partner)
    if e.club:
        row["club"] = e.club
    if e.categories:
        row["categories"] = list(e.categories)
    ids = _ids(e, partner=False)
    if ids:
        row["ids"] = ids
    partner_ids = _ids(e, partner=True)
    if partner_ids:
        row["partner_ids"] = partner_ids
    row["status"] = "registered"
    for flag in ("late", "unranked", "withdrawn"):
        if getattr(e, flag):
            row[flag] = True
    return row


def _source(t: Tournament, table: Table, sheet: ScoreSheet | None) -> str:
    """How the table entered its games: on a phone, on paper (typed at the desk), or both."""
    kept = t.imported_parts.get("sources", {}).get(f"{table.round.number}-{table.number}")
    if kept:
        return str(kept)
    sources = set((sheet.game_sources or {}).values()) if sheet is not None else set()
    if "table" not in sources:
        return "paper"
    return "phone" if sources <= {"table"} else "mixed"


def _rounds(t: Tournament) -> list[dict[str, Any]]:
    rules = t.rules()
    tables = (
        Table.objects.filter(round__tournament=t)
        .select_related("round", "competition", "sheet")
        .prefetch_related(Prefetch("seats", Seat.objects.select_related("entrant")))
        .order_by("round__number", "number")
    )
    rounds: dict[int, dict[str, Any]] = {}
    for r in t.round_set.order_by("number"):
        rounds[r.number] = {
            "number": r.number,
            "started_at": r.started_at.isoformat() if r.started_at else None,
            "finished_at": r.finished_at.isoformat() if r.finished_at else None,
            "tables": [],
        }
    for table in tables:
        sheet: ScoreSheet | None = getattr(table, "sheet", None)
        rounds[table.round.number]["tables"].append(_table(t, table, sheet, rules))
    return [r for r in rounds.values() if r["tables"]]


def _table(t: Tournament, table: Table, sheet: ScoreSheet | None, rules: Any) -> dict[str, Any]:
    layout = sheet_layout(table, rules)
    entries = F.normalized(F.clean(sheet.entries)) if sheet is not None else {}
    evaluation = evaluate(layout, entries, rules)
    engine = evaluation.input.to_dict()
    games: list[dict[str, Any] | None] = []
    for index, game in enumerate(engine["games"]):
        if game is None or index >= len(evaluation.score.games):
            games.append(None)
            continue
        scored = evaluation.score.games[index]
        games.append(
            {
                **game,
                "points": None if scored.points is None else list(scored.points),
                "won": scored.won,
            }
        )
    out: dict[str, Any] = {
        "number": table.number,
        "competition": table.competition.mode,
        "kind": table.kind,
        "seats": [c.entrant.start_number for c in layout.columns],
        "first_dealer": 1,
        "source": _source(t, table, sheet),
        "status": sheet.status if sheet is not None else "missing",
        "games": games,
    }
    if "written_totals" in engine:
        out["written_totals"] = engine["written_totals"]
    out["totals"] = list(evaluation.score.totals)
    return out


def _corrections(t: Tournament) -> list[dict[str, Any]]:
    """Every change of a confirmed sheet, game by game: who, when, before and after (as the
    engine reads a game). An evening taken in from a file keeps the file's."""
    if t.imported:
        return list(t.imported_parts.get("corrections", []))
    sheets = {
        str(pk): (r, n, kind)
        for pk, r, n, kind in ScoreSheet.objects.filter(table__round__tournament=t).values_list(
            "pk", "table__round__number", "table__number", "table__kind"
        )
    }
    out = []
    log = AuditLog.objects.filter(
        tournament=t, object_type="ScoreSheet", action="sheet.correct"
    ).select_related("user")
    for entry in log.order_by("at", "id"):
        where = sheets.get(entry.object_id)
        after_games = entry.after.get("games") if isinstance(entry.after, dict) else None
        if where is None or not isinstance(after_games, dict):
            continue
        before_games = entry.before.get("games", {}) if isinstance(entry.before, dict) else {}
        for key in sorted(after_games, key=int):
            out.append(
                {
                    "round": where[0],
                    "table": where[1],
                    "game": int(key),
                    "by": entry.user.get_username() if entry.user else None,
                    "at": entry.at.isoformat(),
                    "before": _engine_game(before_games.get(key) or {}, int(key), where[2]),
                    "after": _engine_game(after_games[key] or {}, int(key), where[2]),
                }
            )
    return out


def _engine_game(fields: Mapping[str, str], number: int, kind: str) -> dict[str, Any] | None:
    """One game's stored fields as the engine reads a game (None: no game)."""
    if not fields:
        return None
    shape = table_shape(kind)
    read = F.read_entries(fields, shape, max(number, 1))
    games = read.sheet.games
    if number == F.TOTALS or number > len(games) or games[number - 1] is None:
        return {"fields": dict(fields)}  # the written totals: their fields as they are
    engine: dict[str, Any] = SheetInput(shape.kind, (games[number - 1],)).to_dict()["games"][0]
    return engine


def _withdrawals(t: Tournament) -> list[dict[str, Any]]:
    out = []
    withdrawn = t.entrants.filter(withdrawn=True).select_related("competition")
    for e in withdrawn.order_by("start_number"):
        rounds = e.seats.values_list("table__round__number", flat=True)
        out.append(
            {
                "competition": e.competition.mode,
                "start_number": e.start_number,
                "after_round": max(rounds, default=0),
            }
        )
    return out


def _standings(t: Tournament) -> list[dict[str, Any]]:
    out = []
    counted = [str(s) for s in counted_statuses(t)]
    for competition in t.competitions.order_by("mode"):
        standings = compute_standings(competition)
        state = standings.state
        keys = [m.key for m in standings.metrics]
        out.append(
            {
                "competition": competition.mode,
                "after_round": len(standings.rounds),
                "final": bool(state is not None and state.final),
                "counted": counted,
                "tie_breaks": keys,
                "rows": [
                    {
                        "start_number": row.entrant.start_number,
                        "rank": row.place,
                        "shared": row.shared,
                        "total": row.total,
                        "rounds": list(row.round_points),
                        "tie_breaks": {k: row.metrics[k] for k in keys},
                    }
                    for row in standings.rows
                ],
            }
        )
    return out


def _prizes(t: Tournament) -> list[dict[str, Any]]:
    out = []
    for competition in t.competitions.order_by("mode"):
        if not competition.prizes.exists():
            continue
        table = prize_table(competition)
        for row in table.rows:
            prize = row.prize
            out.append(
                {
                    "competition": competition.mode,
                    "position": prize.position,
                    "description": prize.description,
                    "value_cents": prize.value_cents,
                    "special": prize.special,
                    "withdrawn_may_win": prize.withdrawn_may_win,
                    "winner": row.entrant.start_number if row.entrant is not None else None,
                    "chosen": prize.chosen_by_id is not None,
                }
            )
    return out


# --- the exporter of the registry ------------------------------------------------------------
class ResultFileExporter(BaseExporter):
    """The open result file (``binokel-result``): the invitation, the entries, or the results
    with every game; ``?public=1`` for the public (no player named who did not agree)."""

    identifier = "ergebnisdatei"
    verbose_name = gettext_lazy("Ergebnisdatei (binokel-result, JSON)")
    file_stem = "ergebnis"
    extension = "json"
    content_type = CONTENT_TYPE

    def __init__(self, tournament: Tournament, kind: str = "results", public: bool = False) -> None:
        super().__init__(tournament)
        if kind not in KINDS:
            raise ExportError(_("Unbekannte Art der Ergebnisdatei."))
        self.kind = kind
        self.public = public

    @classmethod
    def for_query(cls, tournament: Tournament, query: Mapping[str, str]) -> ResultFileExporter:
        return cls(tournament, query.get("kind", "results"), query.get("public") == "1")

    @classmethod
    def offers(cls, competitions: Sequence[Competition]) -> list[Offer]:
        return [
            Offer(_("Ergebnisse"), {"kind": "results"}),
            Offer(_("Ergebnisse öffentlich"), {"kind": "results", "public": "1"}),
            Offer(_("Anmeldungen"), {"kind": "entries"}),
            Offer(_("Einladung"), {"kind": "invitation"}),
        ]

    def render(self, options: ExportOptions | None = None) -> ExportFile:
        content = to_bytes(document(self.tournament, self.kind, self.public))
        stem = {"results": "ergebnis", "entries": "anmeldungen", "invitation": "einladung"}
        name = f"{self.tournament.slug}-{stem[self.kind]}{'-oeffentlich' if self.public else ''}"
        return ExportFile(f"{name}.json", self.content_type, content)
