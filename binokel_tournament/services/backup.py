"""Backup and restore of one whole tournament as one JSON document, and the automatic backups.

The document holds the tournament with its rule set, competitions, entrants, rounds, tables
with their seats, score sheets (typed entries, version, who entered and confirmed them) with
their stored games and points, the charity evening (extra donations, the prize table with the
winners' choices; fees, donation rule, paid flags and categories are fields of the tournament
and its entrants), what the tables did on their phones (seat check, confirmation, help
calls, the games as the table entered them), the cups (series) it counts for, the audit log,
the members and the accounts they use (username, password hash, active). It names things by
what they are, never by database ids (an entrant by its start number, a table by round and
number, a user by username), and it is written deterministically (sorted keys, fixed order),
so backup → restore into an empty database → backup gives the same bytes.

Every field of a model is carried (new fields of the models come along without touching this
module); every relation must be named here, and a model field this module does not know makes
the backup fail loudly rather than lose it.

Automatic backups: after every confirmed sheet and every seating change the service calls
:func:`schedule_backup`; once that transaction has committed, the tournament is written to
``BACKUP_DIR/<slug>/<slug>-<time>.json`` (temp file + rename, so a half-written backup never
has a backup's name), keeping the newest ``BACKUP_KEEP``. Writing happens in a background
thread of the server process, so a desk's save never waits for it; confirmations that come in
while a backup is written, or within BACKUP_MIN_INTERVAL seconds of the last one, share the
next backup (a file lock and a marker coordinate the server's processes). So the newest backup
is at most a few seconds behind the database — and the database itself never loses an
acknowledged save.
"""

from __future__ import annotations

import atexit
import functools
import json
import logging
import os
import re
import tempfile
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import DatabaseError, connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import ScoringError

from ..models import (
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
    Role,
    Round,
    ScoreSheet,
    Seat,
    Series,
    Table,
    TableEntry,
    Tournament,
    WaitingRegistration,
    new_entry_token,
    new_personal_code,
    new_personal_token,
)
from .access import Action, Actor, account_id, require, require_create_tournament
from .errors import DeskError

logger = logging.getLogger("binokel.backup")

FORMAT = "binokel-backup"
VERSION = 1
MAX_BYTES = 200 * 1024 * 1024

# The relations each model has, by field name; they are written as natural keys below.
RELATIONS: dict[type[models.Model], set[str]] = {
    Tournament: set(),
    Competition: {"tournament"},
    Entrant: {"tournament", "competition", "player", "partner_player"},
    Player: set(),
    Round: {"tournament"},
    Table: {"round", "competition"},
    Seat: {"table", "entrant"},
    ScoreSheet: {"table", "entered_by", "confirmed_by"},
    Game: {"sheet"},
    PartyResult: {"game", "entrant"},
    Membership: {"tournament", "user"},
    AuditLog: {"tournament", "user"},
    ExtraDonation: {"tournament"},
    Prize: {"tournament", "competition", "chosen_by"},
    TableEntry: {"table"},
    Series: set(),
    PersonalLink: {"entrant"},
    WaitingRegistration: {"tournament", "competition", "entrant"},
}
USER_FIELDS = ("username", "password", "is_active")


class BackupError(DeskError):
    """A backup that cannot be read or restored; nothing was changed."""


# --- fields -------------------------------------------------------------------------------


@functools.cache
def _plain_fields(model: type[models.Model]) -> tuple[models.Field[Any, Any], ...]:
    known = RELATIONS[model]
    out = []
    for f in model._meta.concrete_fields:
        if f.primary_key:
            continue
        if f.is_relation:
            if f.name not in known:
                raise RuntimeError(
                    f"backup: {model.__name__}.{f.name} is a relation it does not know"
                )
            continue
        out.append(f)
    return tuple(out)


def _rows(queryset: models.QuerySet[Any], *extra: str) -> list[dict[str, Any]]:
    """The rows of a query as dicts of the plain fields (by attribute name), the primary key
    and ``extra`` columns — plain values, no model instances (a backup reads thousands)."""
    model: type[models.Model] = queryset.model
    plain = [f.attname for f in _plain_fields(model)]
    return list(queryset.values("pk", *extra, *plain))


def _heads(queryset: models.QuerySet[Any], *columns: str) -> list[dict[str, Any]]:
    """The primary key and a few columns of each row (what decides whether a cached line is
    still right)."""
    return list(queryset.values("pk", *columns))


def _to_json(f: models.Field[Any, Any], value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(f, models.DateTimeField):
        return value.astimezone(UTC).isoformat()
    if isinstance(f, models.DateField):
        return value.isoformat()
    if isinstance(f, models.DecimalField):
        return str(value)  # exact, as written: "4.0"
    return value


def _from_json(f: models.Field[Any, Any], value: Any) -> Any:
    if value is None:
        if not f.null:
            raise ValidationError(f"{f.name} is empty")
        return None
    if isinstance(f, models.DateTimeField):
        parsed = datetime.fromisoformat(str(value))
        if timezone.is_naive(parsed):
            raise ValidationError(f"{f.name} has no time zone")
        return parsed
    if isinstance(f, models.DateField):
        return date.fromisoformat(str(value))
    if isinstance(f, models.JSONField):
        return value
    if isinstance(f, models.DecimalField):
        try:
            return Decimal(str(value))
        except (InvalidOperation, ValueError) as exc:
            raise ValidationError(f"{f.name} is not a number") from exc
    if isinstance(f, models.BooleanField) and not isinstance(value, bool):
        raise ValidationError(f"{f.name} is not true/false")
    if isinstance(f, models.IntegerField) and (
        isinstance(value, bool) or not isinstance(value, int)
    ):
        raise ValidationError(f"{f.name} is not a whole number")
    if isinstance(f, models.CharField | models.TextField) and not isinstance(value, str):
        raise ValidationError(f"{f.name} is not text")
    if isinstance(value, str) and "\x00" in value:
        raise ValidationError(f"{f.name} holds a NUL character")
    return f.clean(value, None)


def _dump(
    model: type[models.Model], row: dict[str, Any], parent: str = "tournament", **relations: Any
) -> dict[str, Any]:
    """A row's plain fields and its relations as natural keys; the ``parent`` relation is
    implied by where the entry stands in the document."""
    missing = RELATIONS[model] - set(relations) - {parent, "tournament"}
    if missing:
        raise RuntimeError(f"backup: {model.__name__} relations not written: {missing}")
    out = {f.name: _to_json(f, row[f.attname]) for f in _plain_fields(model)}
    out.update(relations)
    return out


def _build(model: type[models.Model], data: Any, relations: Iterable[str], **values: Any) -> Any:
    """A model instance from a backup entry. A field the entry lacks takes its default when
    it has one (a backup written before that field existed: last week's backup still restores
    after an update); a field without a default missing, or a field this version does not
    know (a backup of a newer version), refuses the backup rather than restoring half."""
    if not isinstance(data, dict):
        raise ValidationError(f"{model.__name__}: not an object")
    plain = _plain_fields(model)
    expected = {f.name for f in plain} | set(relations)
    unknown = set(data) - expected
    missing = {f.name for f in plain if f.name not in data and not _has_default(f)}
    if unknown or missing:
        raise ValidationError(
            f"{model.__name__}: unknown fields {sorted(unknown)}, missing {sorted(missing)}"
        )
    kwargs = {f.attname: _from_json(f, data[f.name]) for f in plain if f.name in data}
    kwargs.update(values)
    return model(**kwargs)  # fields left out take their defaults


def _has_default(f: models.Field[Any, Any]) -> bool:
    return f.has_default() or f.null or (f.empty_strings_allowed and f.blank)


# --- natural keys --------------------------------------------------------------------------


@dataclass
class _Keys:
    """Natural keys of a tournament's objects, for audit entries that name an object."""

    by_type: dict[str, dict[str, str]] = field(default_factory=dict)

    def add(self, object_type: str, pk: int, key: str) -> None:
        self.by_type.setdefault(object_type, {})[str(pk)] = key

    def key(self, object_type: str, object_id: str) -> str | None:
        return self.by_type.get(object_type, {}).get(object_id)


class Line(str):
    """One list entry of a backup file, already encoded (see :func:`to_bytes`)."""


def encode(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


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
    """The tournament as a JSON-ready document (see the module docstring). With ``encoded``,
    the sheets and the audit entries are given as their lines of the file (:class:`Line`,
    for :func:`to_bytes`), taken from ``cache`` where the entry has not changed since the
    backup that filled it."""
    t = tournament
    keys = _Keys()
    keys.add("Tournament", t.pk, "")
    in_t = {"table__round__tournament": t}

    competitions = _rows(t.competitions.order_by("mode"))
    mode_of = {c["pk"]: c["mode"] for c in competitions}
    entrants = _rows(
        t.entrants.order_by("start_number"), "competition_id", "player_id", "partner_player_id"
    )
    player_ids = {e["player_id"] for e in entrants} | {e["partner_player_id"] for e in entrants}
    players = _rows(Player.objects.filter(pk__in=player_ids - {None}).order_by("uid"))
    uid_of = {p["pk"]: str(p["uid"]) for p in players}
    number_of = {e["pk"]: e["start_number"] for e in entrants}
    rounds = _rows(t.round_set.order_by("number"))
    round_number = {r["pk"]: r["number"] for r in rounds}
    tables = _rows(
        Table.objects.filter(round__tournament=t).order_by("round__number", "number"),
        "round_id",
        "competition_id",
    )
    table_key = {tb["pk"]: (round_number[tb["round_id"]], tb["number"]) for tb in tables}
    seats: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for seat in _rows(Seat.objects.filter(**in_t).order_by("position"), "table_id", "entrant_id"):
        seats[seat["table_id"]].append(seat)
    # A sheet's games and the audit entries are most of a big tournament's backup and hardly
    # change between two backups: their heads first, the full rows only where ``cache`` does
    # not hold the entry's line from the last backup.
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
    personal_links = _rows(
        PersonalLink.objects.filter(entrant__tournament=t).order_by(
            "entrant__start_number", "partner", "created_at", "id"
        ),
        "entrant_id",
    )
    extra_donations = _rows(t.extra_donations.order_by("created_at", "id"))
    waiting = _rows(
        t.waiting_registrations.order_by("created_at", "id"), "competition_id", "entrant_id"
    )
    prizes = _rows(
        t.prizes.order_by("competition__mode", "position", "id"), "competition_id", "chosen_by_id"
    )
    audit_heads = _heads(
        AuditLog.objects.filter(tournament=t).order_by("at", "id"),
        "object_type",
        "object_id",
        "user_id",
    )
    series = _rows(Series.objects.filter(tournaments=t).order_by("slug"))

    user_ids = {m["user_id"] for m in members} | {a["user_id"] for a in audit_heads}
    user_ids |= {s["entered_by_id"] for s in sheet_heads}
    user_ids |= {s["confirmed_by_id"] for s in sheet_heads}
    accounts = list(
        get_user_model()
        .objects.filter(pk__in=user_ids - {None})
        .order_by("username")
        .values("pk", *USER_FIELDS)
    )
    users = {u["pk"]: u["username"] for u in accounts}

    for object_type, rows, key in (
        ("Competition", competitions, lambda r: r["mode"]),
        ("Entrant", entrants, lambda r: str(r["start_number"])),
        ("WaitingRegistration", waiting, lambda r: r["token"]),
        ("Round", rounds, lambda r: str(r["number"])),
        ("Table", tables, lambda r: "{}/{}".format(*table_key[r["pk"]])),
        ("ScoreSheet", sheet_heads, lambda r: "{}/{}".format(*table_key[r["table_id"]])),
        ("Membership", members, lambda r: users[r["user_id"]]),
        ("User", accounts, lambda r: r["username"]),
    ):
        for row in rows:
            keys.add(object_type, row["pk"], key(row))

    lines = cache if cache is not None else DumpCache()
    lines.begin(numbering=(tuple(number_of.items()), tuple(table_key.items())))

    def audit_key(a: dict[str, Any]) -> tuple[Any, ...]:
        return (a["pk"], keys.key(a["object_type"], a["object_id"]), users.get(a["user_id"]))

    def audit_entry(a: dict[str, Any]) -> dict[str, Any]:
        key = keys.key(a["object_type"], a["object_id"])
        entry = _dump(AuditLog, a, user=users.get(a["user_id"]))
        entry["object_key"] = key
        entry["object_id"] = None if key is not None else a["object_id"].removeprefix(UNRESOLVED)
        return entry

    def sheet_key(s: dict[str, Any]) -> tuple[Any, ...]:
        return (
            s["pk"],
            s["version"],
            s["updated_at"],
            users.get(s["entered_by_id"]),
            users.get(s["confirmed_by_id"]),
        )

    def sheet_entries(wanted: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
        """The full entries of these sheets, with their games and the games' parties."""
        ids = [s["pk"] for s in wanted]
        if len(ids) == len(sheet_heads):  # all of them: by tournament, not by a long list
            by_sheet: dict[str, Any] = {"sheet__table__round__tournament": t}
            sheets = ScoreSheet.objects.filter(**in_t)
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
                _dump(PartyResult, p, parent="game", entrant=number_of[p["entrant_id"]])
                for p in parties[g["pk"]]
            ]
            game_parties.sort(key=lambda p: p["entrant"])
            return _dump(Game, g, parent="sheet", parties=game_parties)

        return {
            s["pk"]: _dump(
                ScoreSheet,
                s,
                table=list(table_key[s["table_id"]]),
                entered_by=users.get(s["entered_by_id"]),
                confirmed_by=users.get(s["confirmed_by_id"]),
                games=[game_entry(g) for g in games[s["pk"]]],
            )
            for s in _rows(sheets, "table_id", "entered_by_id", "confirmed_by_id")
        }

    def audit_entries(wanted: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
        if len(wanted) == len(audit_heads):
            rows = AuditLog.objects.filter(tournament=t)
        else:
            rows = AuditLog.objects.filter(pk__in=[a["pk"] for a in wanted])
        return {a["pk"]: audit_entry(a) for a in _rows(rows, "user_id")}

    sheet_lines = lines.section("sheets", sheet_heads, sheet_key, sheet_entries, encoded)
    audit_lines = lines.section("audit", audit_heads, audit_key, audit_entries, encoded)
    lines.end()
    return {
        "format": FORMAT,
        "version": VERSION,
        "tournament": _dump(Tournament, _rows(Tournament.objects.filter(pk=t.pk))[0]),
        "competitions": [_dump(Competition, c) for c in competitions],
        "entrants": [
            _dump(
                Entrant,
                e,
                competition=mode_of[e["competition_id"]],
                player=uid_of.get(e["player_id"]),
                partner_player=uid_of.get(e["partner_player_id"]),
            )
            for e in entrants
        ],
        "players": [_dump(Player, p) for p in players],
        "personal_links": [
            _dump(PersonalLink, link, entrant=number_of[link["entrant_id"]])
            for link in personal_links
        ],
        "waiting_registrations": [
            _dump(
                WaitingRegistration,
                w,
                competition=mode_of[w["competition_id"]],
                entrant=number_of.get(w["entrant_id"]),
            )
            for w in waiting
        ],
        "rounds": [_dump(Round, r) for r in rounds],
        "tables": [
            _dump(
                Table,
                tb,
                round=round_number[tb["round_id"]],
                competition=mode_of[tb["competition_id"]],
                seats=[
                    _dump(Seat, s, parent="table", entrant=number_of[s["entrant_id"]])
                    for s in seats[tb["pk"]]
                ],
            )
            for tb in tables
        ],
        "sheets": sheet_lines,
        "table_entries": [
            _dump(TableEntry, e, table=list(table_key[e["table_id"]])) for e in table_entries
        ],
        "series": [_dump(Series, x) for x in series],
        "members": sorted(
            (_dump(Membership, m, user=users[m["user_id"]]) for m in members),
            key=lambda m: m["user"],
        ),
        "audit": audit_lines,
        "extra_donations": [_dump(ExtraDonation, d) for d in extra_donations],
        "prizes": [
            _dump(
                Prize,
                p,
                competition=mode_of[p["competition_id"]],
                chosen_by=number_of.get(p["chosen_by_id"]),
            )
            for p in prizes
        ],
        "users": [{name: u[name] for name in USER_FIELDS} for u in accounts],
    }


def to_bytes(document: dict[str, Any]) -> bytes:
    """Deterministic JSON: sorted keys, one top-level key per line and one list entry (an
    entrant, a table, a sheet, an audit entry) per line — diffable, and written by the fast
    C encoder."""

    lines = []
    for key in sorted(document):
        value = document[key]
        if isinstance(value, list) and value:
            body = ",\n".join(item if isinstance(item, Line) else encode(item) for item in value)
            lines.append(f"{encode(key)}:[\n{body}\n]")
        else:
            lines.append(f"{encode(key)}:{encode(value)}")
    return ("{\n" + ",\n".join(lines) + "\n}\n").encode()


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


# --- restore -------------------------------------------------------------------------------


@dataclass
class RestoreResult:
    tournament: Tournament
    created_users: list[str]
    skipped_members: list[str]  # accounts that do not exist here (desk upload)


def read_document(data: bytes) -> dict[str, Any]:
    if len(data) > MAX_BYTES:
        raise BackupError(_("Die Datei ist zu groß für eine Sicherung."))
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise BackupError(_("Die Datei ist keine Sicherung (kein lesbares JSON).")) from exc
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BackupError(_("Die Datei ist keine Sicherung dieses Programms."))
    if document.get("version") != VERSION:
        raise BackupError(
            _("Diese Sicherung hat das Format %(version)s; dieses Programm liest Format %(ours)s.")
            % {"version": document.get("version"), "ours": VERSION}
        )
    return document


def restore(
    data: bytes | dict[str, Any],
    *,
    slug: str | None = None,
    user: Actor = None,
    create_users: bool = True,
) -> RestoreResult:
    """Bring a backup into this database as a new tournament (under its own slug or ``slug``).
    Accounts the backup names are created with their password hash when ``create_users``
    (the command line); from the desk (``create_users=False``) only existing accounts become
    members, and the uploading organiser becomes organiser of the restored tournament."""
    if user is not None:
        require_create_tournament(user)
    document = read_document(data) if isinstance(data, bytes) else data
    try:
        with transaction.atomic():
            result = _restore(document, slug, user, create_users)
            from .integrity import rescore_mismatches

            problems = rescore_mismatches(result.tournament, limit=3)
            if problems:
                raise BackupError(
                    _("Die Sicherung ist widersprüchlich (gespeicherte Punkte): %(problems)s")
                    % {"problems": "; ".join(problems)}
                )
    except BackupError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, ValidationError, DatabaseError) as exc:
        detail = "; ".join(exc.messages) if isinstance(exc, ValidationError) else repr(exc)
        raise BackupError(
            _("Die Sicherung ist beschädigt und wurde nicht eingespielt: %(detail)s")
            % {"detail": detail[:300]}
        ) from exc
    return result


def _restore(
    doc: dict[str, Any], slug: str | None, user: Actor, create_users: bool
) -> RestoreResult:
    User = get_user_model()
    slug = slug or str(doc["tournament"]["slug"])
    try:
        validate_slug(slug)
    except ValidationError as exc:
        raise BackupError(
            _("„%(slug)s“ ist kein gültiger Kurzname (Buchstaben, Ziffern, - und _).")
            % {"slug": slug[:80]}
        ) from exc
    if Tournament.objects.filter(slug=slug).exists():
        raise BackupError(
            _(
                "Es gibt schon ein Turnier mit dem Kurznamen „%(slug)s“. Bitte unter einem "
                "neuen Kurznamen einspielen (restore DATEI --as NEUER-NAME)."
            )
            % {"slug": slug}
        )

    accounts: dict[str, Any] = {}
    created_users: list[str] = []
    for entry in doc["users"]:
        username = str(entry["username"])
        existing = User.objects.filter(username=username).first()
        if existing is None and create_users:
            if set(entry) != set(USER_FIELDS):
                raise ValidationError("users: unexpected fields")
            existing = User(
                username=username,
                password=str(entry["password"]),
                is_active=entry["is_active"] is True,
            )
            existing.full_clean()
            existing.save()
            created_users.append(username)
        if existing is not None:
            accounts[username] = existing

    def account(name: Any) -> Any:
        return accounts.get(str(name)) if name is not None else None

    t = _build(Tournament, doc["tournament"], ())
    if slug != t.slug and Tournament.objects.filter(name=t.name, date=t.date).exists():
        # a copy beside its original: the list of tournaments tells them apart
        t.name = (_("%(name)s (Kopie %(slug)s)") % {"name": t.name, "slug": slug})[:200]
    t.slug = slug
    t.full_clean()
    try:
        t.rules()
    except ScoringError as exc:
        raise ValidationError(f"rules: {exc}") from exc
    t.save()
    competitions = {}
    for entry in doc["competitions"]:
        c = _build(Competition, entry, (), tournament=t)
        c.save()
        competitions[c.mode] = c
    # the player register: players this installation knows (by uid) stay as they are
    players: dict[str, Player] = {}
    for entry in doc.get("players", []):
        uid = str(entry["uid"])
        known = Player.objects.filter(uid=uid).first()
        if known is None:
            known = _build(Player, entry, ())
            known.full_clean()
            known.save()
        players[uid] = known

    def player(uid: Any) -> Player | None:
        return players[str(uid)] if uid is not None else None

    entrants = Entrant.objects.bulk_create(
        _build(
            Entrant,
            e,
            ("competition", "player", "partner_player"),
            tournament=t,
            competition=competitions[e["competition"]],
            player=player(e.get("player")),
            partner_player=player(e.get("partner_player")),
        )
        for e in doc["entrants"]
    )
    entrant_of = {e.start_number: e for e in entrants}
    # the players' own links come back as they were sent and printed; a copy restored beside
    # its original gets links of its own
    links = [
        _build(PersonalLink, entry, ("entrant",), entrant=entrant_of[entry["entrant"]])
        for entry in doc.get("personal_links", [])
    ]
    taken_links = set(
        PersonalLink.objects.filter(token__in=[link.token for link in links]).values_list(
            "token", flat=True
        )
    ) | set(
        PersonalLink.objects.filter(code__in=[link.code for link in links]).values_list(
            "code", flat=True
        )
    )
    for link in links:
        if link.token in taken_links or link.code in taken_links:
            link.token, link.code = new_personal_token(), new_personal_code()
    PersonalLink.objects.bulk_create(links)
    waiting = [
        _build(
            WaitingRegistration,
            entry,
            ("competition", "entrant"),
            tournament=t,
            competition=competitions[entry["competition"]],
            entrant=entrant_of.get(entry["entrant"]) if entry.get("entrant") else None,
        )
        for entry in doc.get("waiting_registrations", [])
    ]
    taken_tokens = set(
        WaitingRegistration.objects.filter(token__in=[w.token for w in waiting]).values_list(
            "token", flat=True
        )
    )
    for w in waiting:
        if w.token in taken_tokens:
            w.token = new_entry_token()
    WaitingRegistration.objects.bulk_create(waiting)
    rounds = {}
    for entry in doc["rounds"]:
        r = _build(Round, entry, (), tournament=t)
        r.save()
        rounds[r.number] = r
    tables = {}
    new_tables = []
    for entry in doc["tables"]:
        tb = _build(
            Table,
            entry,
            ("round", "competition", "seats"),
            round=rounds[entry["round"]],
            competition=competitions[entry["competition"]],
        )
        new_tables.append((tb, entry["seats"]))
    # The tables' phone links come back as they were printed (a second laptop continues the
    # evening); a copy restored beside its original gets links of its own.
    taken = set(
        Table.objects.filter(entry_token__in=[tb.entry_token for tb, _s in new_tables]).values_list(
            "entry_token", flat=True
        )
    )
    for tb, _seat_entries in new_tables:
        if tb.entry_token in taken:
            tb.entry_token = new_entry_token()
    Table.objects.bulk_create([tb for tb, _seats in new_tables])
    seats = []
    for tb, seat_entries in new_tables:
        tables[(tb.round.number, tb.number)] = tb
        for s in seat_entries:
            seats.append(
                _build(Seat, s, ("table", "entrant"), table=tb, entrant=entrant_of[s["entrant"]])
            )
    Seat.objects.bulk_create(seats)

    sheet_objects = []
    for entry in doc["sheets"]:
        sheet = _build(
            ScoreSheet,
            entry,
            ("table", "entered_by", "confirmed_by", "games"),
            table=tables[tuple(entry["table"])],
            entered_by=account(entry["entered_by"]),
            confirmed_by=account(entry["confirmed_by"]),
        )
        sheet_objects.append((sheet, entry))
    ScoreSheet.objects.bulk_create([s for s, _entry in sheet_objects])
    games, game_entries = [], []
    for sheet, entry in sheet_objects:
        # bulk_create set updated_at to now (auto_now); give it back its time
        ScoreSheet.objects.filter(pk=sheet.pk).update(
            updated_at=_from_json(ScoreSheet._meta.get_field("updated_at"), entry["updated_at"])
        )
        for g in entry["games"]:
            games.append(_build(Game, g, ("sheet", "parties"), sheet=sheet))
            game_entries.append(g)
    Game.objects.bulk_create(games)
    PartyResult.objects.bulk_create(
        _build(PartyResult, p, ("game", "entrant"), game=game, entrant=entrant_of[p["entrant"]])
        for game, g in zip(games, game_entries, strict=True)
        for p in g["parties"]
    )

    # what the tables did on their phones (seat check, confirmation, help calls)
    TableEntry.objects.bulk_create(
        _build(TableEntry, e, ("table",), table=tables[tuple(e["table"])])
        for e in doc.get("table_entries", [])
    )

    # the charity evening (older backups have none)
    ExtraDonation.objects.bulk_create(
        _build(ExtraDonation, d, (), tournament=t) for d in doc.get("extra_donations", [])
    )
    Prize.objects.bulk_create(
        _build(
            Prize,
            p,
            ("competition", "chosen_by"),
            tournament=t,
            competition=competitions[p["competition"]],
            chosen_by=entrant_of[p["chosen_by"]] if p["chosen_by"] is not None else None,
        )
        for p in doc.get("prizes", [])
    )

    _restore_series(doc.get("series", []), t, as_copy=slug != doc["tournament"]["slug"])

    skipped: list[str] = []
    for entry in doc["members"]:
        member_user = account(entry["user"])
        if member_user is None:
            skipped.append(str(entry["user"]))
            continue
        _build(Membership, entry, ("user",), tournament=t, user=member_user).save()
    if user is not None:
        Membership.objects.update_or_create(
            tournament=t, user_id=account_id(user), defaults={"role": Role.ORGANISER}
        )

    new_keys = _new_keys(t)
    AuditLog.objects.bulk_create(
        _audit_entry(entry, t, account, new_keys) for entry in doc["audit"]
    )
    return RestoreResult(t, created_users, skipped)


def _restore_series(entries: list[Any], t: Tournament, *, as_copy: bool) -> None:
    """The cups the tournament counts for: a cup this installation knows (by its slug) takes
    the tournament in, one it does not know is created with it. A copy restored under a new
    slug counts for no cup: the original evening would count twice."""
    if as_copy:
        return
    for entry in entries:
        series = Series.objects.filter(slug=str(entry["slug"])).first()
        if series is None:
            series = _build(Series, entry, ())
            series.full_clean()
            series.save()
        series.tournaments.add(t)


def _new_keys(t: Tournament) -> dict[tuple[str, str], int]:
    keys: dict[tuple[str, str], int] = {("Tournament", ""): t.pk}
    for c in t.competitions.all():
        keys[("Competition", c.mode)] = c.pk
    for e in t.entrants.all():
        keys[("Entrant", str(e.start_number))] = e.pk
    for w in t.waiting_registrations.all():
        keys[("WaitingRegistration", w.token)] = w.pk
    for r in t.round_set.all():
        keys[("Round", str(r.number))] = r.pk
    for tb in Table.objects.filter(round__tournament=t).select_related("round"):
        keys[("Table", f"{tb.round.number}/{tb.number}")] = tb.pk
    for s in ScoreSheet.objects.filter(table__round__tournament=t).select_related("table__round"):
        keys[("ScoreSheet", f"{s.table.round.number}/{s.table.number}")] = s.pk
    for m in t.memberships.select_related("user"):
        keys[("Membership", m.user.get_username())] = m.pk
        keys[("User", m.user.get_username())] = m.user_id
    return keys


def _audit_entry(
    entry: Any, t: Tournament, account: Any, keys: dict[tuple[str, str], int]
) -> AuditLog:
    entry = dict(entry)
    object_key = entry.pop("object_key")
    object_id = entry.pop("object_id")
    user_name = entry.pop("user")
    if object_key is not None:
        pk = keys.get((str(entry.get("object_type")), str(object_key)))
        if pk is None and entry.get("object_type") == "User":
            found = account(object_key)
            pk = found.pk if found is not None else None
        stored_id = str(pk) if pk is not None else f"{UNRESOLVED}{object_key}"
    else:
        stored_id = f"{UNRESOLVED}{object_id}"
    entry["object_id"] = stored_id[:60]
    return _build(AuditLog, entry, ("user",), tournament=t, user=account(user_name))


# --- automatic backups ---------------------------------------------------------------------


def schedule_backup(tournament: Tournament) -> None:
    """Back the tournament up once the current transaction has committed (a rolled-back
    change writes nothing)."""
    if not settings.BACKUP_AUTO:
        return
    tournament_id = tournament.pk
    transaction.on_commit(lambda: auto_backups.request(tournament_id))


FILE_NAME = re.compile(r"^(?P<slug>[-\w]+)-(?P<at>\d{8}-\d{6}-\d{6})\.json$")


def backup_folder(slug: str) -> Path:
    return Path(settings.BACKUP_DIR) / slug


def list_backups(slug: str) -> list[Path]:
    """The automatic backups of a tournament, newest first."""
    folder = backup_folder(slug)
    if not folder.is_dir():
        return []
    found = [p for p in folder.iterdir() if (m := FILE_NAME.match(p.name)) and m["slug"] == slug]
    return sorted(found, key=lambda p: p.name, reverse=True)


def write_atomically(path: Path, data: bytes, durable: bool = True) -> None:
    """Write ``data`` to ``path`` so that ``path`` is either the old file or the whole new
    one, also after a crash or a power cut (temp file in the same folder, fsync, rename).
    ``durable=False`` leaves out the two waits for the disk (for a note that is worth nothing
    after a power cut)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(temp)
        raise
    if not durable:
        return
    with suppress(OSError):  # the rename itself on disk (not possible on every system)
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


@contextmanager
def _folder_lock(folder: Path) -> Iterator[None]:
    """One writer per tournament folder across the server's processes."""
    folder.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: one process (runserver) anyway
        yield
        return
    with open(folder / ".lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


_caches: dict[int, DumpCache] = {}  # the writer's lines of each tournament's last backup


def write_auto_backup(tournament_id: int, since: float = 0.0) -> Path | None:
    """Write a backup of the tournament unless one started after ``since`` (a time after the
    change to be covered committed) is already there; thin out the older ones (see
    :func:`prune`). What happened (the time of the last backup, or the problem of the last
    attempt) is noted for the desk (:func:`backup_status`); a failure is raised."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    folder = backup_folder(tournament.slug)
    with _folder_lock(folder):
        marker = folder / ".latest"
        with suppress(FileNotFoundError, ValueError):
            if float(marker.read_text()) > since:
                return None  # a newer backup already holds this change
        started = time.time()
        cache = _caches.setdefault(tournament_id, DumpCache())
        try:
            data = backup_bytes(tournament, cache=cache)
            stamp = datetime.fromtimestamp(started, tz=UTC).strftime("%Y%m%d-%H%M%S-%f")
            path = folder / f"{tournament.slug}-{stamp}.json"
            write_atomically(path, data)
            write_atomically(marker, repr(started).encode())
        except Exception as exc:
            _caches.pop(tournament_id, None)
            _note_status(tournament.slug, problem=f"{type(exc).__name__}: {exc}"[:300])
            raise
        took = time.time() - started
        _note_status(tournament.slug, ok_at=started, file=path.name, seconds=round(took, 3))
        logger.info(
            "backup %s: %d bytes in %.2f s (%d entries reused, %d encoded)",
            path.name,
            len(data),
            took,
            cache.reused,
            cache.written,
        )
        prune(tournament.slug)
    return path


def prune(slug: str, now: float | None = None) -> list[Path]:
    """Keep the newest ``BACKUP_KEEP`` backups and, of the older ones, the newest of every
    ``BACKUP_THIN_MINUTES`` (a backup every few seconds for a whole evening would fill the
    disk, and the organiser still finds the state of an hour ago). Returns what it removed."""
    keep = max(1, settings.BACKUP_KEEP)
    slot = max(1, int(getattr(settings, "BACKUP_THIN_MINUTES", 10))) * 60
    seen_slots: set[int] = set()
    removed = []
    for number, path in enumerate(list_backups(slug)):  # newest first
        match = FILE_NAME.match(path.name)
        assert match is not None
        at = datetime.strptime(match["at"], "%Y%m%d-%H%M%S-%f").replace(tzinfo=UTC)
        bucket = int(at.timestamp()) // slot
        if number < keep or bucket not in seen_slots:
            seen_slots.add(bucket)
            continue
        with suppress(FileNotFoundError):
            path.unlink()
            removed.append(path)
    return removed


def _status_file(slug: str) -> Path:
    """Where the outcome of the last attempt is noted: in the data folder, not beside the
    backups (a full or pulled-out USB stick must not take the note of its problem with it)."""
    return Path(settings.BACKUP_STATUS_DIR) / f"{slug}.json"


def _note_status(slug: str, **values: Any) -> None:
    """Note the outcome of an attempt (any process of the hall reads it)."""
    status: dict[str, Any] = {}
    with suppress(OSError, ValueError):
        status = json.loads(_status_file(slug).read_text())
    if "ok_at" in values:
        status.pop("problem", None)
        status.pop("problem_at", None)
    else:
        values["problem_at"] = time.time()
    status.update(values)
    try:
        write_atomically(_status_file(slug), json.dumps(status).encode(), durable=False)
    except OSError:
        logger.exception("could not note the backup status of %s", slug)


@dataclass(frozen=True)
class BackupStatus:
    """What the desk says about a tournament's automatic backups."""

    last_at: datetime | None  # when the newest backup started (it holds everything before)
    file: str
    problem: str  # the last attempt failed (and no backup succeeded after it)
    problem_at: datetime | None
    waiting: bool  # a change is noted and its backup not yet written
    auto: bool  # automatic backups are switched on (BACKUP_AUTO)

    def age_seconds(self, now: datetime | None = None) -> float | None:
        if self.last_at is None:
            return None
        return ((now or timezone.now()) - self.last_at).total_seconds()


def backup_status(tournament: Tournament) -> BackupStatus:
    status: dict[str, Any] = {}
    with suppress(OSError, ValueError):
        status = json.loads(_status_file(tournament.slug).read_text())

    def when(value: Any) -> datetime | None:
        return datetime.fromtimestamp(float(value), tz=UTC) if value else None

    last_at = when(status.get("ok_at"))
    if last_at is None:  # backups written before the status was noted
        newest = list_backups(tournament.slug)[:1]
        if newest:
            last_at = datetime.fromtimestamp(newest[0].stat().st_mtime, tz=UTC)
    return BackupStatus(
        last_at=last_at,
        file=str(status.get("file", "")),
        problem=str(status.get("problem", "")),
        problem_at=when(status.get("problem_at")),
        waiting=(pending_folder() / str(tournament.pk)).exists()
        or tournament.pk in auto_backups.pending,
        auto=bool(settings.BACKUP_AUTO),
    )


def changed_since_backup() -> list[int]:
    """The tournaments changed after their newest automatic backup started (or that have
    none): after a crash, the backup writer starts with these."""
    from django.db.models import Max

    last_change: dict[int, datetime] = {}
    for tournament_id, at in (
        AuditLog.objects.filter(tournament__isnull=False)
        .values_list("tournament_id")
        .annotate(Max("at"))
    ):
        last_change[tournament_id] = at
    for tournament_id, at in (
        ScoreSheet.objects.values_list("table__round__tournament_id")
        .annotate(Max("updated_at"))
        .order_by()
    ):
        last_change[tournament_id] = max(at, last_change.get(tournament_id, at))
    slugs = dict(Tournament.objects.values_list("pk", "slug"))
    stale = []
    for tournament_id, at in sorted(last_change.items()):
        if tournament_id not in slugs:
            continue
        backed_up = 0.0
        with suppress(OSError, ValueError):
            backed_up = float((backup_folder(slugs[tournament_id]) / ".latest").read_text())
        if at.timestamp() >= backed_up:
            stale.append(tournament_id)
    return stale


class AutoBackups:
    """Writes requested backups in a background thread of this process (started on the first
    request, again after a fork), coalescing requests that arrive while it works."""

    def __init__(self) -> None:
        self.condition = threading.Condition()
        self.pending: dict[int, float] = {}  # tournament -> time of the latest change to cover
        self.last: dict[int, float] = {}  # tournament -> when this process last wrote one
        self.busy = False
        self.thread: threading.Thread | None = None
        self.pid = 0

    def request(self, tournament_id: int) -> None:
        since = time.time()  # after the commit: a backup started later holds the change
        if os.environ.get(WORKER_ENV):  # the hall's backup process writes it
            mark_pending(tournament_id, since)
            return
        if not getattr(settings, "BACKUP_IN_BACKGROUND", True):
            self._write(tournament_id, since)
            return
        with self.condition:
            self.pending[tournament_id] = since
            if self.thread is None or self.pid != os.getpid() or not self.thread.is_alive():
                self.pid = os.getpid()
                self.thread = threading.Thread(target=self._run, name="binokel-backup", daemon=True)
                self.thread.start()
            self.condition.notify_all()

    def _write(self, tournament_id: int, since: float) -> None:
        try:
            write_auto_backup(tournament_id, since)
        except Exception:
            logger.exception("automatic backup of tournament %s failed", tournament_id)

    def _next(self) -> tuple[int, float]:
        """Wait for a tournament whose backup is due: requested, and its last backup from this
        process at least BACKUP_MIN_INTERVAL seconds ago (a burst of confirmations shares one)."""
        interval = float(getattr(settings, "BACKUP_MIN_INTERVAL", 0))
        with self.condition:
            while True:
                now = time.monotonic()
                due = [t for t in self.pending if self.last.get(t, -interval) + interval <= now]
                if due:
                    self.busy = True
                    return due[0], self.pending.pop(due[0])
                if self.pending:
                    self.condition.wait(
                        min(self.last.get(t, now) + interval for t in self.pending) - now
                    )
                else:
                    self.condition.wait()

    def _run(self) -> None:
        from django.db import connections

        while True:
            tournament_id, since = self._next()
            try:
                self._write(tournament_id, since)
            finally:
                connections.close_all()
                with self.condition:
                    self.last[tournament_id] = time.monotonic()
                    self.busy = False
                    self.condition.notify_all()

    def flush(self, timeout: float = 60.0) -> bool:
        """Wait until every requested backup is written; False on time-out."""
        deadline = time.monotonic() + timeout
        with self.condition:
            while (
                (self.pending or self.busy) and self.thread is not None and self.thread.is_alive()
            ):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.condition.wait(left)
        return True


auto_backups = AutoBackups()

# --- the hall's backup process ---------------------------------------------------------------
# Under gunicorn the backups are written by one process of their own at a lower priority
# (manage.py hall starts it): a backup of a big tournament takes a second or two of CPU, which
# in a web worker would hold up that worker's requests. The web workers only leave a note.

WORKER_ENV = "BINOKEL_BACKUP_PROCESS"


def pending_folder() -> Path:
    return Path(settings.BACKUP_DIR) / ".pending"


def mark_pending(tournament_id: int, since: float) -> None:
    """Note that the tournament needs a backup holding changes up to ``since``. The note is
    renamed into place but not waited for on disk: a desk's save does not wait for it, and
    after a power cut the database itself holds every acknowledged save (the next
    confirmation notes the backup again)."""
    write_atomically(pending_folder() / str(tournament_id), repr(since).encode(), durable=False)


def backup_process_loop(
    stop: threading.Event, poll: float = 0.5, caught_up: Callable[[], object] | None = None
) -> None:
    """Write the backups that the web workers noted, coalescing notes per tournament and
    keeping BACKUP_MIN_INTERVAL between two backups of one tournament, until ``stop``. First,
    after a crash, the tournaments changed since their newest backup; ``caught_up`` is called
    once those are written (the hall lowers the writer's priority then: right after a restart
    the desks and phones come back at once, and the backup of the state before the crash must
    not wait for them)."""
    from django.db import connections

    last: dict[int, float] = {}
    interval = float(getattr(settings, "BACKUP_MIN_INTERVAL", 0))
    try:
        stale = changed_since_backup() if settings.BACKUP_AUTO else []
        for tournament_id in stale:
            started = time.time()
            try:
                write_auto_backup(tournament_id, started)
            except Exception:  # noted for the desk; the loop below tries again
                logger.exception("automatic backup of tournament %s failed", tournament_id)
                mark_pending(tournament_id, started)
            last[tournament_id] = time.monotonic()
    except Exception:
        logger.exception("could not look for changes since the last backups")
    finally:
        connections.close_all()
    if caught_up is not None:
        caught_up()
    while not stop.is_set():
        folder = pending_folder()
        notes = sorted(folder.iterdir()) if folder.is_dir() else []
        for note in notes:
            if not note.name.isdigit():
                continue
            tournament_id = int(note.name)
            if time.monotonic() - last.get(tournament_id, -interval) < interval:
                continue
            try:
                text = note.read_text()
                since = float(text)
            except (OSError, ValueError):
                continue
            try:
                write_auto_backup(tournament_id, since)
            except Exception:  # the note stays: tried again after the interval
                logger.exception("automatic backup of tournament %s failed", tournament_id)
                continue
            finally:
                connections.close_all()
                last[tournament_id] = time.monotonic()
            with suppress(OSError):
                if note.read_text() == text:  # no newer note came in meanwhile
                    note.unlink()
        stop.wait(poll)


atexit.register(auto_backups.flush)
