"""Registering many entrants at once: the same rules as one by one, consecutive start numbers
after the highest, an audit entry for each, and nothing saved when one of them breaks a rule."""

from __future__ import annotations

import pytest

from binokel_tournament.models import AuditLog, Entrant, Mode
from binokel_tournament.services.errors import DeskError
from binokel_tournament.services.evening.registration import register_entrant, register_entrants

pytestmark = pytest.mark.django_db


def test_many_entrants_get_the_next_numbers_in_order(tournament):
    singles = tournament.competitions.get(mode=Mode.SINGLES)
    top = tournament.entrants.order_by("-start_number")[0].start_number
    made = register_entrants(singles, [(" Anna ", "", "CVJM"), ("Bernd", "", "")])
    assert [(e.start_number, e.name, e.club) for e in made] == [
        (top + 1, "Anna", "CVJM"),
        (top + 2, "Bernd", ""),
    ]
    logged = AuditLog.objects.filter(action="entrant.register", object_id__in=[e.pk for e in made])
    assert logged.count() == 2
    assert register_entrant(singles, "Christa").start_number == top + 3


def test_one_bad_row_saves_nothing(tournament):
    pairs = tournament.competitions.get(mode=Mode.PAIRS)
    before = Entrant.objects.count()
    with pytest.raises(DeskError, match="zwei Namen"):
        register_entrants(pairs, [("Anna", "Bernd", ""), ("Christa", "", "")])
    assert Entrant.objects.count() == before
