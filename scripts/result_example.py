#!/usr/bin/env python3
"""Print a small, complete results file (docs/result-format.md's example): one evening of three
players at one table, twelve games, played with really dealt hands through the desk's writer,
exported and written compactly (short objects on one line). Run on a throwaway database:

    DATABASE_URL=sqlite:////tmp/example.sqlite3 .venv/bin/python manage.py migrate
    DATABASE_URL=sqlite:////tmp/example.sqlite3 .venv/bin/python scripts/result_example.py
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "binokel_tournament.settings")

import django  # noqa: E402

django.setup()
from django_scopes import scopes_disabled  # noqa: E402

scopes_disabled().__enter__()  # the system: every Verein (services/tenancy.py)

from datetime import date  # noqa: E402

from binokel_tournament.exports.result_file import document  # noqa: E402
from binokel_tournament.models import Mode  # noqa: E402
from binokel_tournament.services.evening.registration import (  # noqa: E402
    create_tournament,
    register_entrant,
)
from binokel_tournament.services.evening.seating import generate_seating  # noqa: E402
from binokel_tournament.services.evening.simulation import simulate_round  # noqa: E402

WIDTH = 96


def compact(value: object, indent: int = 0) -> str:
    """JSON with every object or list that fits in a line on one line."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + indent <= WIDTH or not isinstance(value, dict | list) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {compact(v, indent + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + compact(v, indent + 2) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def main() -> None:
    t = create_tournament(
        "Probeabend",
        modes=[Mode.SINGLES],
        rounds=1,
        date=date(2026, 11, 6),
        venue="Gemeindehaus",
        town="Musterhausen",
        organiser_club="Binokelfreunde Musterhausen",
        entry_fee_cents=800,
        donation_tiers=[[1, 50]],
    )
    t.event_id = "urn:uuid:7f1c2b9e-4d3a-4e5b-9c8d-1a2b3c4d5e6f"
    t.save()
    for name, club, public in (
        ("Anna Häußler", "CVJM", True),
        ("Bernd Schäfer", "", True),
        ("Christa Dürr", "CVJM", False),
    ):
        e = register_entrant(t.competitions.get(), name, club=club)
        e.public_name = public
        e.save()
    generate_seating(t.competitions.get())
    simulate_round(t.round_set.get(number=1), None, seed=6)
    doc = document(t, "results")
    doc["generator"] = {"program": "von Hand (docs/result-format.md)", "version": "1"}
    for r in doc["rounds"]:
        r["started_at"] = "2026-11-06T19:30:00+00:00"
        r["finished_at"] = "2026-11-06T20:40:00+00:00"
    print(compact(doc))


if __name__ == "__main__":
    main()
