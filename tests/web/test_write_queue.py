"""Saves on SQLite wait their turn for the write transaction in a queue the kernel keeps (a
file lock), instead of polling SQLite's lock: a second save waits while the first is inside,
goes in the moment it ends — also when it ended with an error — and both are stored."""

from __future__ import annotations

import fcntl
import os
import threading
import time

import pytest
from django.db import connection, connections

from binokel_tournament.models import AuditLog
from binokel_tournament.services.writes import write_transaction


def turn_is_free() -> bool:
    """Whether nobody holds the save's turn (the lock file beside the database)."""
    fd = os.open(str(connection.settings_dict["NAME"]) + ".writelock", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)  # closing releases a lock taken here
    return True


pytestmark = pytest.mark.django_db(transaction=True)


def test_a_second_save_waits_for_the_first_and_an_error_releases_the_turn(db):
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL queues the writers itself")
    inside = threading.Event()
    leave = threading.Event()
    events: list[str] = []

    def first() -> None:
        try:
            with write_transaction():
                AuditLog.objects.create(action="first", object_type="test")
                events.append("first in")
                inside.set()
                leave.wait(10)
                events.append("first out")
                raise RuntimeError("the first save fails after all")
        except RuntimeError:
            pass
        finally:
            connections.close_all()

    def second() -> None:
        try:
            inside.wait(10)
            with write_transaction():
                events.append("second in")
                AuditLog.objects.create(action="second", object_type="test")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    assert inside.wait(10)
    time.sleep(0.3)  # the second save is waiting meanwhile, not inside
    assert events == ["first in"] and not turn_is_free()
    leave.set()
    for thread in threads:
        thread.join(20)
    assert events == ["first in", "first out", "second in"]
    assert list(AuditLog.objects.values_list("action", flat=True)) == ["second"]
    assert turn_is_free()
