"""A phone on the hall's network, as on the night: the page comes from the hall server's LAN
address over plain http, where browsers allow no service worker (only https and localhost are
secure contexts), and the phone's Wi-Fi drops.

The test makes the network itself: a network namespace for the phone (Debian's chromium runs in
it) joined by a veth pair to this machine, which forwards the hall address to the test's live
server. A dropped Wi-Fi is the phone's link going down. What a phone sees when it reloads
without a connection there is the browser's own error page; nothing typed is lost, and a reload
once the connection is back brings the page with every game and sends them, exactly once."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError

from binokel_tournament.models import AuditLog, ScoreSheet
from tests.support import artifact, require

from .conftest import CHROMIUM, LAUNCH_ARGS
from .support import STATE_TIMEOUT_MS, explained, phone, phone_table
from .test_table_phone import PHONE_STATE, enter_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ALL_SENT = "document.getElementById('status').dataset.state === 'ok'"


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=20)


class Forwarder:
    """Accepts on the hall address and passes each connection on to the live server (loopback);
    it serves this one test and stops with it."""

    def __init__(self, listen: tuple[str, int], target: tuple[str, int]) -> None:
        self.target = target
        self.server = socket.create_server(listen)
        self.server.settimeout(0.2)
        self.stopped = threading.Event()
        self.sockets: list[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                client, _address = self.server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            upstream = socket.create_connection(self.target, timeout=30)
            self.sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def stop(self) -> None:
        self.stopped.set()
        self.server.close()
        for s in self.sockets:
            s.close()
        self.thread.join(timeout=5)


@dataclass
class Hall:
    namespace: str
    phone_link: str
    url: str

    def wifi(self, up: bool) -> None:
        """The phone's Wi-Fi: its link in its namespace up or down."""
        ip("netns", "exec", self.namespace, "ip", "link", "set", self.phone_link,
           "up" if up else "down")  # fmt: skip

    def reachable(self) -> None:
        """Wait (bounded) until the hall address answers from inside the phone's namespace: a
        link just set up may still drop the first packets, which is the network's start, not
        what the test is about."""
        probe = (
            "import sys, time, urllib.request, urllib.error\n"
            "deadline = time.monotonic() + 30\n"
            "while True:\n"
            "    try:\n"
            "        urllib.request.urlopen(sys.argv[1], timeout=5).close(); break\n"
            "    except urllib.error.HTTPError: break\n"
            "    except OSError:\n"
            "        if time.monotonic() > deadline: raise\n"
            "        time.sleep(0.2)\n"
        )
        subprocess.run(
            ["ip", "netns", "exec", self.namespace, sys.executable, "-c", probe, f"{self.url}/"],
            check=True, capture_output=True, timeout=60,
        )  # fmt: skip


@pytest.fixture
def hall(live_server, settings) -> Iterator[Hall]:  # type: ignore[no-untyped-def]
    require(
        hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("ip") is not None,
        "the hall network test needs root and iproute2 (ip netns) to make its own network",
    )
    tag = f"{os.getpid() % 100000}"
    namespace, host_link, phone_link = f"bkphone{tag}", f"bkh{tag}", f"bkp{tag}"
    subnet = os.getpid() % 250
    host_ip, phone_ip = f"10.213.{subnet}.1", f"10.213.{subnet}.2"
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, host_ip]  # as `manage.py hall` does
    target = live_server.url.split("//")[1]
    target_host, target_port = target.rsplit(":", 1)
    forwarder = None
    try:
        ip("netns", "add", namespace)
        ip("link", "add", host_link, "type", "veth", "peer", "name", phone_link)
        ip("link", "set", phone_link, "netns", namespace)
        ip("addr", "add", f"{host_ip}/30", "dev", host_link)
        ip("link", "set", host_link, "up")
        for args in (
            ("addr", "add", f"{phone_ip}/30", "dev", phone_link),
            ("link", "set", phone_link, "up"),
            ("link", "set", "lo", "up"),
        ):
            ip("netns", "exec", namespace, "ip", *args)
        forwarder = Forwarder((host_ip, 0), (target_host, int(target_port)))
        port = forwarder.server.getsockname()[1]
        hall = Hall(namespace, phone_link, f"http://{host_ip}:{port}")
        hall.reachable()
        yield hall
    finally:
        if forwarder is not None:
            forwarder.stop()
        subprocess.run(["ip", "netns", "del", namespace], capture_output=True, timeout=20)
        subprocess.run(["ip", "link", "del", host_link], capture_output=True, timeout=20)


@pytest.fixture
def phone_in_hall(browser, hall, tmp_path):  # type: ignore[no-untyped-def]
    """Debian's chromium, started inside the phone's network namespace. What went wrong on the
    way (a failed request, an error status, a script error) is noted in ``page.troubles`` and
    shown when a wait fails."""
    wrapper = Path(tmp_path) / "chromium-in-hall"
    wrapper.write_text(f'#!/bin/sh\nexec ip netns exec {hall.namespace} {CHROMIUM} "$@"\n')
    wrapper.chmod(0o755)
    phone_browser = browser.browser_type.launch(
        executable_path=str(wrapper), headless=True, args=LAUNCH_ARGS
    )
    context, page = phone(phone_browser)
    troubles: list[str] = []
    page.on("requestfailed", lambda r: troubles.append(f"failed {r.url}: {r.failure}"))
    page.on("response", lambda r: r.status >= 400 and troubles.append(f"{r.status} {r.url}"))
    page.on("pageerror", lambda e: troubles.append(f"script error: {e}"))
    page.on("console", lambda m: m.type == "error" and troubles.append(f"console: {m.text}"))
    page.troubles = troubles
    yield page
    context.close()
    phone_browser.close()


def open_table(page, url: str) -> None:
    """Open the table's page and wait until it is ready. A try that meets the network's change
    (the link just set up, the Wi-Fi just back) is tried again, bounded; what each failed try
    met is shown if none succeeds."""
    deadline = time.monotonic() + STATE_TIMEOUT_MS / 1000
    while True:
        try:
            page.goto(url)
            page.wait_for_selector("#table-app[data-ready='1']", timeout=STATE_TIMEOUT_MS // 3)
            return
        except PlaywrightError as exc:
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"the table's page never became ready: {exc}; on the way: {page.troubles}"
                ) from None
            time.sleep(0.5)


def test_a_phone_on_the_halls_address_reloads_offline_and_loses_nothing(hall, phone_in_hall):
    table = phone_table()
    page = phone_in_hall
    url = f"{hall.url}/tisch/{table.entry_token}/"
    open_table(page, url)
    # the premise: a LAN address over http is no secure context, so no service worker
    assert page.evaluate("window.isSecureContext") is False
    assert page.evaluate("'serviceWorker' in navigator") is False
    page.locator("#seats button:last-child").tap()  # the seats later
    enter_game(page, 1)
    page.wait_for_function(ALL_SENT)

    hall.wifi(up=False)  # the Wi-Fi drops: two games are typed without it
    for n in (2, 3):
        enter_game(page, n)
    with explained(page, PHONE_STATE, "the offline status"):
        page.wait_for_function("document.getElementById('status').dataset.state === 'offline'")
    status = page.locator("#status").inner_text()
    assert "nicht neu laden" in status and "2" in status
    page.screenshot(path=str(artifact("hall-phone-offline-390.png")), full_page=True)

    # the player reloads anyway: the browser's own error page, nothing the server could send
    with pytest.raises(PlaywrightError):
        page.reload()
    page.wait_for_selector("#main-frame-error", state="attached")  # Chromium's own error page
    assert page.locator("#table-app").count() == 0
    # a picture of the error page for the record; Chromium may refuse it while it settles
    with contextlib.suppress(PlaywrightError):
        page.screenshot(path=str(artifact("hall-phone-reload-offline-390.png")))

    hall.wifi(up=True)  # back online: a reload brings everything back and sends it
    open_table(page, url)
    with explained(page, PHONE_STATE, "every game sent after the reload"):
        page.wait_for_function(ALL_SENT)
    sheet = ScoreSheet.objects.get(table=table)
    assert sheet.games.count() == 3 and sheet.version == 3
    assert AuditLog.objects.filter(action="sheet.table").count() == 3  # each exactly once
    assert page.locator("#games tr.pending").count() == 0
    assert page.locator('#game-card[data-game="4"]').count() == 1
