"""Set up Django on a throwaway SQLite database (or DATABASE_URL if set) for a benchmark."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def setup() -> None:
    sys.path.insert(0, str(ROOT))
    if "DATABASE_URL" not in os.environ:
        db = Path(tempfile.mkdtemp(prefix="binokel-bench-")) / "bench.sqlite3"
        os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "binokel_tournament.settings")
    os.environ.setdefault("DEBUG", "false")
    # No automatic backups: they would be written by a thread of this very process, and their
    # CPU time would fall into whatever is measured next (after building a 999-entrant
    # tournament, a backup thread made the dashboard look 140 ms slower). The hall writes them
    # in a process of its own; benchmarks/load.py and tables.py measure with them.
    os.environ.setdefault("BACKUP_AUTO", "false")
    import django
    from django.core.management import call_command

    django.setup()
    from django_scopes import scopes_disabled  # noqa: E402

    scopes_disabled().__enter__()  # the system: every Verein (services/tenancy.py)
    call_command("migrate", verbosity=0)


def build_scored_tournament(entrants: int, name: str, username: str) -> tuple[object, object]:
    """An Einzel tournament of ``entrants`` players with every round seated by the pairing
    engine and every sheet simulated from dealt hands, saved through the desk's service."""
    from django.contrib.auth import get_user_model

    from binokel_tournament.models import Entrant, Membership, Mode, Role
    from binokel_tournament.services.evening.registration import create_tournament
    from binokel_tournament.services.evening.seating import generate_seating
    from binokel_tournament.services.evening.simulation import simulate_round

    user = get_user_model().objects.create_user(username, password="x", is_staff=True)
    t = create_tournament(name, modes=[Mode.SINGLES])
    Membership.objects.create(tournament=t, user=user, role=Role.ORGANISER)
    comp = t.competitions.get()
    Entrant.objects.bulk_create(
        Entrant(
            tournament=t,
            competition=comp,
            start_number=i,
            name=f"Spielerin Nummer {i} Häußler",
            club=f"Binokelfreunde {i % 23}",
        )
        for i in range(1, entrants + 1)
    )
    generate_seating(comp, user=user)
    for round_obj in t.round_set.order_by("number"):
        simulate_round(round_obj, user, seed=round_obj.number)
    from django.db import connection

    if connection.vendor == "postgresql":  # what autovacuum does after a bulk load
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return t, user
