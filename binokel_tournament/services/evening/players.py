"""The players' own links: a personal link per person (each partner of a pair has one of their
own), made where missing, revoked and opened. What their page shows is ``pages.personal_page``.

A link is unguessable (128 random bits) and revocable; its short code is for typing at the
door. The page needs no login and shows only what the public pages show, plus this person's own
games."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from ...models import Entrant, PersonalLink, Tournament
from ..access import Action, Actor, require
from ..audit import log_action
from ..errors import DeskError
from ..rounds.state import round_states


def people(entrant: Entrant) -> list[bool]:
    """The people of an entrant, as the ``partner`` flag of their links."""
    return [False, True] if entrant.partner else [False]


def ensure_links(tournament: Tournament) -> list[PersonalLink]:
    """Every person of the tournament with an open link (made where missing), by start number,
    the pair's first name first."""
    return _ensure(
        list(tournament.entrants.order_by("start_number")),
        PersonalLink.objects.filter(entrant__tournament=tournament, revoked_at=None),
    )


def links_of(entrant: Entrant) -> list[PersonalLink]:
    """The open links of one entrant's people (made where missing), the first name first."""
    return links_for([entrant])


def links_for(entrants: list[Entrant]) -> list[PersonalLink]:
    """The open links of these entrants' people (made where missing), in their order."""
    return _ensure(
        entrants, PersonalLink.objects.filter(entrant__in=[e.pk for e in entrants], revoked_at=None)
    )


def _ensure(entrants: list[Entrant], existing: QuerySet[PersonalLink]) -> list[PersonalLink]:
    open_links: dict[tuple[int, bool], PersonalLink] = {}
    for _attempt in range(5):
        # a link made meanwhile by another request, or a code or token taken: read, again
        open_links = {(link.entrant_id, link.partner): link for link in existing.all()}
        missing = [
            PersonalLink(entrant=e, partner=partner)
            for e in entrants
            for partner in people(e)
            if (e.pk, partner) not in open_links
        ]
        if not missing:
            break
        try:
            with transaction.atomic():
                for link in PersonalLink.objects.bulk_create(missing):
                    open_links[(link.entrant_id, link.partner)] = link
            break
        except IntegrityError:
            continue
    by_pk = {e.pk: e for e in entrants}
    out = []
    for e in entrants:
        for partner in people(e):
            found = open_links.get((e.pk, partner))
            if found is not None:
                found.entrant = by_pk[e.pk]
                out.append(found)
    return out


def revoke(link: PersonalLink, user: Actor) -> PersonalLink:
    """The old link shows nothing any more; the person gets a new one (audited). A link
    replaced meanwhile (two desks at once) is refused."""
    tournament = link.entrant.tournament
    require(user, tournament, Action.EDIT_ENTRANTS)
    with transaction.atomic():
        fresh = PersonalLink.objects.select_for_update().get(pk=link.pk)
        if fresh.revoked_at is not None:
            raise DeskError(_("Dieser Link wurde schon ersetzt."))
        fresh.revoked_at = link.revoked_at = timezone.now()
        fresh.save(update_fields=["revoked_at"])
        new = PersonalLink.objects.create(entrant=link.entrant, partner=link.partner)
        log_action(
            tournament, user, "personal_link.revoke", link.entrant, None, {"partner": link.partner}
        )
    return new


def revoke_person(entrant: Entrant, partner: bool, user: Actor) -> PersonalLink:
    """A lost slip: replace the link of one person of the entrant (the first name, or with
    ``partner`` a pair's second) and return the new one."""
    require(user, entrant.tournament, Action.EDIT_ENTRANTS)
    if partner and not entrant.partner:
        raise DeskError(_("%(entrant)s ist kein Paar.") % {"entrant": entrant})
    link = next(link for link in links_of(entrant) if link.partner == partner)
    return revoke(link, user)


def open_link(token: str) -> PersonalLink | None:
    """The link of this token, unless it was revoked (or never existed)."""
    return (
        PersonalLink.objects.filter(token=token, revoked_at=None)
        .select_related("entrant__tournament", "entrant__competition")
        .first()
    )


def evening_over(tournament: Tournament) -> bool:
    """Every round has been played and every sheet confirmed: the places are final."""
    evening = round_states(tournament)
    return len(evening) >= tournament.rounds and evening.over
