"""The data folder is this account's only (issue 36 item 19): the folder, backups/,
backup-status/ and logs/ are 0700, the error log and every backup 0600, like the database,
whatever the umask, and a folder or log left looser by an older version is made so."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from binokel_tournament.services.server import backup

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[2]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def start_django(data_dir: Path) -> None:
    """A fresh process with the settings of this data folder (its own SQLite file), umask 022
    (files 0644 by default), that logs one error the way a failing request does."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("CACHE_URL", "REDIS_URL", "DATA_DIR", "DATABASE_URL")
    }
    env.update(DATA_DIR=str(data_dir), DJANGO_SETTINGS_MODULE="binokel_tournament.settings")
    script = (
        "import os; os.umask(0o022)\n"
        "import django; django.setup()\n"
        "import logging; logging.getLogger('binokel').error('a test error')\n"
    )
    subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        cwd=REPO,
        capture_output=True,
        timeout=60,
        check=True,
    )


def test_a_new_data_folder_its_log_folder_and_error_log_are_private(tmp_path):
    data = tmp_path / "daten"
    start_django(data)
    assert mode(data) == 0o700
    assert mode(data / "logs") == 0o700
    assert (data / "logs" / "errors.log").read_text().count("a test error") == 1
    assert mode(data / "logs" / "errors.log") == 0o600
    assert mode(data / "secret_key") == 0o600
    assert mode(data / "binokel.sqlite3") == 0o600


def test_a_data_folder_left_open_by_an_older_version_is_made_private(tmp_path):
    data = tmp_path / "daten"
    (data / "logs").mkdir(parents=True)
    (data / "logs" / "errors.log").write_text("old\n")
    for path, loose in (
        (data, 0o755),
        (data / "logs", 0o755),
        (data / "logs" / "errors.log", 0o644),
    ):
        path.chmod(loose)
    start_django(data)
    assert (mode(data), mode(data / "logs")) == (0o700, 0o700)
    assert mode(data / "logs" / "errors.log") == 0o600
    assert (data / "logs" / "errors.log").read_text().startswith("old\n")


def test_backups_and_their_status_notes_are_private(seated, settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "daten" / "backups"
    settings.BACKUP_STATUS_DIR = tmp_path / "daten" / "backup-status"
    (tmp_path / "daten").mkdir(mode=0o700)
    old = os.umask(0o022)
    try:
        written = backup.write_auto_backup(seated.pk)
    finally:
        os.umask(old)
    assert written is not None
    assert mode(settings.BACKUP_DIR) == 0o700
    assert mode(written.parent) == 0o700
    assert mode(written) == 0o600
    assert mode(settings.BACKUP_STATUS_DIR) == 0o700
    assert all(mode(note) == 0o600 for note in Path(settings.BACKUP_STATUS_DIR).iterdir())
    assert all(mode(f) == 0o600 for f in written.parent.iterdir() if f.is_file())
