"""The hall server as the organiser starts it (``manage.py hall``), for tests and benchmarks:
a real gunicorn on loopback in its own process group, a database of its own, and a small HTTP
desk client (logs in, opens a sheet, saves it) that counts what the server acknowledged."""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

REPO = Path(__file__).resolve().parents[1]


def _ports(text: str) -> range:
    """``HALL_PORTS=8640-8659``: the ports this checkout may bind (loopback only)."""
    first, _dash, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


PORTS = _ports(os.environ.get("HALL_PORTS", "8100-8199"))
PASSWORD = "Saal-Abend-2026"
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
VERSION = re.compile(r'name="version" value="(\d+)"')


def entries_digest(entries: dict[str, str]) -> str:
    """As ``manage.py verify`` prints a sheet's stored entries."""
    return hashlib.sha256(json.dumps(entries, sort_keys=True).encode()).hexdigest()[:16]


def own_ports() -> range:
    """The ports of this test process: under pytest-xdist each worker (gw0, gw1, ...) takes
    its own slice of PORTS, so that two workers never pick the same free port at once."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1)
    if not worker.startswith("gw") or count <= 1:
        return PORTS
    return PORTS[int(worker[2:]) % count :: count]


def free_port() -> int:
    for port in own_ports():
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {PORTS.start}-{PORTS.stop - 1}")


def manage(env: dict[str, str], *args: str, timeout: float = 300, check: bool = True) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if done.returncode and check:
        raise RuntimeError(f"manage.py {' '.join(args)}: {done.stderr[-2000:]}")
    return done.stdout


def round_one_variants(env: dict[str, str], count: int) -> tuple[str, dict[int, list[dict]]]:
    """The served tournament's slug and, for each three-table of round 1, ``count`` simulated
    sheets a desk may type (asked of the server's own database through ``manage.py shell``)."""
    script = (
        "import json,random;from binokel_tournament.models import Table;"
        "from binokel_tournament.services.evening.simulation import simulated_entries;"
        "from binokel_tournament.services.sheets.results import load_table;"
        "t=[load_table(x.pk) for x in Table.objects.filter(round__number=1,kind='three')];"
        "r=t[0].round.tournament.rules();"
        "print(json.dumps({'slug':t[0].round.tournament.slug,'tables':{x.pk:"
        f"[simulated_entries(x,random.Random(s),r) for s in range({count})] for x in t}}}}))"
    )
    sheets = json.loads(manage(env, "shell", "-c", script).splitlines()[-1])
    return sheets["slug"], {int(k): v for k, v in sheets["tables"].items()}


def server_env(database_url: str, data_dir: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_"))}
    env.update(
        DATABASE_URL=database_url,
        DATA_DIR=str(data_dir),
        DJANGO_SETTINGS_MODULE="binokel_tournament.settings",
        PYTHONUNBUFFERED="1",
        **extra,
    )
    return env


def sqlite_database(data_dir: Path) -> str:
    return f"sqlite:///{data_dir / 'hall.sqlite3'}"


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def kill(self) -> None:
        """Pull the plug: SIGKILL to the master and every worker at once."""
        with suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=30)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            self.kill()


def start(
    env: dict[str, str],
    port: int,
    workers: int | None = None,
    timeout: float = 60,
    threads: int | None = None,
) -> Server:
    log = Path(env["DATA_DIR"]) / f"hall-{port}.log"
    args = [sys.executable, "manage.py", "hall", "--host", "127.0.0.1", "--port", str(port)]
    args += ["--noinput", *(["--workers", str(workers)] if workers else [])]
    args += ["--threads", str(threads)] if threads else []
    with open(log, "ab") as out:
        process = subprocess.Popen(
            args, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    server = Server(f"http://127.0.0.1:{port}", process, log)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"hall server exited: {log.read_text()[-2000:]}")
        try:
            if requests.get(server.url + "/static/binokel/desk.css", timeout=2).ok:
                return server
        except requests.RequestException:
            pass
        time.sleep(0.05)
    server.kill()
    raise RuntimeError(f"hall server did not answer within {timeout} s: {log.read_text()[-2000:]}")


def server_cpu_seconds(server: Server) -> float:
    """The CPU time (user + system) the hall server's processes have used so far: gunicorn's
    master, its workers and the backup writer (one process group; Linux /proc; 0 elsewhere).
    A database server's own processes are not in it."""
    total = 0
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == server.process.pid:  # the process group (start_new_session)
            total += int(fields[11]) + int(fields[12])
    return total / tick


@contextmanager
def running(
    env: dict[str, str], workers: int | None = None, threads: int | None = None
) -> Iterator[Server]:
    server = start(env, free_port(), workers, threads=threads)
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def data_folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="binokel-hall-") as folder:
        yield Path(folder)


class Desk:
    """One desk laptop: a logged-in browser session that opens and saves score sheets."""

    def __init__(
        self, base: str, username: str, password: str = PASSWORD, *, connect_retries: int = 3
    ) -> None:
        self.base = base
        self.http = requests.Session()
        # a page may be fetched again when a kept-alive connection was closed meanwhile (as
        # browsers do; the server closes idle ones after its keep-alive time); a save (POST)
        # never is: that is the caller's decision. ``connect_retries=0``: a refused connection
        # (the server is gone) fails at once instead of after the back-off (1.4 s).
        retry = Retry(
            total=3,
            connect=connect_retries,
            read=2,
            allowed_methods={"GET"},
            backoff_factor=0.2,
        )
        self.http.mount("http://", HTTPAdapter(max_retries=retry))
        page = self.http.get(f"{base}/anmelden/", timeout=30)
        token = CSRF.search(page.text)
        assert token, page.text[:500]
        reply = self.http.post(
            f"{base}/anmelden/",
            {"username": username, "password": password, "csrfmiddlewaretoken": token[1]},
            headers={"Referer": f"{base}/anmelden/"},
            allow_redirects=False,
            timeout=30,
        )
        if reply.status_code != 302:
            said = re.findall(r'class="[^"]*error[^"]*"[^>]*>([^<]+)<', reply.text)
            raise RuntimeError(f"login of {username} failed: {reply.status_code} {said}")

    def open_sheet(self, path: str) -> tuple[int, str]:
        """The sheet's stored version and a CSRF token, as the page shows them."""
        page = self.http.get(self.base + path, timeout=30)
        page.raise_for_status()
        version, token = VERSION.search(page.text), CSRF.search(page.text)
        assert version and token
        return int(version[1]), token[1]

    def save(
        self, path: str, entries: dict[str, str], version: int, token: str, confirm: bool
    ) -> requests.Response:
        data = {**entries, "version": str(version), "csrfmiddlewaretoken": token}
        data["confirm" if confirm else "draft"] = "1"
        return self.http.post(
            self.base + path,
            data,
            headers={"Referer": self.base + path},
            allow_redirects=False,
            timeout=60,
        )
