"""Settings from the environment with typed helpers and safe defaults for local use.

- ``DATABASE_URL``: e.g. ``postgres://postgres@127.0.0.1:5432/binokel``; default an SQLite file
  ``db/binokel.sqlite3`` in the repo.
- ``SECRET_KEY``, ``DEBUG``, ``ALLOWED_HOSTS`` (comma separated).
"""

from __future__ import annotations

import os
import secrets
import tempfile
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def local_secret_key(path: Path) -> str:
    """A random key kept beside the SQLite file, made on first start: never a key that is
    the same on every machine, and no setting an organiser has to know about."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(50), encoding="utf-8")
        path.chmod(0o600)
    return path.read_text(encoding="utf-8").strip()


# Off unless asked for: the public pages may be opened from phones in the hall.
DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY") or local_secret_key(BASE_DIR / "db" / "secret_key")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "django_htmx",
    "binokel_tournament",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "binokel_tournament.middleware.DeskLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "binokel_tournament.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "binokel_tournament.wsgi.application"

_default_sqlite = BASE_DIR / "db" / "binokel.sqlite3"
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{_default_sqlite}"), conn_max_age=0
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several desks on one laptop: write-ahead log (readers never wait for a writer), write
    # transactions that take the lock when they begin (no deadlocked upgrade), and a busy
    # timeout, so concurrent saves wait their turn instead of failing.
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        timeout=20,
        transaction_mode="IMMEDIATE",
        init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    )
    # Tests use a file too (not shared-cache memory, which fails at once with "table is locked"
    # when the live server's threads write concurrently instead of waiting); one per test
    # process, so two test runs side by side never share it.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"binokel-test-{os.getpid()}.sqlite3")
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS: list[dict[str, str]] = []

LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("Deutsch")), ("en", _("Englisch"))]
LOCALE_PATHS = [BASE_DIR / "binokel_tournament" / "locale"]
TIME_ZONE = "Europe/Berlin"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# The desk runs from a checkout: WhiteNoise serves the vendored files straight from the
# finders; set STATIC_ROOT (and run collectstatic) for a deployment behind a web server.
STATIC_ROOT = os.environ.get("STATIC_ROOT") or None
WHITENOISE_USE_FINDERS = True
STATICFILES_DIRS = [BASE_DIR / "static"]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "desk:home"
LOGOUT_REDIRECT_URL = "public:home"

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5.html"
PUBLIC_BASE_URL = env_str("PUBLIC_BASE_URL", "http://127.0.0.1:8000")
