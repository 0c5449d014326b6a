"""Hall laptop and club server: registration happens on the club server weeks before, the
evening on the laptop, the results go back -- each move one step from the desk, in the open
result file's format (docs/result-format.md).

On the **club server** a Verein's organiser makes an upload key for its laptops (shown once,
kept as its SHA-256, revocable). With it a laptop may, for that Verein only: list its evenings,
fetch an evening's registrations (an ``entries`` file) and send an evening's result (a
``results`` file). A result already on the server is replaced only by a newer export of the
same evening (audited); the same file again is recognised as such; an older one is refused.

On the **laptop** the desk fetches the registrations into its Verein (the evening is made from
the file the first time, later fetches add who registered since) and sends the result. Without
network the same moves go by file: the server's desk downloads the entries file and takes the
result file in ("Ergebnisdatei einlesen"), the laptop the other way round."""

from __future__ import annotations

import hashlib
import json
import secrets
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Series, Tournament, UploadKey, Verein
from . import tenancy
from .access import Actor, NotAllowed, account_id, can_create_tournament
from .audit import log_action
from .errors import DeskError
from .imports import Imported, import_result, read_checked
from .server.backup.restore import remove_evening

TIMEOUT = 30  # seconds for one request to the club server (a hall's slow uplink)
API = "/api/v1/"


class KeyRefused(DeskError):
    """No valid key: unknown, revoked, or missing."""


class ResultConflict(DeskError):
    """The result is not taken: the server holds a newer export, or plays the evening itself."""


class ServerRefused(DeskError):
    """The club server answered with a refusal (its message) or could not be reached."""


# --- keys (club server) -----------------------------------------------------------------------
def _digest(secret: str) -> str:
    return hashlib.sha256(secret.strip().encode()).hexdigest()


def _require_organiser(user: Actor, verein: Verein) -> None:
    if not can_create_tournament(user, verein):
        raise NotAllowed(_("Schlüssel verwaltet nur die Turnierleitung des Vereins."))


def make_key(verein: Verein, user: Actor, label: str) -> tuple[UploadKey, str]:
    """A new key of ``verein``: the key object and the secret, which is shown this once."""
    _require_organiser(user, verein)
    label = label.strip()[:120] or _("Hallen-Laptop")
    secret = "bk_" + secrets.token_urlsafe(32)
    key = UploadKey.objects.create(
        verein=verein,
        label=label,
        digest=_digest(secret),
        hint=secret[:7],
        created_by_id=account_id(user) if user is not None and user.is_authenticated else None,
    )
    log_action(None, user, "verein.key", key, after={"verein": verein.slug, "label": label})
    return key, secret


def revoke_key(key: UploadKey, user: Actor) -> None:
    _require_organiser(user, key.verein)
    if key.revoked_at is None:
        key.revoked_at = timezone.now()
        key.save(update_fields=["revoked_at"])
        log_action(
            None,
            user,
            "verein.key_revoke",
            key,
            after={"verein": key.verein.slug, "label": key.label},
        )


def keys_of(verein: Verein) -> list[UploadKey]:
    return list(UploadKey.objects.filter(verein=verein))


def verein_of_key(secret: str | None) -> tuple[Verein, UploadKey]:
    """The Verein a laptop's key belongs to; KeyRefused for a missing, unknown or revoked key."""
    if not secret or not secret.strip():
        raise KeyRefused(_("Ohne Schlüssel geht es nicht."))
    key = UploadKey.objects.select_related("verein").filter(digest=_digest(secret)).first()
    if key is None or key.revoked_at is not None:
        raise KeyRefused(_("Dieser Schlüssel gilt hier nicht (unbekannt oder widerrufen)."))
    UploadKey.objects.filter(pk=key.pk).update(last_used_at=timezone.now())
    return key.verein, key


# --- what the club server answers ---------------------------------------------------------------
def evenings(verein: Verein) -> list[dict[str, Any]]:
    """The Verein's evenings a laptop may fetch (its own, not those taken in from a file),
    newest date first."""
    with tenancy.system():
        shown = Tournament.across_vereine.filter(verein=verein, imported="").order_by(
            "-date", "name"
        )
        return [
            {
                "slug": t.slug,
                "name": t.name,
                "date": t.date.isoformat() if t.date else None,
                "entrants": t.entrants.count(),
            }
            for t in shown
        ]


def entries_file(verein: Verein, slug: str) -> bytes:
    """The evening's registrations as an entries file (every name: it goes to the Verein's own
    laptop, whose public pages then follow each player's consent)."""
    from ..exports.result_file import document, to_bytes

    with tenancy.system():
        t = Tournament.across_vereine.filter(verein=verein, slug=slug).first()
        if t is None:
            raise DeskError(_("Diesen Abend gibt es in diesem Verein nicht."))
        return to_bytes(document(t, "entries"))


@dataclass(frozen=True)
class Received:
    tournament: Tournament
    outcome: str  # "new", "replaced", "same"
    message: str


def _progress(document: dict[str, Any]) -> tuple[str, int]:
    """How far an export of an evening got: its latest round time or correction, and its games
    (a later export of the same evening is never behind in either)."""
    times = [
        t
        for r in document.get("rounds", [])
        for t in (r.get("started_at"), r.get("finished_at"))
        if t
    ]
    times += [c.get("at", "") for c in document.get("corrections", []) if c.get("at")]
    games = sum(
        len(table.get("games", [])) for r in document.get("rounds", []) for table in r["tables"]
    )
    return (max(times, default=""), games)


def result_of_an_evening_here(data: bytes, verein: Verein) -> bool:
    """Whether ``data`` looks like the result file of an evening ``verein`` already has (a
    quick look; the file is checked in full when it is taken in)."""
    try:
        head = json.loads(data)
        event_id = head["event"]["id"] if head.get("kind") == "results" else None
    except (ValueError, KeyError, TypeError, AttributeError):
        return False
    with tenancy.system():
        return bool(
            event_id
            and Tournament.across_vereine.filter(verein=verein, event_id=str(event_id)).exists()
        )


def without_cups(document: dict[str, Any]) -> bytes:
    """The file as the laptop wrote it: the cups the server counts the evening in are its own."""
    from ..exports.result_file import to_bytes

    event = {k: v for k, v in document["event"].items() if k != "series"}
    return to_bytes({**document, "event": event})


def receive_result(
    verein: Verein,
    data: bytes,
    key: UploadKey | None,
    lang: str | None = None,
    user: Actor = None,
) -> Received:
    """Take an evening's result file into ``verein``: new here, or replacing the same evening
    when the file is a newer export of it (or the evening here is its registration, nothing
    played); the same file again changes nothing; an older export is refused."""
    from ..exports.result_file import document as document_of

    if user is not None:  # the desk's upload of the file (without network): its organiser
        _require_organiser(user, verein)
    document = read_checked(data, lang)
    if document["kind"] != "results":
        raise DeskError(_("Hierher gehört die Ergebnisdatei eines gespielten Abends."))
    event_id = document["event"]["id"]
    with tenancy.system(), transaction.atomic():
        there = Tournament.across_vereine.filter(verein=verein, event_id=event_id).first()
        cups: list[Series] = []
        if there is not None:
            if there.imported:
                old = document_of(there, "results")
                if without_cups(old) == without_cups(document):
                    return Received(there, "same", _("Dieses Ergebnis ist schon da, unverändert."))
                if _progress(document) < _progress(old):
                    raise ResultConflict(
                        _(
                            "Auf dem Server liegt ein neuerer Stand dieses Abends; "
                            "nichts wurde ersetzt."
                        )
                    )
            elif there.round_set.filter(tables__sheet__games__isnull=False).exists():
                raise ResultConflict(
                    _("Dieser Abend wird auf dem Server selbst gespielt; nichts wurde ersetzt.")
                )
            cups = list(there.series.all())
            log_action(
                None,
                user,
                "result.replace",
                there,
                before={"slug": there.slug, "name": there.name},
                after={"key": key.label if key else None, "verein": verein.slug},
            )
            remove_evening(there)
        imported: Imported = import_result(data, user, lang, verein=verein)
        t = imported.tournament
        for cup in cups:
            cup.tournaments.add(t)
        log_action(
            t,
            user,
            "result.received",
            t,
            after={"key": key.label if key else None, "replaced": there is not None},
        )
    if there is None:
        return Received(t, "new", _("Ergebnis übernommen: %(name)s.") % {"name": t.name})
    return Received(
        t,
        "replaced",
        _("Ergebnis übernommen, der alte Stand ersetzt: %(name)s.") % {"name": t.name},
    )


# --- the laptop's side --------------------------------------------------------------------------
def _address(server: str, path: str) -> str:
    server = server.strip().rstrip("/")
    parts = urllib.parse.urlsplit(server)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ServerRefused(_("Bitte die Adresse des Vereinsservers angeben (https://…)."))
    return server + API + path


def _call(server: str, secret: str, path: str, body: bytes | None = None) -> bytes:
    request = urllib.request.Request(  # noqa: S310 - http(s) only, checked in _address
        _address(server, path),
        data=body,
        method="POST" if body is not None else "GET",
        headers={
            "Authorization": f"Bearer {secret.strip()}",
            "Content-Type": "application/json",
            "Accept": "application/json",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as reply:  # noqa: S310
            return bytes(reply.read())
    except urllib.error.HTTPError as exc:
        try:
            message = json.loads(exc.read() or b"{}").get("message")
        except ValueError:
            message = None
        raise ServerRefused(
            message or _("Der Vereinsserver lehnt ab (%(status)s).") % {"status": exc.code}
        ) from exc
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        raise ServerRefused(
            _(
                "Der Vereinsserver ist nicht erreichbar (%(reason)s). Ohne Netz geht es mit "
                "einer Datei (USB-Stick)."
            )
            % {"reason": getattr(exc, "reason", exc)}
        ) from exc


def remote_evenings(server: str, secret: str) -> list[dict[str, Any]]:
    answer = json.loads(_call(server, secret, "abende/"))
    return list(answer.get("evenings", []))


def fetch_entries(server: str, secret: str, slug: str, user: Actor, verein: Verein) -> Imported:
    """The evening's registrations from the club server into the laptop's Verein: the evening
    is made the first time; a later fetch adds who registered since."""
    data = _call(server, secret, f"abende/{urllib.parse.quote(slug)}/anmeldungen/")
    imported = import_result(data, user, verein=verein)
    if verein.club_server != server.strip().rstrip("/"):
        verein.club_server = server.strip().rstrip("/")
        verein.save(update_fields=["club_server"])
    return imported


def send_result(server: str, secret: str, tournament: Tournament, user: Actor) -> str:
    """The evening's result file to the club server; its answer in words."""
    from ..exports.result_file import document, to_bytes

    data = to_bytes(document(tournament, "results"))
    answer = json.loads(_call(server, secret, "ergebnis/", data))
    log_action(
        tournament, user, "result.sent", tournament, after={"server": server, "answer": answer}
    )
    return str(answer.get("message", ""))
