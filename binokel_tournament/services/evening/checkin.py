"""The door: find a person by what the desk scans or types — the personal link's QR code (a
USB scanner types the address and Enter), the short code, a start number or a name — mark
them present, and before the seating is made withdraw everyone who did not come."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ...models import CODE_ALPHABET, CODE_LENGTH, Entrant, PersonalLink, Table, Tournament
from ..access import Action, Actor, require
from ..audit import audit_entry, log_action, log_many
from ..errors import DeskError
from ..names import NameQuery

MAX_QUERY = 200
MAX_HITS = 12
TOKEN_IN_URL = re.compile(r"/p/([A-Za-z0-9_-]{8,64})/?")
TOKEN = re.compile(r"[A-Za-z0-9_-]{20,64}")
CODE = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
START_NUMBER = re.compile(r"[0-9]{1,6}")


@dataclass(frozen=True)
class Found:
    """Who a scan or a search found: exactly one person (``entrant``, and which of a pair's
    names when a personal link named them) or several candidates of a name search."""

    entrant: Entrant | None
    partner: bool = False  # the pair's second name was scanned
    candidates: tuple[Entrant, ...] = ()
    by_link: bool = False  # found by a personal link's QR code or short code


def find(tournament: Tournament, query: str) -> Found:
    query = query.strip()[:MAX_QUERY]
    if not query:
        return Found(None)
    token = None
    if (match := TOKEN_IN_URL.search(query)) is not None:
        token = match.group(1)
    elif TOKEN.fullmatch(query) and not START_NUMBER.fullmatch(query):
        token = query
    links = PersonalLink.objects.filter(entrant__tournament=tournament, revoked_at=None)
    link = None
    if token is not None:
        link = links.filter(token=token).select_related("entrant").first()
    elif CODE.fullmatch(query.upper()) and not START_NUMBER.fullmatch(query):
        link = links.filter(code=query.upper()).select_related("entrant").first()
    if link is not None:
        return Found(link.entrant, link.partner, by_link=True)
    if token is not None:
        return Found(None)  # a link of another tournament, or revoked
    entrants = tournament.entrants.select_related("competition")
    if START_NUMBER.fullmatch(query):
        one = entrants.filter(start_number=int(query)).first()
        return Found(one)
    typed = NameQuery(query)
    hits = [
        e
        for e in entrants.order_by("start_number").only(
            "pk", "name", "partner", "start_number", "competition", "tournament"
        )
        if typed.found_in(e.name, e.partner)
    ][:MAX_HITS]
    if len(hits) == 1:
        return Found(hits[0])
    pks = [e.pk for e in hits]
    full = {e.pk: e for e in entrants.filter(pk__in=pks)}
    return Found(None, candidates=tuple(full[pk] for pk in pks))


def check_in(entrant: Entrant, user: Actor) -> bool:
    """Mark the entrant present; False when they were already (nothing changes then)."""
    require(user, entrant.tournament, Action.REGISTER)
    with transaction.atomic():
        fresh = Entrant.objects.select_for_update().get(pk=entrant.pk)
        if fresh.checked_in_at is not None:
            entrant.checked_in_at = fresh.checked_in_at
            return False
        fresh.checked_in_at = timezone.now()
        fresh.save(update_fields=["checked_in_at"])
        log_action(fresh.tournament, user, "entrant.check_in", fresh)
    entrant.checked_in_at = fresh.checked_in_at
    return True


def undo_check_in(entrant: Entrant, user: Actor) -> None:
    require(user, entrant.tournament, Action.REGISTER)
    with transaction.atomic():
        fresh = Entrant.objects.select_for_update().get(pk=entrant.pk)
        if fresh.checked_in_at is not None:
            fresh.checked_in_at = None
            fresh.save(update_fields=["checked_in_at"])
            log_action(fresh.tournament, user, "entrant.check_in_undone", fresh)
    entrant.checked_in_at = None


@dataclass(frozen=True)
class DoorCount:
    registered: int  # not withdrawn
    present: int
    paid: int  # of those present

    @property
    def missing(self) -> int:
        return self.registered - self.present


def door_count(tournament: Tournament) -> DoorCount:
    active = tournament.entrants.filter(withdrawn=False)
    present = active.filter(checked_in_at__isnull=False)
    return DoorCount(active.count(), present.count(), present.filter(fee_paid=True).count())


def no_shows(tournament: Tournament) -> list[Entrant]:
    return list(
        tournament.entrants.filter(withdrawn=False, checked_in_at__isnull=True).order_by(
            "start_number"
        )
    )


def withdraw_no_shows(tournament: Tournament, user: Actor) -> list[Entrant]:
    """ "Nicht erschienen": withdraw everyone registered and not checked in, in one step —
    only before the seating is made (a plan seats people; re-plan after single withdrawals)
    and only once the door has checked anybody in (else it would withdraw the whole field)."""
    require(user, tournament, Action.EDIT_ENTRANTS)
    with transaction.atomic():
        if Table.objects.filter(round__tournament=tournament).exists():
            raise DeskError(
                _(
                    "Der Spielplan steht schon. Wer nicht gekommen ist, bitte einzeln abmelden "
                    "und dann neu planen."
                )
            )
        if not tournament.entrants.filter(checked_in_at__isnull=False).exists():
            raise DeskError(_("Noch niemand ist als angekommen markiert."))
        missing = list(
            Entrant.objects.select_for_update()
            .filter(tournament=tournament, withdrawn=False, checked_in_at__isnull=True)
            .order_by("start_number")
        )
        Entrant.objects.filter(pk__in=[e.pk for e in missing]).update(withdrawn=True)
        log_many(
            tournament,
            (
                audit_entry(
                    tournament,
                    user,
                    "entrant.no_show",
                    e,
                    {"withdrawn": False},
                    {"withdrawn": True},
                )
                for e in missing
            ),
        )
    return missing


def no_show_message(withdrawn: list[Entrant]) -> str:
    return ngettext(
        "%(n)s Anmeldung ohne Ankunft wurde abgemeldet: %(numbers)s.",
        "%(n)s Anmeldungen ohne Ankunft wurden abgemeldet: %(numbers)s.",
        len(withdrawn),
    ) % {"n": len(withdrawn), "numbers": ", ".join(str(e.start_number) for e in withdrawn)}
