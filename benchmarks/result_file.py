"""The open result file of a big evening: 999 entrants in the Einzel, three rounds of 12 games
scored (seating from the pairing engine, every sheet simulated from dealt hands and saved
through the sheet's writer). Measured: writing the file (``export_result``), its size (plain
and gzipped), the engine's checker in this process and as the command a cup organiser runs
(``python -m scoring check-result``), and taking it into an empty database
(``import_result``: every game through the writer), then written again: the same bytes.
The check must take seconds, not minutes. The build is printed separately.

Run: .venv/bin/python benchmarks/result_file.py [--entrants N]"""

from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _machine as machine
from _django import ROOT, build_scored_tournament, setup

setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402

from binokel_tournament.exports.result_file import document, to_bytes  # noqa: E402
from binokel_tournament.models import (  # noqa: E402
    PartyResult,
    Seat,
    Tournament,
)
from binokel_tournament.services.imports import import_result  # noqa: E402
from scoring import result_file  # noqa: E402

CHECK_TARGET = 10.0  # seconds: "seconds, not minutes"


def timed(step):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    out = step()
    return time.perf_counter() - start, out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entrants", type=int, default=999)
    entrants = parser.parse_args().entrants
    print(f"database: {connection.vendor}; {machine.describe()}")
    build_s, (t, _user) = timed(
        lambda: build_scored_tournament(entrants, "Benchmark Ergebnisdatei", "bench-result")
    )
    games = PartyResult.objects.filter(entrant__tournament=t).values("game").distinct().count()
    print(f"built {entrants} entrants, {games:,} games in {build_s:.1f} s (not measured below)")

    export_s, data = timed(lambda: to_bytes(document(t, "results", public=False)))
    packed = len(gzip.compress(data))
    print(
        f"export_result (results): {export_s:.2f} s; {len(data) / 1e6:.1f} MB "
        f"({packed / 1e6:.2f} MB gzipped)"
    )
    parse_s, doc = timed(lambda: json.loads(data))
    check_s, report = timed(lambda: result_file.check(doc))
    assert report.ok, report.problems[:3]
    print(
        f"check (engine, in process): {check_s:.2f} s + {parse_s:.2f} s to read the JSON; "
        f"{report.games:,} games scored again, all agree (target < {CHECK_TARGET:.0f} s)"
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "evening.json"
        path.write_bytes(data)
        cli_s, run = timed(
            lambda: subprocess.run(
                [sys.executable, "-m", "scoring", "check-result", str(path)],
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=600,
            )
        )
    print(
        f"python -m scoring check-result: {cli_s:.2f} s (exit {run.returncode}: "
        f"{run.stdout.strip().splitlines()[0] if run.stdout.strip() else run.stderr.strip()})"
    )

    PartyResult.objects.filter(entrant__tournament=t).delete()  # an empty database
    Seat.objects.filter(table__round__tournament=t).delete()
    Tournament.objects.filter(pk=t.pk).delete()
    get_user_model().objects.all().delete()
    import_s, done = timed(lambda: import_result(data, None))
    print(f"import_result into an empty database: {import_s:.2f} s ({done.tournament.slug})")
    again_s, again = timed(lambda: to_bytes(document(done.tournament, "results", public=False)))
    same = again == data
    print(f"written again: {again_s:.2f} s, {'the same bytes' if same else 'DIFFERENT'}")
    ok = same and run.returncode == 0 and check_s < CHECK_TARGET
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
