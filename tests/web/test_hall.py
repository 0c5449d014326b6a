"""The hall server command: refuses demo passwords (asks for the organiser's own instead),
allows the machine's addresses, and really serves the desk with gunicorn, DEBUG off, static
files included."""

from __future__ import annotations

import os
from io import StringIO

import pytest
import requests
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from binokel_tournament.management.commands import hall
from binokel_tournament.models import Mode
from binokel_tournament.services.demo import create_demo
from tests import hall_server

# slow: gunicorn and other processes (make check leaves it out)
pytestmark = [pytest.mark.slow, pytest.mark.django_db]


@pytest.fixture
def restore_settings(settings):
    """The command sets these on the live settings; put them back afterwards."""
    for name in ("DEBUG", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "PUBLIC_BASE_URL"):
        setattr(settings, name, getattr(settings, name))
    return settings


def run_hall(*args: str) -> str:
    out = StringIO()
    call_command("hall", "--check", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_the_hall_refuses_demo_passwords_without_a_terminal(restore_settings):
    create_demo(singles=12, pairs=2, scored_rounds=0)
    with pytest.raises(CommandError, match="Demo-Passwort"):
        run_hall("--noinput")
    assert get_user_model().objects.get(username="orga").check_password("binokel")


def test_a_password_file_gives_the_organiser_a_password_and_locks_the_rest(
    restore_settings, tmp_path
):
    create_demo(singles=12, pairs=2, scored_rounds=0)
    secret = tmp_path / "pw"
    secret.write_text("Saal-Abend-2026\n")
    run_hall("--noinput", "--password-file", str(secret))
    users = get_user_model().objects
    assert users.get(username="orga").check_password("Saal-Abend-2026")
    assert not users.get(username="kasse").has_usable_password()
    assert hall.accounts_with_demo_password() == []
    secret.write_text("binokel\n")  # the demo password itself is never accepted
    orga = users.get(username="orga")
    orga.set_password("binokel")
    orga.save()
    with pytest.raises(CommandError, match="Demo-Passwort"):
        run_hall("--noinput", "--password-file", str(secret))


def test_in_a_terminal_the_hall_asks_for_new_passwords(restore_settings, monkeypatch):
    create_demo(singles=12, pairs=2, scored_rounds=0)
    answers = iter(["zu kurz", "zu kurz", "Saal-Abend-2026", "Saal-Abend-2026"] * 2)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    run_hall()
    for name in ("orga", "kasse"):
        assert get_user_model().objects.get(username=name).check_password("Saal-Abend-2026")


def test_the_addresses_for_the_phones_are_printed_and_allowed(restore_settings, monkeypatch):
    monkeypatch.setattr(hall, "lan_addresses", lambda: ["192.168.1.20"])
    out = run_hall("--port", "8123")
    assert "http://192.168.1.20:8123/" in out and "errors.log" in out
    settings = restore_settings
    assert not settings.DEBUG
    assert "192.168.1.20" in settings.ALLOWED_HOSTS
    assert "http://192.168.1.20:8123" in settings.CSRF_TRUSTED_ORIGINS
    assert settings.PUBLIC_BASE_URL == "http://192.168.1.20:8123"


def test_a_laptop_gets_a_few_threaded_workers_and_a_hosted_server_more_processes():
    assert 2 <= hall.default_workers("sqlite") <= 5 and hall.default_threads("sqlite") == 4
    cores = os.cpu_count() or 2
    assert hall.default_workers("postgresql") == max(3, min(2 * cores + 1, 17))
    assert hall.default_threads("postgresql") == 2


def test_gunicorn_serves_the_desk_and_its_static_files_with_debug_off():
    with hall_server.data_folder() as folder:
        env = hall_server.server_env(hall_server.sqlite_database(folder), folder, DEBUG="1")
        hall_server.manage(env, "migrate", "--noinput", "-v0")
        import sqlite3

        with sqlite3.connect(folder / "hall.sqlite3") as db:  # WAL: pages read while a desk writes
            assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        with hall_server.running(env, workers=2) as server:
            css = requests.get(server.url + "/static/binokel/desk.css", timeout=10)
            assert css.status_code == 200 and "text/css" in css.headers["Content-Type"]
            htmx = requests.get(server.url + "/static/binokel/htmx.min.js", timeout=10)
            assert htmx.status_code == 200 and len(htmx.content) > 10_000
            home = requests.get(server.url + "/", timeout=10)
            assert home.status_code == 200 and "/static/binokel/desk.css" in home.text
            missing = requests.get(server.url + "/gibt-es-nicht/", timeout=10)
            assert missing.status_code == 404 and "Nicht gefunden" in missing.text
            assert "Traceback" not in missing.text and "URLconf" not in missing.text  # no DEBUG
            desk = requests.get(server.url + "/desk/", timeout=10, allow_redirects=False)
            assert desk.status_code == 302 and "/anmelden/" in desk.headers["Location"]
            stranger = requests.get(server.url + "/", headers={"Host": "evil.example"}, timeout=10)
            assert stranger.status_code == 400


def test_sqlite_waits_for_the_write_lock_instead_of_failing(settings):
    options = settings.DATABASES["default"].get("OPTIONS", {})
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
        pytest.skip("the PostgreSQL pass")
    assert options["transaction_mode"] == "IMMEDIATE"
    assert options["timeout"] >= 10 and "journal_mode=WAL" in options["init_command"]


def test_the_warm_up_works_out_the_pair_tables_melds_only_where_pairs_play():
    """The hall's master works out what the first saves would wait for; the pair tables'
    meld totals (the costly part) only for tournaments with a pairs competition."""
    from binokel_tournament.models import _rule_set
    from binokel_tournament.services.evening.registration import create_tournament
    from binokel_tournament.services.server.warmup import warm_up

    singles = create_tournament("Nur Einzel", modes=[Mode.SINGLES], rounds=2)
    mixed = create_tournament("Mit Paaren", modes=[Mode.SINGLES, Mode.PAIRS], rounds=4)
    _rule_set.cache_clear()  # fresh rule sets, nothing remembered yet
    warm_up()
    assert "achievable_pair_totals" not in singles.rules().memo
    assert "achievable_pair_totals" in mixed.rules().memo
    assert singles.rules().memo and mixed.rules().memo  # the three-table totals of both


def test_the_database_file_is_readable_by_this_account_only(tmp_path):
    """Password hashes and sessions: the SQLite file (and its -wal/-shm) is 0600, whether new
    or left 0644 by an earlier version."""
    import os
    import stat
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["DATA_DIR"] = str(tmp_path)
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], env=env, check=True, timeout=300)
    database = tmp_path / "binokel.sqlite3"
    for path in tmp_path.glob("binokel.sqlite3*"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    database.chmod(0o644)  # as an older version left it
    subprocess.run([*manage, "check", "-v0"], env=env, check=True, timeout=300)
    assert stat.S_IMODE(database.stat().st_mode) == 0o600
