"""Files and folders of the data folder readable by this account only (issue 36 item 19).

The data folder holds password hashes and sessions (the SQLite file), the secret key, the error
log (what the desk typed) and the backups (accounts, e-mail addresses): folders 0700, files
0600, whatever the umask. Plain Python (no Django): the settings use it before Django is set up.
"""

from __future__ import annotations

import os
from contextlib import suppress
from pathlib import Path

FOLDER_MODE = 0o700
FILE_MODE = 0o600


def private_dir(path: Path) -> Path:
    """Make ``path`` and any missing folder above it readable by this account only, or make
    an existing ``path`` so; one that is not ours to change (a USB stick's FAT, another
    account's folder) is left as it is. Returns ``path``."""
    missing: list[Path] = []
    folder = Path(path)
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    for new in reversed(missing):
        with suppress(FileExistsError):  # another process made it just now
            new.mkdir(mode=FOLDER_MODE)
    _tighten(Path(path), FOLDER_MODE)
    return Path(path)


def private_file(path: Path) -> None:
    """Create ``path`` (empty) readable and writable by this account only, or make an
    existing one so (with its -wal and -shm files, which SQLite gives the database's mode)."""
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, FILE_MODE))
    for name in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        _tighten(name, FILE_MODE)


def open_private(path: Path | str, flags: int = os.O_WRONLY | os.O_APPEND | os.O_CREAT) -> int:
    """``os.open`` for a file of the data folder: made 0600, an existing one made so."""
    fd = os.open(path, flags, FILE_MODE)
    with suppress(OSError):
        if os.fstat(fd).st_mode & 0o077:
            os.fchmod(fd, FILE_MODE)
    return fd


def _tighten(path: Path, mode: int) -> None:
    try:
        if path.exists() and path.stat().st_mode & 0o077:
            path.chmod(mode)
    except OSError:  # not ours to change: leave it as it is
        pass
