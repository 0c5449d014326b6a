"""A tournament as a backup document (``dump_tournament``) and its bytes (``backup_bytes``);
``DumpCache`` keeps the encoded lines of the last backup, so the next one encodes only what
changed."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction

from ....models import (
    AuditLog,
    Competition,
    Entrant,
    ExtraDonation,
    Game,
    Membership,
    PartyResult,
    PersonalLink,
    Player,
    Prize,
    Round,
    ScoreSheet,
    Seat,
    Series,
    Table,
    TableEntry,
    Tournament,
    WaitingRegistration,
)
from ...access import Action, Actor, can_create_tournament, require
from .format import (
    FORMAT,
    MAY_CREATE,
    USER_FIELDS,
    VERSION,
    Line,
    _dump,
    _heads,
    _rows,
    encode,
    to_bytes,
)

logger = logging.getLogger("binokel.backup")

# --- natural keys --------------------------------------------------------------------------


@dataclass
class _Keys:
    """Natural keys of a tournament's objects, for audit entries that name an object."""

    by_type: dict[str, dict[str, str]] = field(default_factory=dict)

    def add(self, object_type: str, pk: int, key: str) -> None:
        self.by_type.setdefault(object_type, {})[str(pk)] = key

    def key(self, object_type: str, object_id: str) -> str | None:
        return self.by_type.get(object_type, {}).get(object_id)


class DumpCache:
    """The encoded lines of a tournament's last backup, by what each depends on (a sheet by
    its version and time, an audit entry by the keys it names), so that the next backup
    reads and encodes only what changed. A change of the start numbers or of the tables'
    numbers drops everything (every game names its parties by start number). A line the
    last backup did not use is forgotten."""

    def __init__(self) -> None:
        self.lines: dict[tuple[str, Any], Line] = {}
        self.used: dict[tuple[str, Any], Line] = {}
        self.numbering: Any = None
        self.reused = 0
        self.written = 0

    def begin(self, numbering: Any) -> None:
        if numbering != self.numbering:
            self.lines = {}
        self.numbering = numbering
        self.used = {}
        self.reused = self.written = 0

    def section(
        self,
        name: str,
        heads: list[dict[str, Any]],
        key: Any,
        full: Any,
        encoded: bool,
    ) -> list[Any]:
        """The section's entries in the order of ``heads``: ``full(heads)`` gives the entries
        (by primary key) of the heads whose line is not cached."""
        if not encoded:
            everything = full(heads) if heads else {}
            return [everything[h["pk"]] for h in heads]
        keys = [(name, key(h)) for h in heads]
        missing = [h for h, k in zip(heads, keys, strict=True) if k not in self.lines]
        entries = full(missing) if missing else {}
        out = []
        for head, k in zip(heads, keys, strict=True):
            line = self.lines.get(k)
            if line is None:
                line = Line(encode(entries[head["pk"]]))
                self.written += 1
            else:
                self.reused += 1
            self.used[k] = line
            out.append(line)
        return out

    def end(self) -> None:
        self.lines = self.used


UNRESOLVED = "~"  # prefix of an audit object id whose object is gone (kept as history)


def dump_tournament(
    tournament: Tournament, cache: DumpCache | None = None, encoded: bool = False
) -> dict[str, Any]:
    """The tournament as a JSON-ready document (see the package docstring). With ``encoded``,
    the sheets and the audit entries are given as their lines of the file (:class:`Line`,
    for :func:`to_bytes`), taken from ``cache`` where the entry has not changed since the
    backup that filled it."""
    rows = _TournamentRows.read(tournament)
    keys = _natural_keys(rows)
    lines = cache if cache is not None else DumpCache()
    lines.begin(numbering=(tuple(rows.number_of.items()), tuple(rows.table_key.items())))
    sheets = lines.section(
        "sheets",
        rows.sheet_heads,
        rows.sheet_key,
        lambda wanted: _sheet_entries(rows, wanted),
        encoded,
    )
    audit = lines.section(
        "audit",
        rows.audit_heads,
        lambda a: (
            a["pk"],
            keys.key(a["object_type"], a["object_id"]),
            rows.users.get(a["user_id"]),
        ),
        lambda wanted: _audit_entries(rows, keys, wanted),
        encoded,
    )
    lines.end()
    return _document(rows, sheets, audit)


@dataclass
class _TournamentRows:
    """A tournament's rows as plain values (no model instances: a backup reads thousands),
    with the natural keys the document names them by. A sheet's games and the audit entries
    are most of a big tournament's backup and hardly change between two backups: only their
    heads here, the full rows where the cache does not hold the entry's line."""

    t: Tournament
    competitions: list[dict[str, Any]]
    entrants: list[dict[str, Any]]
    players: list[dict[str, Any]]
    rounds: list[dict[str, Any]]
    tables: list[dict[str, Any]]
    seats: dict[int, list[dict[str, Any]]]
    sheet_heads: list[dict[str, Any]]
    table_entries: list[dict[str, Any]]
    members: list[dict[str, Any]]
    personal_links: list[dict[str, Any]]
    extra_donations: list[dict[str, Any]]
    waiting: list[dict[str, Any]]
    prizes: list[dict[str, Any]]
    audit_heads: list[dict[str, Any]]
    series: list[dict[str, Any]]
    accounts: list[dict[str, Any]]
    # natural keys by database id
    mode_of: dict[int, str] = field(default_factory=dict)
    uid_of: dict[int, str] = field(default_factory=dict)
    number_of: dict[int, int] = field(default_factory=dict)
    round_number: dict[int, int] = field(default_factory=dict)
    table_key: dict[int, tuple[int, int]] = field(default_factory=dict)
    users: dict[int, str] = field(default_factory=dict)

    @property
    def in_t(self) -> dict[str, Any]:
        return {"table__round__tournament": self.t}

    @classmethod
    def read(cls, t: Tournament) -> _TournamentRows:
        in_t = {"table__round__tournament": t}
        entrants = _rows(
            t.entrants.order_by("start_number"), "competition_id", "player_id", "partner_player_id"
        )
        player_ids = {e["player_id"] for e in entrants} | {e["partner_player_id"] for e in entrants}
        rounds = _rows(t.round_set.order_by("number"))
        round_number = {r["pk"]: r["number"] for r in rounds}
        tables = _rows(
            Table.objects.filter(round__tournament=t).order_by("round__number", "number"),
            "round_id",
            "competition_id",
        )
        table_key = {tb["pk"]: (round_number[tb["round_id"]], tb["number"]) for tb in tables}
        seats: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for seat in _rows(
            Seat.objects.filter(**in_t).order_by("position"), "table_id", "entrant_id"
        ):
            seats[seat["table_id"]].append(seat)
        sheet_heads = _heads(
            ScoreSheet.objects.filter(**in_t),
            "table_id",
            "version",
            "updated_at",
            "entered_by_id",
            "confirmed_by_id",
        )
        sheet_heads.sort(key=lambda s: table_key[s["table_id"]])
        table_entries = _rows(TableEntry.objects.filter(**in_t), "table_id")
        table_entries.sort(key=lambda e: table_key[e["table_id"]])
        members = _rows(t.memberships.all(), "user_id")
        audit_heads = _heads(
            AuditLog.objects.filter(tournament=t).order_by("at", "id"),
            "object_type",
            "object_id",
            "user_id",
        )
        user_ids = {m["user_id"] for m in members} | {a["user_id"] for a in audit_heads}
        user_ids |= {s["entered_by_id"] for s in sheet_heads}
        user_ids |= {s["confirmed_by_id"] for s in sheet_heads}
        accounts = list(
            get_user_model()
            .objects.filter(pk__in=user_ids - {None})
            .order_by("username")
            .values("pk", *USER_FIELDS)
        )
        # who may create tournaments (and restore) where the tournament is: a restore on a
        # second laptop gives them that right again
        by_pk = {a["pk"]: a for a in accounts}
        for account in get_user_model().objects.filter(pk__in=by_pk):
            by_pk[account.pk][MAY_CREATE] = can_create_tournament(account, t.verein)
        competitions = _rows(t.competitions.order_by("mode"))
        players = _rows(
            Player.objects.filter(pk__in=player_ids - {None}).order_by("uid"), "merged_into__uid"
        )
        return cls(
            t=t,
            competitions=competitions,
            entrants=entrants,
            players=players,
            rounds=rounds,
            tables=tables,
            seats=seats,
            sheet_heads=sheet_heads,
            table_entries=table_entries,
            members=members,
            personal_links=_rows(
                PersonalLink.objects.filter(entrant__tournament=t).order_by(
                    "entrant__start_number", "partner", "created_at", "id"
                ),
                "entrant_id",
            ),
            extra_donations=_rows(t.extra_donations.order_by("created_at", "id")),
            waiting=_rows(
                t.waiting_registrations.order_by("created_at", "id"),
                "competition_id",
                "entrant_id",
            ),
            prizes=_rows(
                t.prizes.order_by("competition__mode", "position", "id"),
                "competition_id",
                "chosen_by_id",
            ),
            audit_heads=audit_heads,
            series=_rows(Series.objects.filter(tournaments=t).order_by("slug")),
            accounts=accounts,
            mode_of={c["pk"]: c["mode"] for c in competitions},
            uid_of={p["pk"]: str(p["uid"]) for p in players},
            number_of={e["pk"]: e["start_number"] for e in entrants},
            round_number=round_number,
            table_key=table_key,
            users={u["pk"]: u["username"] for u in accounts},
        )

    def sheet_key(self, s: dict[str, Any]) -> tuple[Any, ...]:
        """What a sheet's line depends on: it is encoded again only when one of these moved."""
        return (
            s["pk"],
            s["version"],
            s["updated_at"],
            self.users.get(s["entered_by_id"]),
            self.users.get(s["confirmed_by_id"]),
        )


def _natural_keys(rows: _TournamentRows) -> _Keys:
    """The natural key of every object an audit entry may name."""
    keys = _Keys()
    keys.add("Tournament", rows.t.pk, "")
    table_key, users = rows.table_key, rows.users
    for object_type, items, key in (
        ("Competition", rows.competitions, lambda r: r["mode"]),
        ("Entrant", rows.entrants, lambda r: str(r["start_number"])),
        ("WaitingRegistration", rows.waiting, lambda r: r["token"]),
        ("Round", rows.rounds, lambda r: str(r["number"])),
        ("Table", rows.tables, lambda r: "{}/{}".format(*table_key[r["pk"]])),
        ("ScoreSheet", rows.sheet_heads, lambda r: "{}/{}".format(*table_key[r["table_id"]])),
        ("Membership", rows.members, lambda r: users[r["user_id"]]),
        ("User", rows.accounts, lambda r: r["username"]),
    ):
        for row in items:
            keys.add(object_type, row["pk"], key(row))
    return keys


def _sheet_entries(
    rows: _TournamentRows, wanted: list[dict[str, Any]]
) -> dict[int, dict[str, Any]]:
    """The full entries of these sheets, with their games and the games' parties."""
    ids = [s["pk"] for s in wanted]
    if len(ids) == len(rows.sheet_heads):  # all of them: by tournament, not by a long list
        by_sheet: dict[str, Any] = {"sheet__table__round__tournament": rows.t}
        sheets = ScoreSheet.objects.filter(**rows.in_t)
    else:
        sheets, by_sheet = ScoreSheet.objects.filter(pk__in=ids), {"sheet_id__in": ids}
    games: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for game in _rows(Game.objects.filter(**by_sheet).order_by("number"), "sheet_id"):
        games[game["sheet_id"]].append(game)
    by_game = {f"game__{name}": value for name, value in by_sheet.items()}
    parties: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for party in _rows(PartyResult.objects.filter(**by_game), "game_id", "entrant_id"):
        parties[party["game_id"]].append(party)

    def game_entry(g: dict[str, Any]) -> dict[str, Any]:
        game_parties = [
            _dump(PartyResult, p, parent="game", entrant=rows.number_of[p["entrant_id"]])
            for p in parties[g["pk"]]
        ]
        game_parties.sort(key=lambda p: p["entrant"])
        return _dump(Game, g, parent="sheet", parties=game_parties)

    return {
        s["pk"]: _dump(
            ScoreSheet,
            s,
            table=list(rows.table_key[s["table_id"]]),
            entered_by=rows.users.get(s["entered_by_id"]),
            confirmed_by=rows.users.get(s["confirmed_by_id"]),
            games=[game_entry(g) for g in games[s["pk"]]],
        )
        for s in _rows(sheets, "table_id", "entered_by_id", "confirmed_by_id")
    }


def _audit_entries(
    rows: _TournamentRows, keys: _Keys, wanted: list[dict[str, Any]]
) -> dict[int, dict[str, Any]]:
    """The full audit entries, each naming its object by its natural key (an object that is
    gone keeps its id, marked as unresolved)."""
    if len(wanted) == len(rows.audit_heads):
        found = AuditLog.objects.filter(tournament=rows.t)
    else:
        found = AuditLog.objects.filter(pk__in=[a["pk"] for a in wanted])
    out = {}
    for a in _rows(found, "user_id"):
        key = keys.key(a["object_type"], a["object_id"])
        entry = _dump(AuditLog, a, user=rows.users.get(a["user_id"]))
        entry["object_key"] = key
        entry["object_id"] = None if key is not None else a["object_id"].removeprefix(UNRESOLVED)
        out[a["pk"]] = entry
    return out


def _document(rows: _TournamentRows, sheets: list[Any], audit: list[Any]) -> dict[str, Any]:
    """The backup document: every part by its natural keys."""
    mode_of, number_of, r = rows.mode_of, rows.number_of, rows
    return {
        "format": FORMAT,
        "version": VERSION,
        "tournament": _dump(Tournament, _rows(Tournament.objects.filter(pk=r.t.pk))[0]),
        "competitions": [_dump(Competition, c) for c in r.competitions],
        "entrants": [
            _dump(
                Entrant,
                e,
                competition=mode_of[e["competition_id"]],
                player=r.uid_of.get(e["player_id"]),
                partner_player=r.uid_of.get(e["partner_player_id"]),
            )
            for e in r.entrants
        ],
        "players": [
            _dump(
                Player,
                p,
                merged_into=str(p["merged_into__uid"]) if p["merged_into__uid"] else None,
            )
            for p in r.players
        ],
        "personal_links": [
            _dump(PersonalLink, link, entrant=number_of[link["entrant_id"]])
            for link in r.personal_links
        ],
        "waiting_registrations": [
            _dump(
                WaitingRegistration,
                w,
                competition=mode_of[w["competition_id"]],
                entrant=number_of.get(w["entrant_id"]),
            )
            for w in r.waiting
        ],
        "rounds": [_dump(Round, x) for x in r.rounds],
        "tables": [
            _dump(
                Table,
                tb,
                round=r.round_number[tb["round_id"]],
                competition=mode_of[tb["competition_id"]],
                seats=[
                    _dump(Seat, s, parent="table", entrant=number_of[s["entrant_id"]])
                    for s in r.seats[tb["pk"]]
                ],
            )
            for tb in r.tables
        ],
        "sheets": sheets,
        "table_entries": [
            _dump(TableEntry, e, table=list(r.table_key[e["table_id"]])) for e in r.table_entries
        ],
        "series": [_dump(Series, x) for x in r.series],
        "members": sorted(
            (_dump(Membership, m, user=r.users[m["user_id"]]) for m in r.members),
            key=lambda m: m["user"],
        ),
        "audit": audit,
        "extra_donations": [_dump(ExtraDonation, d) for d in r.extra_donations],
        "prizes": [
            _dump(
                Prize,
                p,
                competition=mode_of[p["competition_id"]],
                chosen_by=number_of.get(p["chosen_by_id"]),
            )
            for p in r.prizes
        ],
        "users": [
            {**{name: u[name] for name in USER_FIELDS}, MAY_CREATE: u[MAY_CREATE]}
            for u in r.accounts
        ],
    }


@contextmanager
def _snapshot() -> Iterator[None]:
    """Read a tournament as of one moment while desks keep saving: a repeatable-read
    transaction on PostgreSQL, a read transaction on SQLite (in WAL mode it does not block
    the desks' writes)."""
    if connection.in_atomic_block:
        yield
        return
    if connection.vendor == "postgresql":
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            yield
        return
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("BEGIN DEFERRED")
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("COMMIT")
        return
    with transaction.atomic():
        yield


def backup_bytes(
    tournament: Tournament, user: Actor = None, cache: DumpCache | None = None
) -> bytes:
    """The tournament's backup document (organisers only); ``cache`` keeps the lines of this
    backup for the next one (the automatic backups)."""
    require(user, tournament, Action.BACKUP)
    with _snapshot():
        tournament = Tournament.objects.get(pk=tournament.pk)
        return to_bytes(dump_tournament(tournament, cache, encoded=True))
