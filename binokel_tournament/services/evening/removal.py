"""Removing a whole evening from the database (an evening replaced by a newer export of
itself): its results and seats first, which keep their entrants from being deleted one by
one (``PROTECT``), then the tournament with everything it holds."""

from __future__ import annotations

from django.db import transaction

from ...models import PartyResult, Seat, Tournament


def delete_evening(t: Tournament) -> None:
    with transaction.atomic():
        PartyResult.objects.filter(game__sheet__table__round__tournament=t).delete()
        Seat.objects.filter(table__round__tournament=t).delete()
        t.delete()
