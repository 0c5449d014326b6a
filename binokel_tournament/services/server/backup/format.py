"""The backup file's format: what a backup holds (every field of every model a tournament
has; every relation named here, as a natural key), how values are written and read back,
and the file's bytes (deterministic JSON, one entry per line). See the package's docstring."""

from __future__ import annotations

import functools
import json
import logging
import uuid
from collections.abc import Iterable
from datetime import UTC, date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone

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
from ...errors import DeskError

logger = logging.getLogger("binokel.backup")

FORMAT = "binokel-backup"
VERSION = 1
MAX_BYTES = 200 * 1024 * 1024

# The relations each model has, by field name; they are written as natural keys below.
RELATIONS: dict[type[models.Model], set[str]] = {
    Tournament: set(),
    Competition: {"tournament"},
    Entrant: {"tournament", "competition", "player", "partner_player"},
    Player: {"merged_into"},
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
# an account that may create tournaments (and restore) in the tournament's Verein; older
# backups lack it
MAY_CREATE = "may_create_tournaments"
# Relations a backup does not carry: the installation's own. A tournament, its register
# entries and its cups go into the Verein the restore names (services/tenancy.py).
NOT_CARRIED = {"verein"}


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
            if f.name not in known and f.name not in NOT_CARRIED:
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


class Line(str):
    """One list entry of a backup file, already encoded (see :func:`to_bytes`)."""


def encode(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


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
