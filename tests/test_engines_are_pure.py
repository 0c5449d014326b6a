"""The engines are pure Python: importing ``scoring`` and ``pairing`` (every module of them) in a
fresh interpreter must not pull in Django."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

IMPORT_EVERYTHING = """
import importlib, json, pkgutil, sys
package = importlib.import_module(sys.argv[1])
imported, failed = [package.__name__], {}
for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
    if info.name.rsplit(".", 1)[-1] == "__main__":
        continue  # running it would start the command line
    try:
        importlib.import_module(info.name)
        imported.append(info.name)
    except Exception as exc:
        failed[info.name] = repr(exc)
django = sorted(m for m in sys.modules if m == "django" or m.startswith("django."))
print(json.dumps({"imported": imported, "failed": failed, "django": django}))
"""


def import_all(package):
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_EVERYTHING, package],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("package", ["scoring", "pairing", "charity"])
def test_engine_imports_without_django(package):
    report = import_all(package)
    assert report["failed"] == {}
    assert report["django"] == [], f"{package} imports Django via {report['imported']}"


def test_every_scoring_module_was_checked():
    modules = set(import_all("scoring")["imported"])
    expected = {
        f"scoring.{path.stem}"
        for path in (REPO / "scoring").glob("*.py")
        if path.stem not in ("__init__", "__main__")
    }
    assert expected <= modules
