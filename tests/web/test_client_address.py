"""Behind a reverse proxy every request comes from the proxy: the client address is read from
X-Forwarded-For (django-ipware) only for a peer listed in TRUSTED_PROXIES, and the one address
counts for every flood limit: the online registration, the tables' links, the logins."""

from __future__ import annotations

import re
import uuid
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.test import RequestFactory, override_settings
from django.urls import reverse

from binokel_tournament.models import Entrant, Mode
from binokel_tournament.services.evening import signup
from binokel_tournament.services.server import throttle
from binokel_tournament.services.server.client_address import client_address

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.2"  # the nginx in front of gunicorn


@pytest.fixture(autouse=True)
def fresh_counts(monkeypatch):
    cache.clear()  # the rate limits count in the cache
    # one fixed window: a test that crosses a window's end would see the counts start again
    monkeypatch.setattr(throttle, "time", SimpleNamespace(time=lambda: 1_000_000.0))
    yield
    cache.clear()


def request(peer: str, forwarded: str | None = None):
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    return RequestFactory().get("/", REMOTE_ADDR=peer, **extra)


@override_settings(TRUSTED_PROXIES=["10.0.0.0/24", "::1"])
def test_the_client_is_the_right_most_forwarded_address_that_is_no_trusted_proxy():
    assert client_address(request(PROXY, "203.0.113.7")) == "203.0.113.7"
    # what a client wrote itself stands further left and is ignored
    assert client_address(request(PROXY, "1.2.3.4, 203.0.113.7")) == "203.0.113.7"
    # two trusted proxies in a row (a load balancer, then nginx)
    assert client_address(request(PROXY, "1.2.3.4, 198.51.100.9, 10.0.0.5")) == "198.51.100.9"
    assert client_address(request("::1", "2001:db8::7")) == "2001:db8::7"
    # no header from the proxy: the proxy itself
    assert client_address(request(PROXY)) == PROXY
    # a peer that is no trusted proxy: its header is its own claim
    assert client_address(request("198.51.100.20", "203.0.113.7")) == "198.51.100.20"


def test_without_trusted_proxies_the_header_is_never_read():
    assert client_address(request("127.0.0.1", "203.0.113.7")) == "127.0.0.1"


def open_singles(tournament):
    competition = tournament.competitions.get(mode=Mode.SINGLES)
    signup.update_settings(competition, None, registration_open=True)


def post_form(client, tournament, name: str, **headers):
    url = reverse("public:signup", args=[tournament.slug])
    page = client.get(url, **headers).content.decode()
    key = re.search(r'name="key" value="([0-9a-f]+)"', page).group(1)
    return client.post(url, {"mode": "singles", "name": name, "key": key}, **headers)


@override_settings(TRUSTED_PROXIES=[PROXY])
def test_fifty_registrations_from_fifty_forwarded_addresses_through_a_trusted_proxy(
    client, tournament
):
    open_singles(tournament)
    before = Entrant.objects.count()
    statuses = [
        post_form(
            client,
            tournament,
            f"Gast {i}",
            REMOTE_ADDR=PROXY,
            HTTP_X_FORWARDED_FOR=f"198.51.100.{i}",
        ).status_code
        for i in range(50)
    ]
    assert statuses == [302] * 50  # none cut at #21
    assert Entrant.objects.count() == before + 50


@override_settings(TRUSTED_PROXIES=[PROXY])
def test_forwarded_addresses_from_an_untrusted_peer_share_its_one_limit(client, tournament):
    open_singles(tournament)
    statuses = [
        post_form(
            client,
            tournament,
            f"Bot {i}",
            REMOTE_ADDR="203.0.113.66",
            HTTP_X_FORWARDED_FOR=f"198.51.100.{i}",
        ).status_code
        for i in range(25)
    ]
    assert statuses[:20] == [302] * 20 and set(statuses[20:]) == {429}


@override_settings(TRUSTED_PROXIES=[PROXY])
def test_one_flooding_address_behind_the_proxy_does_not_block_the_others(client, tournament):
    open_singles(tournament)
    flood = [
        post_form(
            client, tournament, f"Bot {i}", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.66"
        ).status_code
        for i in range(21)
    ]
    assert flood[-1] == 429
    other = post_form(
        client, tournament, "Echte Anna", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.1"
    )
    assert other.status_code == 302


@override_settings(TRUSTED_PROXIES=[PROXY], TABLE_GUESS_LIMIT=5)
def test_wrong_table_links_count_per_forwarded_address(client):
    guess = [
        client.get(
            f"/tisch/guess{i:018d}/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.66"
        ).status_code
        for i in range(6)
    ]
    assert guess == [404] * 5 + [429]
    other = client.get(
        "/tisch/guess000000000000000099/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="198.51.100.1"
    )
    assert other.status_code == 404  # another device behind the proxy is not refused


def login(client, password: str, forwarded: str):
    return client.post(
        "/anmelden/",
        {"username": "orga", "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=forwarded,
    )


@override_settings(TRUSTED_PROXIES=[PROXY])
def test_logins_lock_the_forwarded_address_not_the_proxy(client, tournament):
    for _ in range(5):
        login(client, "falsch", "203.0.113.66")
    assert login(client, "pw", "203.0.113.66").status_code == 429
    assert login(client, "pw", "198.51.100.1").status_code == 302  # the organiser's own desk


def test_a_request_without_an_address_gives_axes_none():
    from binokel_tournament.services.server.client_address import login_address

    assert login_address(RequestFactory().get("/", REMOTE_ADDR="")) is None
    assert login_address(request("192.168.1.30")) == "192.168.1.30"


def test_the_rate_limit_counts_each_request_once_and_starts_anew_each_window(monkeypatch):
    """A request is counted with one call to the cache (a table's phone polls every few
    seconds); the first of a window starts its count."""

    now = [6000.0]
    calls: list[str] = []
    real = throttle.cache

    class Counting:
        def __getattr__(self, name):
            calls.append(name)
            return getattr(real, name)

    monkeypatch.setattr(throttle.time, "time", lambda: now[0])
    monkeypatch.setattr(throttle, "cache", Counting())
    key = f"test-{uuid.uuid4().hex}"
    assert [throttle.allow(key, 2, 60) for _ in range(3)] == [True, True, False]
    assert calls == ["incr", "add", "incr", "incr"]  # the first of the window: incr, add
    now[0] += 60
    assert throttle.allow(key, 2, 60)
