"""Settings from the environment with typed helpers and safe defaults for local use.

- ``DATA_DIR``: the data folder (default ``db/`` in the checkout): the SQLite file, the secret
  key, the error log (``logs/errors.log``) and the automatic backups (``backups/``).
- ``DATABASE_URL``: e.g. ``postgres://postgres@127.0.0.1:5432/binokel``; default an SQLite file
  ``binokel.sqlite3`` in the data folder (WAL mode, immediate write transactions, a busy
  timeout: several desks saving at once wait for each other instead of failing).
- ``SECRET_KEY``, ``DEBUG``, ``ALLOWED_HOSTS``, ``CSRF_TRUSTED_ORIGINS`` (comma separated).
- ``TRUSTED_PROXIES``: the reverse proxies in front (comma separated addresses or networks).
- ``CONN_MAX_AGE``: seconds a database connection is kept between requests (default 0; the hall
  server, ``manage.py hall``, keeps them 600 s unless this is set).
- ``BACKUP_DIR`` (default ``DATA_DIR/backups``, e.g. a USB stick), ``BACKUP_KEEP`` (how many
  automatic backups per tournament are kept, default 50).
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from binokel_tournament.private_files import private_dir, private_file

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


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value.isascii() and value.isdigit() else default


def local_secret_key(path: Path) -> str:
    """A random key kept beside the SQLite file, made on first start: never a key that is
    the same on every machine, and no setting an organiser has to know about."""
    if not path.exists():
        private_dir(path.parent)
        private_file(path)
        path.write_text(secrets.token_urlsafe(50), encoding="utf-8")
    return path.read_text(encoding="utf-8").strip()


DATA_DIR = Path(env_str("DATA_DIR", str(BASE_DIR / "db"))).resolve()
# readable by this account only (0700), like everything in it: the database, the key, the log,
# the backups (binokel_tournament/private_files.py)
private_dir(DATA_DIR)

# Off unless asked for: the public pages may be opened from phones in the hall.
DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY") or local_secret_key(DATA_DIR / "secret_key")
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
    "axes",
    "binokel_tournament",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "binokel_tournament.middleware.DeskLocaleMiddleware",
    "binokel_tournament.middleware.RejectNullCharactersMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "binokel_tournament.middleware.VereinScopeMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # last, as django-axes asks: locked-out logins get its page
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # first: refuses a locked-out username (on this device) before the password is checked
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
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
                "binokel_tournament.views.cached.kept_page_csrf",
                "binokel_tournament.views.vereine.desk_vereine",
            ],
        },
    },
]

WSGI_APPLICATION = "binokel_tournament.wsgi.application"

_default_sqlite = DATA_DIR / "binokel.sqlite3"
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{_default_sqlite}"),
        conn_max_age=env_int("CONN_MAX_AGE", 0),  # the hall server keeps them (manage.py hall)
    )
}
# SQLite holds several desks: WAL lets pages read while a sheet is written; every write
# transaction starts IMMEDIATE (takes the write lock up front, so two saves queue instead of
# one failing with "database is locked" when it upgrades a read lock); a waiting save gives
# up only after SQLITE_BUSY_TIMEOUT seconds. synchronous=FULL: a commit is on disk before the
# desk sees "gespeichert", so a killed server or a power cut loses nothing acknowledged.
SQLITE_BUSY_TIMEOUT = env_int("SQLITE_BUSY_TIMEOUT", 20)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several desks on one laptop: write-ahead log (readers never wait for a writer), write
    # transactions that take the lock when they begin (no deadlocked upgrade), and a busy
    # timeout, so concurrent saves wait their turn instead of failing.
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    # password hashes and sessions: readable by this account only; SQLite gives its -wal and
    # -shm files the database file's permissions
    private_file(Path(DATABASES["default"]["NAME"]))
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": SQLITE_BUSY_TIMEOUT,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL",
        }
    )
    # Tests use a file too (not shared-cache memory, which fails at once with "table is locked"
    # when the live server's threads write concurrently instead of waiting); one per test
    # process, so two test runs side by side never share it.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"binokel-test-{os.getpid()}.sqlite3")
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

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

# Login throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one username from
# one device, that username is locked on that device for AXES_COOLOFF_TIME; the organiser (desk
# page "Mitglieder") or the admin unlocks it earlier. Locking username and device together means
# a prankster's phone in the hall cannot lock the organiser out of the desk laptop.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked.html"
AXES_VERBOSE = False
# Behind a reverse proxy: the proxies' addresses or networks (TRUSTED_PROXIES=127.0.0.1 for an
# nginx on the same machine). A request from one of them is counted for the address in its
# X-Forwarded-For; X-Forwarded-For from anyone else is ignored. Every flood limit (the online
# registration, the tables' links, the logins) and the logs use this one address.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", [])
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError as _error:
        raise ImproperlyConfigured(
            f"TRUSTED_PROXIES: {_proxy!r} is no IP address or network (e.g. 127.0.0.1, 10.0.0.0/8)"
        ) from _error
AXES_CLIENT_IP_CALLABLE = "binokel_tournament.services.server.client_address.login_address"

# Errors: a rotating file in the data folder with the request and the traceback.
# The cache the server's worker processes share (the tables' rate limit counts, the public
# pages): a folder in the data folder, no extra service on the laptop; Redis when CACHE_URL or
# REDIS_URL names one (redis://127.0.0.1:6379/0, a bigger hall or several servers).
CACHE_URL = os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL") or ""
CACHES: dict[str, dict[str, object]]
CACHE_TIMEOUT = env_int("CACHE_TIMEOUT", 1)  # seconds: connecting to Redis, and each answer
if CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "binokel"),
            # the cache is a helper: a Redis that does not answer costs a request at most this
            # long before the page is made without it (services/server/cache_guard.py)
            "OPTIONS": {
                "socket_connect_timeout": CACHE_TIMEOUT,
                "socket_timeout": CACHE_TIMEOUT,
            },
        }
    }
elif CACHE_URL:
    raise ImproperlyConfigured(f"CACHE_URL/REDIS_URL: only redis:// is known, not {CACHE_URL!r}")
else:
    CACHES = {
        "default": {
            # diskcache's Django backend: SQLite files in the data folder that every worker
            # process shares; it evicts a few entries per write when full. Django's own file
            # cache lists its whole folder on every write once it holds MAX_ENTRIES (a hall of
            # players' pages: a quarter of the server's time went into that listing). Its SQLite
            # connections stay open across requests (services/server/laptop_cache.py).
            "BACKEND": "binokel_tournament.services.server.laptop_cache.LaptopCache",
            "LOCATION": str(DATA_DIR / "cache"),
            "TIMEOUT": 300,
            "SHARDS": 4,
            "DATABASE_TIMEOUT": 0.25,  # seconds a write waits for another process's write
            "OPTIONS": {"size_limit": 256 * 2**20},
        }
    }
# How long a public page may be kept at most (each change makes new ones anyway).
PUBLIC_CACHE_SECONDS = env_int("PUBLIC_CACHE_SECONDS", 600)
# In a flood of confirmed sheets (ten desks, a sheet every other second), the results pages
# (standings, beamer, the players' places, the cups) are made anew at most this often; after
# a quiet spell a confirmation shows at once (services/server/public_cache.py).
PUBLIC_RESULTS_SECONDS = env_int("PUBLIC_RESULTS_SECONDS", 5)
# Requests per table link and window, and requests with unknown links per device (guessing).
TABLE_LINK_LIMIT = env_int("TABLE_LINK_LIMIT", 600)
TABLE_LINK_WINDOW = env_int("TABLE_LINK_WINDOW", 600)
TABLE_GUESS_LIMIT = env_int("TABLE_GUESS_LIMIT", 30)
TABLE_GUESS_WINDOW = 60
# How often an idle table phone asks whether the desk or another phone changed something (a
# short "unchanged" answer while nothing did).
TABLE_POLL_SECONDS = env_int("TABLE_POLL_SECONDS", 8)

LOG_DIR = private_dir(DATA_DIR / "logs")
ERROR_LOG_FILE = LOG_DIR / "errors.log"
LOGGING: dict[str, object] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "request": {"()": "binokel_tournament.logs.RequestFormatter"},
        "short": {"format": "%(asctime)s %(levelname)s %(message)s"},
    },
    "handlers": {
        "error_file": {
            # a RotatingFileHandler whose files are 0600 (what the desk typed is in them)
            "class": "binokel_tournament.logs.PrivateRotatingFileHandler",
            "filename": str(ERROR_LOG_FILE),
            "maxBytes": 2_000_000,
            "backupCount": 5,
            "encoding": "utf-8",
            "delay": True,
            "level": "ERROR",
            "formatter": "request",
        },
        "error_console": {"class": "logging.StreamHandler", "level": "ERROR", "formatter": "short"},
    },
    "loggers": {
        "django.request": {"handlers": ["error_file", "error_console"], "level": "ERROR"},
        "binokel": {"handlers": ["error_file", "error_console"], "level": "ERROR"},
    },
}

# Automatic backups after every confirmed sheet and every seating change (services.backup).
BACKUP_DIR = Path(env_str("BACKUP_DIR", str(DATA_DIR / "backups"))).resolve()
BACKUP_KEEP = env_int("BACKUP_KEEP", 50)
BACKUP_AUTO = env_bool("BACKUP_AUTO", True)
BACKUP_MIN_INTERVAL = env_int("BACKUP_MIN_INTERVAL", 5)  # seconds between two of a tournament
BACKUP_THIN_MINUTES = env_int("BACKUP_THIN_MINUTES", 10)  # older than the newest KEEP: one per
BACKUP_RETRY_SECONDS = env_int("BACKUP_RETRY_SECONDS", 30)  # a failed backup is tried again
BACKUP_STATUS_DIR = DATA_DIR / "backup-status"  # the last attempt's outcome, for the desk
BACKUP_IN_BACKGROUND = True  # the tests write them in the saving thread instead

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5.html"
PUBLIC_BASE_URL = env_str("PUBLIC_BASE_URL", "http://127.0.0.1:8000")

# E-mail (the online registration's confirmation): off unless set up. ``EMAIL_URL`` such as
# smtp://user:password@mail.example.org:587/?tls=1 (or smtps://… for SSL on 465), or Django's
# own EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS/_SSL;
# DEFAULT_FROM_EMAIL is the sender.
EMAIL_URL = os.environ.get("EMAIL_URL", "").strip()
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
if EMAIL_URL:
    from urllib.parse import parse_qs, unquote, urlsplit

    _mail = urlsplit(EMAIL_URL)
    if _mail.scheme not in ("smtp", "smtps"):
        raise ImproperlyConfigured(f"EMAIL_URL: smtp:// or smtps://, not {_mail.scheme!r}")
    _query = parse_qs(_mail.query)
    EMAIL_HOST = _mail.hostname or ""
    EMAIL_USE_SSL = _mail.scheme == "smtps"
    EMAIL_USE_TLS = not EMAIL_USE_SSL and _query.get("tls", ["0"])[0] in ("1", "true", "yes")
    EMAIL_PORT = _mail.port or (465 if EMAIL_USE_SSL else 25)
    EMAIL_HOST_USER = unquote(_mail.username or "")
    EMAIL_HOST_PASSWORD = unquote(_mail.password or "")
EMAIL_ENABLED = bool(EMAIL_HOST)
EMAIL_TIMEOUT = 10  # seconds: a mail server that does not answer never holds a registration
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "binokel@localhost")
