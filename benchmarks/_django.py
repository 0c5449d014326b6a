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
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
