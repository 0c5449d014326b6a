"""Asking for a new password on the command line (twice, hidden) or reading it from a file,
checked like every password here: Django's validators, and never the demo password."""

from __future__ import annotations

import getpass
from pathlib import Path

from django.contrib.auth.models import AbstractBaseUser
from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from ..services.errors import DeskError
from ..services.members import check_new_password


def password_from_file(path: str) -> str:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror or exc}") from exc
    password = text.rstrip("\r\n")
    if not password:
        raise CommandError(_("%(path)s ist leer.") % {"path": path})
    return password


def checked(password: str, user: AbstractBaseUser) -> str:
    try:
        check_new_password(password, user)
    except DeskError as exc:
        raise CommandError(exc.message) from exc
    return password


def ask_new_password(user: AbstractBaseUser, attempts: int = 3) -> str:
    """Prompt until two equal, acceptable passwords were typed (at most ``attempts`` times)."""
    name = user.get_username()
    for _attempt in range(attempts):
        first = getpass.getpass(f"Neues Passwort für {name} / new password for {name}: ")
        second = getpass.getpass("Noch einmal / again: ")
        if first != second:
            print("Die beiden Eingaben sind verschieden. / The two entries differ.")
            continue
        try:
            check_new_password(first, user)
        except DeskError as exc:
            print(exc.message)
            continue
        return first
    raise CommandError(_("Kein Passwort für %(name)s gesetzt.") % {"name": name})
