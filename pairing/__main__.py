"""``python -m pairing plan|check|replan`` (see :mod:`pairing.cli`)."""

from .cli import main

raise SystemExit(main())
