"""The base of this program's commands: a command is the system, as the database is, and
sees every Verein (services/tenancy.py) however it was started (``manage.py``,
``python -m django``, ``call_command``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django_scopes import scopes_disabled


class SystemCommand(BaseCommand):
    def execute(self, *args: Any, **options: Any) -> str | None:
        with scopes_disabled():
            return super().execute(*args, **options)
