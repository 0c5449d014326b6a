"""A backup document into the database (``restore``): all or nothing, checked field by field
against the models; a copy beside its original gets its own slug, links and codes."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import DatabaseError, models, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scoring import ScoringError

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
    Role,
    Round,
    ScoreSheet,
    Seat,
    Series,
    SheetStatus,
    Table,
    TableEntry,
    Tournament,
    Verein,
    WaitingRegistration,
    new_entry_token,
    new_event_id,
    new_personal_code,
    new_personal_token,
)
from ...access import (
    CREATE_TOURNAMENT_PERMISSION,
    Action,
    Actor,
    account_id,
    can,
    can_create_tournament,
    require,
    require_create_tournament,
    single_verein,
)
from ..integrity import rescore_mismatches
from .dump import UNRESOLVED
from .format import (
    FORMAT,
    MAX_BYTES,
    MAY_CREATE,
    USER_FIELDS,
    VERSION,
    BackupError,
    _build,
    _from_json,
)

logger = logging.getLogger("binokel.backup")

# --- restore -------------------------------------------------------------------------------


@dataclass
class RestoreResult:
    tournament: Tournament
    created_users: list[str]  # accounts made with their password hash (the command line)
    skipped_members: list[str]  # accounts the backup names that were not brought (the desk)
    kept_users: list[str] = field(default_factory=list)  # accounts here, used as they are
    may_create: list[str] = field(default_factory=list)  # made, and may create tournaments
    without_right: list[str] = field(default_factory=list)  # may create there, not here
    replaced: bool = False  # an older copy of the same evening was replaced


class SlugTaken(BackupError):
    """The backup's short name is taken here. ``replaceable``: the tournament here is an
    older state of the same evening (a newer backup may replace it, keeping its links)."""

    def __init__(self, message: str, *, replaceable: bool) -> None:
        super().__init__(message, "slug")
        self.replaceable = replaceable


# audit actions of the restore itself: they are not changes of the evening
OWN_ACTIONS = ("backup.replace",)


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
    verein: Verein | None = None,
    replace: bool = False,
) -> RestoreResult:
    """Bring a backup into this database as a new tournament (under its own slug or ``slug``).
    Accounts the backup names are created with their password hash when ``create_users``
    (the command line), those that could create tournaments where the backup was written
    may do so here too; from the desk (``create_users=False``) only existing accounts become
    members, and the uploading organiser becomes organiser of the restored tournament. An
    account that exists here is used as it is (its password and rights stay). The tournament
    goes into ``verein`` (by default the account's one Verein, or the installation's); its
    register entries are that Verein's.

    With ``replace``, a tournament here under that slug that is an older state of the same
    evening (same event id, no change after the backup's newest) is replaced by the backup,
    in its own Verein, keeping the tables' and players' links (audited); anything else under
    that slug refuses the restore (:class:`SlugTaken`)."""
    from ... import tenancy  # (tenancy audits; the audit log schedules backups)
    from ...audit import log_action

    document = read_document(data) if isinstance(data, bytes) else data
    try:
        wanted = _checked_slug(slug or str(document["tournament"]["slug"]))
        existing = Tournament.across_vereine.filter(slug=wanted).first()
        here = _compare(existing, document, user) if existing is not None else None
    except (KeyError, TypeError, ValueError) as exc:
        raise BackupError(
            _("Die Sicherung ist beschädigt und wurde nicht eingespielt: %(detail)s")
            % {"detail": repr(exc)[:300]}
        ) from exc
    if existing is not None:
        assert here is not None
        if not replace or not here.replaceable:
            raise SlugTaken(here.message, replaceable=here.replaceable)
        require(user, existing, Action.BACKUP)  # the organisers of the copy here
        into = existing.verein  # a replaced evening stays in its Verein
    else:
        into = verein or tenancy.verein_for_new(user)
    if user is not None:
        require_create_tournament(user, into)
    try:
        with transaction.atomic():
            if existing is not None:
                remove_evening(existing)
            result = _restore(document, wanted, user, create_users, into)
            problems = rescore_mismatches(result.tournament, limit=3)
            if problems:
                raise BackupError(
                    _("Die Sicherung ist widersprüchlich (gespeicherte Punkte): %(problems)s")
                    % {"problems": "; ".join(problems)}
                )
            if existing is not None:
                assert here is not None
                result.replaced = True
                log_action(
                    result.tournament,
                    user,
                    "backup.replace",
                    result.tournament,
                    here.snapshot,
                    _snapshot(result.tournament),
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


@dataclass(frozen=True)
class _Here:
    """The tournament here under the backup's slug, compared with the backup."""

    replaceable: bool
    message: str
    snapshot: dict[str, Any]


def _compare(existing: Tournament, doc: dict[str, Any], user: Actor) -> _Here:
    """Is the tournament here an older state of the backup's evening? (Said in detail only
    to those who may see it.)"""
    taken = _("Es gibt hier schon ein Turnier mit dem Kurznamen „%(slug)s“.") % {
        "slug": existing.slug
    }
    if user is not None and not can(user, existing, Action.BACKUP):
        return _Here(False, taken, {})
    if existing.event_id != str(doc["tournament"].get("event_id", "")):
        return _Here(False, taken + " " + _("Es ist ein anderer Abend als der der Sicherung."), {})
    ours, theirs = _last_change(existing), _document_last_change(doc)
    when = {"here": _when(ours), "backup": _when(theirs)}
    if ours is not None and (theirs is None or ours > theirs):
        return _Here(
            False,
            taken
            + " "
            + _(
                "Es ist derselbe Abend, hier aber mit Änderungen nach dieser Sicherung (hier "
                "zuletzt geändert %(here)s, in der Sicherung %(backup)s): er wird nicht ersetzt."
            )
            % when,
            {},
        )
    same = ours == theirs
    return _Here(
        True,
        taken
        + " "
        + (
            _(
                "Es ist derselbe Abend im selben Stand wie die Sicherung (zuletzt geändert "
                "%(here)s)."
            )
            if same
            else _(
                "Es ist derselbe Abend in einem älteren Stand (hier zuletzt geändert %(here)s, "
                "in der Sicherung %(backup)s)."
            )
        )
        % when,
        _snapshot(existing),
    )


def _last_change(t: Tournament) -> datetime | None:
    """The time of the newest change of a tournament here (as the backup writer counts)."""
    audit = (
        AuditLog.objects.filter(tournament=t)
        .exclude(action__in=OWN_ACTIONS)
        .aggregate(at=Max("at"))["at"]
    )
    sheets = ScoreSheet.objects.filter(table__round__tournament=t).aggregate(at=Max("updated_at"))[
        "at"
    ]
    return max((x for x in (audit, sheets) if x is not None), default=None)


def _document_last_change(doc: dict[str, Any]) -> datetime | None:
    times = [
        datetime.fromisoformat(str(a["at"]))
        for a in doc.get("audit", [])
        if isinstance(a, dict) and a.get("at") and a.get("action") not in OWN_ACTIONS
    ]
    times += [
        datetime.fromisoformat(str(s["updated_at"]))
        for s in doc.get("sheets", [])
        if isinstance(s, dict) and s.get("updated_at")
    ]
    aware = [x for x in times if not timezone.is_naive(x)]
    return max(aware, default=None)


def _when(at: datetime | None) -> str:
    if at is None:
        return _("nie")
    return date_format(timezone.localtime(at), "SHORT_DATETIME_FORMAT")


def _snapshot(t: Tournament) -> dict[str, Any]:
    """What the audit entry of a replacement says about each state."""
    last = _last_change(t)
    return {
        "name": t.name,
        "last_change": last.isoformat() if last is not None else None,
        "entrants": t.entrants.count(),
        "confirmed_sheets": ScoreSheet.objects.filter(
            table__round__tournament=t, status=SheetStatus.CONFIRMED
        ).count(),
    }


def remove_evening(t: Tournament) -> None:
    """An older copy of an evening goes, replaced by a newer state of it (a backup here, a
    result file in services/club_sync.py); its audit log stays: it outlives its tournament.
    Results and seats first, as they protect their entrants."""
    PartyResult.objects.filter(game__sheet__table__round__tournament=t).delete()
    Seat.objects.filter(table__round__tournament=t).delete()
    Tournament.across_vereine.filter(pk=t.pk).delete()


def _restore(
    doc: dict[str, Any], slug: str | None, user: Actor, create_users: bool, verein: Verein
) -> RestoreResult:
    """The document into the database, part by part (inside the caller's transaction)."""
    slug = _checked_slug(slug or str(doc["tournament"]["slug"]))
    if Tournament.across_vereine.filter(slug=slug).exists():  # taken meanwhile
        raise SlugTaken(
            _("Es gibt hier schon ein Turnier mit dem Kurznamen „%(slug)s“.") % {"slug": slug},
            replaceable=False,
        )
    brought = _restore_accounts(doc["users"], create_users, verein)
    accounts = brought.accounts

    def account(name: Any) -> Any:
        return accounts.get(str(name)) if name is not None else None

    t = _restore_tournament(doc["tournament"], slug, verein)
    competitions = {}
    for entry in doc["competitions"]:
        c = _build(Competition, entry, (), tournament=t)
        c.save()
        competitions[c.mode] = c
    entrant_of = _restore_entrants(doc, t, competitions)
    _restore_links(doc, t, competitions, entrant_of)
    tables = _restore_tables(doc, t, competitions, entrant_of)
    _restore_sheets(doc["sheets"], tables, entrant_of, account)
    # what the tables did on their phones (seat check, confirmation, help calls)
    TableEntry.objects.bulk_create(
        _build(TableEntry, e, ("table",), table=tables[tuple(e["table"])])
        for e in doc.get("table_entries", [])
    )
    _restore_charity(doc, t, competitions, entrant_of)
    _restore_series(doc.get("series", []), t, as_copy=slug != doc["tournament"]["slug"])
    _restore_members(doc["members"], t, account, user)
    new_keys = _new_keys(t)
    AuditLog.objects.bulk_create(
        _audit_entry(entry, t, account, new_keys) for entry in doc["audit"]
    )
    return RestoreResult(
        t,
        created_users=brought.created,
        skipped_members=brought.skipped,
        kept_users=brought.kept,
        may_create=brought.may_create,
        without_right=brought.without_right,
    )


def _checked_slug(slug: str) -> str:
    try:
        validate_slug(slug)
    except ValidationError as exc:
        raise BackupError(
            _("„%(slug)s“ ist kein gültiger Kurzname (Buchstaben, Ziffern, - und _).")
            % {"slug": slug[:80]},
            "slug",
        ) from exc
    return slug


@dataclass
class _Accounts:
    accounts: dict[str, Any] = field(default_factory=dict)  # by username
    created: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    may_create: list[str] = field(default_factory=list)
    without_right: list[str] = field(default_factory=list)


def _restore_accounts(entries: list[Any], create: bool, verein: Verein) -> _Accounts:
    """The accounts the backup names: those this installation has are used as they are;
    (``create``) the others are made with their password hash, and those that could create
    tournaments where the backup was written may create them in ``verein``; (not
    ``create``) the others are not brought. Each list says which."""
    User = get_user_model()
    out = _Accounts()
    for entry in entries:
        if not isinstance(entry, dict) or not set(USER_FIELDS) <= set(entry) <= {
            *USER_FIELDS,
            MAY_CREATE,
        }:
            raise ValidationError("users: unexpected fields")
        username = str(entry["username"])
        may_create = entry.get(MAY_CREATE) is True
        existing = User.objects.filter(username=username).first()
        if existing is None and create:
            existing = User(
                username=username,
                password=str(entry["password"]),
                is_active=entry["is_active"] is True,
            )
            existing.full_clean()
            existing.save()
            out.created.append(username)
            if may_create:
                _allow_create(existing, verein)
                out.may_create.append(username)
        elif existing is None:
            out.skipped.append(username)
        else:
            out.kept.append(username)
            if may_create and not can_create_tournament(existing, verein):
                out.without_right.append(username)
        if existing is not None:
            out.accounts[username] = existing
    return out


def _allow_create(user: Any, verein: Verein) -> None:
    """The right to create tournaments (and restore) in ``verein``, as ``manage.py
    organiser`` gives it: on a laptop of one Verein the permission (no role in the other
    tournaments here), on a server of several the Verein's Turnierleitung."""
    from ... import tenancy

    if single_verein() == verein:
        app_label, codename = CREATE_TOURNAMENT_PERMISSION.split(".")
        user.user_permissions.add(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )
    else:
        tenancy.set_member(verein, user, Role.ORGANISER, None)


def _restore_tournament(entry: dict[str, Any], slug: str, verein: Verein) -> Tournament:
    imported = entry.get("imported")
    if isinstance(imported, dict):  # written while it was a JSON field: text, in its order
        entry = {**entry, "imported": json.dumps(imported, ensure_ascii=False) if imported else ""}
    t = _build(Tournament, entry, (), verein=verein)
    here = Tournament.across_vereine.filter(verein=verein)
    if slug != t.slug and here.filter(name=t.name, date=t.date).exists():
        # a copy beside its original: the list of tournaments tells them apart
        t.name = (_("%(name)s (Kopie %(slug)s)") % {"name": t.name, "slug": slug})[:200]
    if not t.event_id or here.filter(event_id=t.event_id).exists():
        t.event_id = new_event_id()  # a copy beside its original is an evening of its own
    t.slug = slug
    t.full_clean()
    try:
        t.rules()
    except ScoringError as exc:
        raise ValidationError(f"rules: {exc}") from exc
    t.save()
    return t


def _restore_entrants(
    doc: dict[str, Any], t: Tournament, competitions: dict[str, Competition]
) -> dict[int, Entrant]:
    """The entrants (by start number), linked to the player register: players this
    tournament's Verein knows (by uid) stay as they are."""
    register = Player.across_vereine.filter(verein=t.verein)
    players: dict[str, Player] = {}
    merged: dict[str, str] = {}  # a new entry -> the uid of the entry it is the same person as
    for entry in doc.get("players", []):
        uid = str(entry["uid"])
        known = register.filter(uid=uid).first()
        if known is None:
            known = _build(Player, entry, ("merged_into",), verein=t.verein)
            known.full_clean()
            known.save()
            if entry.get("merged_into"):
                merged[uid] = str(entry["merged_into"])
        players[uid] = known
    for uid, into in merged.items():  # the register's decision, where that entry is here
        target = register.filter(uid=into).first()
        if target is not None:
            register.filter(pk=players[uid].pk).update(merged_into=target)

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
    return {e.start_number: e for e in entrants}


def _taken(model: type[models.Model], field_name: str, values: list[str]) -> set[str]:
    """Which of ``values`` another tournament's row already holds in ``field_name``."""
    found = model._default_manager.filter(**{f"{field_name}__in": values})
    return {str(v) for v in found.values_list(field_name, flat=True)}


def _restore_links(
    doc: dict[str, Any],
    t: Tournament,
    competitions: dict[str, Competition],
    entrant_of: dict[int, Entrant],
) -> None:
    """The players' own links and the waiting list come back as they were sent and printed;
    a copy restored beside its original gets links of its own."""
    links = [
        _build(PersonalLink, entry, ("entrant",), entrant=entrant_of[entry["entrant"]])
        for entry in doc.get("personal_links", [])
    ]
    taken = _taken(PersonalLink, "token", [x.token for x in links]) | _taken(
        PersonalLink, "code", [x.code for x in links]
    )
    for link in links:
        if link.token in taken or link.code in taken:
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
    taken = _taken(WaitingRegistration, "token", [w.token for w in waiting])
    for w in waiting:
        if w.token in taken:
            w.token = new_entry_token()
    WaitingRegistration.objects.bulk_create(waiting)


def _restore_tables(
    doc: dict[str, Any],
    t: Tournament,
    competitions: dict[str, Competition],
    entrant_of: dict[int, Entrant],
) -> dict[tuple[int, int], Table]:
    """Rounds, tables (by round and number) and seats. The tables' phone links come back as
    they were printed (a second laptop continues the evening); a copy restored beside its
    original gets links of its own."""
    rounds = {}
    for entry in doc["rounds"]:
        r = _build(Round, entry, (), tournament=t)
        r.save()
        rounds[r.number] = r
    new_tables = [
        (
            _build(
                Table,
                entry,
                ("round", "competition", "seats"),
                round=rounds[entry["round"]],
                competition=competitions[entry["competition"]],
            ),
            entry["seats"],
        )
        for entry in doc["tables"]
    ]
    taken = _taken(Table, "entry_token", [tb.entry_token for tb, _s in new_tables])
    for tb, _seat_entries in new_tables:
        if tb.entry_token in taken:
            tb.entry_token = new_entry_token()
    Table.objects.bulk_create([tb for tb, _seats in new_tables])
    tables = {}
    seats = []
    for tb, seat_entries in new_tables:
        tables[(tb.round.number, tb.number)] = tb
        for s in seat_entries:
            seats.append(
                _build(Seat, s, ("table", "entrant"), table=tb, entrant=entrant_of[s["entrant"]])
            )
    Seat.objects.bulk_create(seats)
    return tables


def _restore_sheets(
    entries: list[Any],
    tables: dict[tuple[int, int], Table],
    entrant_of: dict[int, Entrant],
    account: Callable[[Any], Any],
) -> None:
    """The score sheets with their games and points, each with its own time again."""
    sheet_objects = []
    for entry in entries:
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


def _restore_charity(
    doc: dict[str, Any],
    t: Tournament,
    competitions: dict[str, Competition],
    entrant_of: dict[int, Entrant],
) -> None:
    """The charity evening: extra donations and the prize table (older backups have none)."""
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


def _restore_members(
    entries: list[Any], t: Tournament, account: Callable[[Any], Any], user: Actor
) -> None:
    """The members whose accounts are here (the others are not brought); the one restoring
    becomes organiser."""
    for entry in entries:
        member_user = account(entry["user"])
        if member_user is None:
            continue
        _build(Membership, entry, ("user",), tournament=t, user=member_user).save()
    if user is not None:
        Membership.objects.update_or_create(
            tournament=t, user_id=account_id(user), defaults={"role": Role.ORGANISER}
        )


def _restore_series(entries: list[Any], t: Tournament, *, as_copy: bool) -> None:
    """The cups the tournament counts for: a cup this installation knows (by its slug) takes
    the tournament in, one it does not know is created with it. A copy restored under a new
    slug counts for no cup: the original evening would count twice."""
    if as_copy:
        return
    for entry in entries:
        series = Series.across_vereine.filter(verein=t.verein, slug=str(entry["slug"])).first()
        if series is None:
            series = _build(Series, entry, (), verein=t.verein)
            base, n = series.slug, 1
            while Series.across_vereine.filter(slug=series.slug).exists():  # another Verein's
                n += 1
                series.slug = f"{base[:75]}-{n}"
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
    restored: AuditLog = _build(AuditLog, entry, ("user",), tournament=t, user=account(user_name))
    if not restored.username and user_name is not None:  # a backup from before it was kept
        restored.username = str(user_name)[:150]
    return restored.name_what_it_names()
