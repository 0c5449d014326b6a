"""``python -m scoring``: see scoring/cli.py."""

import sys

from scoring.cli import main

sys.exit(main())
