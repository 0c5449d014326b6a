"""The cache is a helper (issue 36 item 17): with CACHE_URL=redis://..., a Redis that stops or
was never there leaves every page working -- public pages, the table's phone page and its
saves, the dashboard, the board -- made fresh; the dashboard says the cache is down; when it
answers again no page from before a change made meanwhile is served. The hall starts with a
clear line instead of a traceback.

A Redis that is down is one at a port where none listens (127.0.0.1:1); the tests that need a
live one use the local Redis (127.0.0.1:6379) under keys of their own (never emptied: other
test runs may share it) and are skipped without it."""

from __future__ import annotations

import socket
import uuid

import pytest
import requests
from django.test import Client, override_settings
from django.urls import reverse

from binokel_tournament.services.server import cache_guard
from tests import hall_server
from tests.support import start_round

from .phones import GAME, post, three_table, url

pytestmark = pytest.mark.django_db

LIVE = "redis://127.0.0.1:6379/0"
DEAD = "redis://127.0.0.1:1/0"
DOWN_TEXT = "Der Cache antwortet nicht"


def redis_at(location: str, prefix: str) -> dict:
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": location,
            "KEY_PREFIX": prefix,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }


def redis_answers() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture
def evening(seated, orga):
    """The seated tournament with its first round started, and the desk's client."""
    start_round(seated.round_set.get(number=1), None)
    desk = Client()
    desk.force_login(orga)
    return seated, desk


def public_urls(t) -> list[str]:
    return [
        "/",
        f"/t/{t.slug}/",
        f"/t/{t.slug}/rangliste/singles/",
        f"/t/{t.slug}/beamer/singles/",
        f"/t/{t.slug}/wo-sitze-ich/?q=1",
    ]


def every_page_answers(t, desk) -> None:
    anonymous = Client()
    for address in public_urls(t):
        response = anonymous.get(address)
        assert response.status_code == 200, (address, response.status_code)
    table = three_table(t)
    assert anonymous.get(url(table)).status_code == 200
    assert anonymous.get(url(table, "state")).status_code == 200
    assert desk.get(reverse("desk:board", args=[t.slug])).status_code == 200


def test_a_cache_that_was_never_there_leaves_every_page_working(evening):
    t, desk = evening
    with override_settings(CACHES=redis_at(DEAD, f"binokel-test-{uuid.uuid4().hex}")):
        every_page_answers(t, desk)
        table = three_table(t)
        saved = post(Client(), table, "game", {"op": "o1", "number": 1, "base": "", "game": GAME})
        assert saved.status_code == 200 and saved.json()["ok"]
        dashboard = desk.get(reverse("desk:dashboard", args=[t.slug])).content.decode()
        assert DOWN_TEXT in dashboard and "ConnectionError" in dashboard


def test_a_redis_that_stops_and_comes_back(evening, monkeypatch):
    if not redis_answers():
        pytest.skip("no Redis at 127.0.0.1:6379")
    monkeypatch.setattr(cache_guard, "RETRY_SECONDS", 0.0)  # try it again at every call
    t, desk = evening
    prefix = f"binokel-test-{uuid.uuid4().hex}"
    standings = f"/t/{t.slug}/rangliste/singles/"
    anonymous = Client()
    with override_settings(CACHES=redis_at(LIVE, prefix)):
        assert anonymous.get(standings)["X-Binokel-Page"] == "made"
        kept = anonymous.get(standings)
        assert kept["X-Binokel-Page"] == "kept"
        dashboard = desk.get(reverse("desk:dashboard", args=[t.slug])).content.decode()
        assert DOWN_TEXT not in dashboard
    with override_settings(CACHES=redis_at(DEAD, prefix)):  # Redis stopped
        every_page_answers(t, desk)
        assert anonymous.get(standings)["X-Binokel-Page"] == "made"  # fresh, not kept
        dashboard = desk.get(reverse("desk:dashboard", args=[t.slug])).content.decode()
        assert DOWN_TEXT in dashboard
        # meanwhile the tournament changes: its note to the cache cannot arrive
        table = three_table(t)
        saved = post(Client(), table, "game", {"op": "o1", "number": 1, "base": "", "game": GAME})
        assert saved.status_code == 200 and saved.json()["ok"]
        t.name = "Umbenannter Abend"
        t.save()
    with override_settings(CACHES=redis_at(LIVE, prefix)):  # Redis back, with its old pages
        again = anonymous.get(standings)
        assert again["X-Binokel-Page"] == "made"  # not the page from before the change
        assert "Umbenannter Abend" in again.content.decode()
        assert "Umbenannter Abend" not in kept.content.decode()
        dashboard = desk.get(reverse("desk:dashboard", args=[t.slug])).content.decode()
        assert DOWN_TEXT not in dashboard
        assert anonymous.get(standings)["X-Binokel-Page"] == "kept"  # kept again


@pytest.mark.slow  # a real hall server (gunicorn)
def test_the_hall_starts_with_a_clear_line_when_redis_is_not_there(tmp_path):
    env = hall_server.server_env(
        hall_server.sqlite_database(tmp_path), tmp_path, CACHE_URL=DEAD, BACKUP_AUTO="0"
    )
    hall_server.manage(env, "migrate", "-v0")
    with hall_server.running(env, workers=1, threads=2) as server:
        assert requests.get(server.url + "/", timeout=30).status_code == 200
        assert requests.get(server.url + "/anmelden/", timeout=30).status_code == 200
        log = server.log.read_text()
    assert "Der Cache (redis://127.0.0.1:1/0) antwortet nicht" in log
    assert "Traceback" not in log
