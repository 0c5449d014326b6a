from __future__ import annotations

import os
import signal
import threading
from typing import Any

from binokel_tournament.management.base import SystemCommand

from ...services.server.backup import backup_process_loop


class Command(SystemCommand):
    help = (
        "The hall server's backup writer (started by `manage.py hall`): first the backups of "
        "what changed since the newest ones (after a crash), then, at a lower CPU priority, "
        "the automatic backups the web workers ask for, until stopped."
    )

    def handle(self, *args: Any, **opts: Any) -> None:
        stop = threading.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
        parent = os.getppid()
        watcher = threading.Thread(target=self._watch, args=(parent, stop), daemon=True)
        watcher.start()
        # the backups of what changed before a crash at normal priority, then lower
        backup_process_loop(stop, caught_up=lambda: os.nice(10))

    @staticmethod
    def _watch(parent: int, stop: threading.Event) -> None:
        """Stop with the hall server (also when it was killed and never said goodbye)."""
        while not stop.wait(1.0):
            if os.getppid() != parent:
                stop.set()
