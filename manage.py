#!/usr/bin/env python
"""Django's command-line utility for the Binokel tournament manager."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "binokel_tournament.settings")
    from django.core.management import execute_from_command_line
    from django_scopes import scopes_disabled

    with scopes_disabled():  # commands are the system: every Verein (services/tenancy.py)
        execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
