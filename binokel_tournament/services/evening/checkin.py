"""The door: find a person by what the desk scans or types — the personal link's QR code (a
USB scanner types the address and Enter), the short code, a start number or a name — mark
them present, and before the seating is made withdraw everyone who did not come."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count, Q
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
    """Who a scan or a search found: exactly one entrant (and which of a pair's people, when
    a personal link or the name typed tells) or several candidates of a name search.

    Only a personal link (its QR code or exact short code) names the person who stands at
    the door: it checks them in at once. A start number or a name only finds them; the desk
    confirms the arrival ("Angekommen")."""

    entrant: Entrant | None
    partner: bool | None = None  # True: the pair's second name; None: not told
    candidates: tuple[Entrant, ...] = ()
    by_link: bool = False  # found by a personal link's QR code or short code
    revoked: bool = False  # found by a link that was replaced (a lost slip): not checked in


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
    if token is not None or (CODE.fullmatch(query.upper()) and not START_NUMBER.fullmatch(query)):
        old = PersonalLink.objects.filter(entrant__tournament=tournament).exclude(revoked_at=None)
        old = old.filter(token=token) if token is not None else old.filter(code=query.upper())
        replaced = old.select_related("entrant__competition").first()
        if replaced is not None:  # the slip of a lost one, replaced since
            return Found(replaced.entrant, replaced.partner, revoked=True)
    if token is not None:
        return Found(None)  # a link of another tournament
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
        one = entrants.get(pk=hits[0].pk)
        person = None
        if one.partner and typed.found_in(one.name) != typed.found_in(one.partner):
            person = typed.found_in(one.partner)  # the name typed is one of the pair's
        return Found(one, person)
    pks = [e.pk for e in hits]
    full = {e.pk: e for e in entrants.filter(pk__in=pks)}
    return Found(None, candidates=tuple(full[pk] for pk in pks))


def people_here(entrant: Entrant) -> list[bool]:
    """Who of the entrant has arrived: the first name (the player), and a pair's partner."""
    here = [entrant.checked_in_at is not None]
    if entrant.partner:
        here.append(entrant.partner_checked_in_at is not None)
    return here


def complete(entrant: Entrant) -> bool:
    """Everyone of the entrant has arrived (a pair: both)."""
    return all(people_here(entrant))


def _field(partner: bool) -> str:
    return "partner_checked_in_at" if partner else "checked_in_at"


def check_in(entrant: Entrant, user: Actor, partner: bool | None = None) -> bool:
    """Mark people of the entrant present: the first name (``partner=False``), a pair's
    partner (``True``) or everyone of it (``None``). False when they were already (nothing
    changes then)."""
    require(user, entrant.tournament, Action.REGISTER)
    with transaction.atomic():
        fresh = Entrant.objects.select_for_update().get(pk=entrant.pk)
        people = [False, True] if fresh.partner else [False]
        wanted = people if partner is None else [p for p in people if p == partner]
        missing = [p for p in wanted if getattr(fresh, _field(p)) is None]
        if missing:
            now = timezone.now()
            for p in missing:
                setattr(fresh, _field(p), now)
            fresh.save(update_fields=[_field(p) for p in missing])
            after = {"partner": missing == [True]} if fresh.partner and len(missing) == 1 else None
            log_action(fresh.tournament, user, "entrant.check_in", fresh, None, after)
    entrant.checked_in_at = fresh.checked_in_at
    entrant.partner_checked_in_at = fresh.partner_checked_in_at
    return bool(missing)


def undo_check_in(entrant: Entrant, user: Actor) -> None:
    """Nobody of the entrant has arrived after all."""
    require(user, entrant.tournament, Action.REGISTER)
    with transaction.atomic():
        fresh = Entrant.objects.select_for_update().get(pk=entrant.pk)
        if fresh.checked_in_at is not None or fresh.partner_checked_in_at is not None:
            fresh.checked_in_at = fresh.partner_checked_in_at = None
            fresh.save(update_fields=["checked_in_at", "partner_checked_in_at"])
            log_action(fresh.tournament, user, "entrant.check_in_undone", fresh)
    entrant.checked_in_at = entrant.partner_checked_in_at = None


# in SQL: the entrant is complete (everyone arrived) / somebody of it arrived
COMPLETE = Q(checked_in_at__isnull=False) & (Q(partner="") | Q(partner_checked_in_at__isnull=False))
SOMEBODY = Q(checked_in_at__isnull=False) | Q(partner_checked_in_at__isnull=False)


@dataclass(frozen=True)
class DoorCount:
    registered: int  # not withdrawn
    present: int  # everyone of the entrant arrived
    paid: int  # of those present
    half: int = 0  # pairs of whom one has arrived

    @property
    def missing(self) -> int:
        return self.registered - self.present


def door_count(tournament: Tournament) -> DoorCount:
    counts = tournament.entrants.filter(withdrawn=False).aggregate(
        registered=Count("pk"),
        present=Count("pk", filter=COMPLETE),
        paid=Count("pk", filter=COMPLETE & Q(fee_paid=True)),
        half=Count("pk", filter=SOMEBODY & ~COMPLETE),
    )
    return DoorCount(**counts)


def no_shows(tournament: Tournament) -> list[Entrant]:
    """Those of whom nobody has arrived."""
    return list(
        tournament.entrants.filter(withdrawn=False).exclude(SOMEBODY).order_by("start_number")
    )


def half_pairs(tournament: Tournament) -> list[Entrant]:
    """Pairs of whom one has arrived: "Nicht erschienen" leaves them (the desk decides)."""
    return list(
        tournament.entrants.filter(SOMEBODY, withdrawn=False)
        .exclude(COMPLETE)
        .order_by("start_number")
    )


def withdraw_no_shows(tournament: Tournament, user: Actor) -> list[Entrant]:
    """ "Nicht erschienen": withdraw everyone registered of whom nobody arrived, in one step —
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
        if not tournament.entrants.filter(SOMEBODY).exists():
            raise DeskError(_("Noch niemand ist als angekommen markiert."))
        missing = list(
            Entrant.objects.select_for_update()
            .filter(tournament=tournament, withdrawn=False)
            .exclude(SOMEBODY)
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
