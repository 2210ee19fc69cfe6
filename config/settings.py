"""Django settings for Boardwalk.

Everything that differs between a newcomer's laptop and a production server is read
from environment variables, so the same file serves both:

* With no environment at all, Boardwalk runs in DEBUG mode on SQLite with a fixed,
  insecure development key, so `make run` just works.
* With ``DJANGO_DEBUG=0`` the settings refuse to start without a real secret key and
  an explicit host list, and switch on every protection that
  ``manage.py check --deploy`` asks for.

Environment variables:

``DJANGO_DEBUG``                "1" (default) or "0"/"false".
``DJANGO_SECRET_KEY``           Required when DEBUG is off.
``DJANGO_ALLOWED_HOSTS``        Comma-separated; required when DEBUG is off.
``DJANGO_CSRF_TRUSTED_ORIGINS`` Comma-separated origins, e.g. https://boardwalk.example.org.
``DATABASE_URL``                e.g. postgres://user@host:5432/boardwalk; default SQLite.
``BOARDWALK_SQLITE_TIMEOUT``    On SQLite, how many seconds a write waits for another
                                one to finish before "Not saved: try again" (20).
``DJANGO_TIME_ZONE``            Default "UTC".
``DJANGO_SECURE_SSL_REDIRECT``, ``DJANGO_SESSION_COOKIE_SECURE``,
``DJANGO_CSRF_COOKIE_SECURE``, ``DJANGO_SECURE_HSTS_SECONDS``,
``DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS``, ``DJANGO_SECURE_HSTS_PRELOAD``,
``DJANGO_SECURE_PROXY_SSL_HEADER``
                                Override the production security defaults, e.g. to
                                turn off the HTTPS redirect when TLS ends elsewhere.
``DJANGO_CLIENT_IP_HEADER``     The proxy's client-address header for the throttles,
                                e.g. HTTP_X_REAL_IP; default REMOTE_ADDR.
``DJANGO_TRUSTED_PROXIES``      Comma-separated addresses or networks of the proxies whose
                                DJANGO_CLIENT_IP_HEADER is believed, e.g. 127.0.0.1.
``REDIS_URL``                   The shared cache, e.g. redis://127.0.0.1:6379/0.
``EMAIL_HOST``, ``EMAIL_PORT``, ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``,
``EMAIL_USE_TLS``, ``EMAIL_USE_SSL``, ``DEFAULT_FROM_EMAIL``
                                Outgoing mail, Django's own names: password resets, and
                                players' registration confirmations and Finals invitations
                                (sent by the background workers; README "Email to players").
                                Without EMAIL_HOST no email reaches a player, and the
                                organizer's pages say so.
``BOARDWALK_SITE_URL``          The address players reach, e.g. https://boardwalk.example.org:
                                QR codes of table cards and the poster point there (default:
                                the address the organizer uses), and so do the links in
                                emails (no email is sent without it, except under DEBUG).
``DJANGO_STATIC_ROOT``          Where collectstatic gathers the static files for the proxy
                                (default staticfiles/ beside config/).
``BOARDWALK_FILES_DIR``         Where finished printouts are kept (default var/files/).
``BOARDWALK_S3_BUCKET``         Keep them in this S3-compatible bucket instead (django-storages;
                                README), with ``BOARDWALK_S3_ENDPOINT_URL`` and
                                ``BOARDWALK_S3_REGION`` if not AWS's defaults.
``BOARDWALK_JOB_HEARTBEAT_SECONDS``, ``BOARDWALK_JOB_LEASE_SECONDS``
                                How often a running job and each worker say they are alive
                                (5), and after how long without a word a job is run again
                                (30; 300 on SQLite).
``BOARDWALK_LIVE_POLL_SECONDS`` How often the public pages and the bracket planner ask the
                                server for news (15; mostly answered "not modified").
``DJANGO_ADMINS``               Comma-separated addresses mailed every server error (a 500's
                                traceback, a failed password-reset email) when EMAIL_HOST
                                is set; errors always go to the standard error stream.
``BOARDWALK_LOG_LEVEL``         The least serious message logged (default WARNING).
``DJANGO_LANGUAGE_COOKIE_SECURE`` Override the language cookie's Secure flag (production: on).
"""

import ipaddress
import os
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_bool(name: str, default: bool) -> bool:
    """Read a yes/no variable; a typo must fail loudly rather than silently pick a side."""
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not a yes/no value; use one of {sorted(_TRUE | _FALSE)}."
    )


def env_list(name: str) -> list[str]:
    """Read a comma-separated variable, ignoring blanks and surrounding spaces."""
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


# --- Core -------------------------------------------------------------------------

# On by default so a newcomer's first `make run` shows helpful error pages.
DEBUG = env_bool("DJANGO_DEBUG", default=True)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off. `boardwalk write_env` "
            "(manage.py write_env) writes an environment file with a fresh key, quoted so "
            "that both systemd and a shell read it whole (README, Production)."
        )
    # Development only: a public key protects nothing, which is fine on a laptop.
    SECRET_KEY = "django-insecure-boardwalk-development-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS")
if not ALLOWED_HOSTS:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_ALLOWED_HOSTS must be set when DJANGO_DEBUG is off, "
            "e.g. DJANGO_ALLOWED_HOSTS=boardwalk.example.org"
        )
    ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]

CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    # Boardwalk's own system checks (config/checks.py).
    "config.apps.BoardwalkConfig",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    # Background jobs: Django's tasks framework (the backport until Django 6) and its
    # database queue, then the jobs' own records (jobs/).
    "django_tasks",
    "django_tasks_db",
    "jobs",
    # Emails to players (confirmations, Finals invitations), sent by the workers (mail/).
    "mail",
    "tournament",
    "accounts",
    "players",
    "seating",
    "knockout",
    "clock",
    "scoring",
    # A season of regionals qualifying into the Finals (series/).
    "series",
    "banker",
    "cockpit",
    "printouts",
    "spectator",
    # Last: it plays a whole day through every app above (load_demo, simulate_event).
    "demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Our own (config/security.py): Django 5.2 sets no Content-Security-Policy.
    "config.security.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions (it may read the chosen language) and before CommonMiddleware.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After authentication: an official's saved language wins over the browser's.
    "accounts.languages.OfficialLanguageMiddleware",
    # Sets the cookie that lets a device that logged in before past the login throttle.
    "accounts.signin.KnownDeviceMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, so it is asked first about a view's error: a busy or unreachable database
    # answers "Not saved: try again" (503) with what was typed, not a server error.
    "config.not_saved.NotSavedMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------------

# PostgreSQL in production (psycopg 3 is picked automatically when installed);
# a local SQLite file needs no setup for a first look.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=60,
        conn_health_checks=True,
    )
}

# SQLite (the `make run` default) shares one file between the server, its threads and the
# background worker, and lets one of them write at a time. So that a head judge's Start
# waits its turn instead of failing while the worker writes a printout's progress:
# * WAL: readers never wait for a writer, nor a writer for readers (a worker reading a
#   whole round to lay out its PDF holds up nobody); synchronous=NORMAL is WAL's usual pair
#   (a power cut may lose the last moments, never corrupts the file).
# * "timeout": a write waits this long for the lock before giving up (Django's 5 s was
#   shorter than a big import's transaction); BOARDWALK_SQLITE_TIMEOUT changes it.
# * "transaction_mode": IMMEDIATE: a transaction takes the write lock when it begins, so it
#   waits (up to the timeout) there; one that began as a reader and then wrote would be
#   refused at once, whatever the timeout.
# A write that still cannot be saved answers "Not saved: try again" (config/not_saved.py).
_SQLITE = DATABASES["default"]["ENGINE"].endswith("sqlite3")
if _SQLITE:
    DATABASES["default"]["OPTIONS"] = {
        **DATABASES["default"].get("OPTIONS", {}),
        "timeout": float(os.environ.get("BOARDWALK_SQLITE_TIMEOUT") or "20"),
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Authentication ---------------------------------------------------------------

# Django's ModelBackend behind the login throttle, so every way to sign in (the login page,
# the admin's, any authenticate() with a request) shares one count (accounts/signin.py).
AUTHENTICATION_BACKENDS = ["accounts.signin.ThrottledModelBackend"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Internationalization ---------------------------------------------------------

# Tournaments are run by volunteers in many countries (the Championship Rules speak of
# "same-language games" and national tournaments); every visible string is translatable and each
# language below has its catalog in locale/ (README "Adding a language"; tests/test_catalogs.py
# keeps them complete). Who sees which language: an official's saved choice (their profile, applied
# by accounts.languages.OfficialLanguageMiddleware), else the set_language cookie, else
# the browser's Accept-Language (LocaleMiddleware); an event's PDFs and hall display use
# the event's own language.
USE_I18N = True
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("en-gb", _("British English")),
    ("fr", _("French")),
    ("de", _("German")),
    ("es", _("Spanish")),
    ("hi", _("Hindi")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates, times and numbers follow the active language (Django's locale formats), with our
# few corrections in config/formats/<lang>/formats.py: times without "p.m." (whose own
# full stop doubled at the end of a sentence), and the Indian digit grouping for Hindi.
FORMAT_MODULE_PATH = ["config.formats"]
USE_THOUSAND_SEPARATOR = False
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600

TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "UTC")
USE_TZ = True

# --- Static files and fixtures ----------------------------------------------------

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# An installed copy lives in site-packages: production names a folder of its own for nginx.
STATIC_ROOT = os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles"

FIXTURE_DIRS = [BASE_DIR / "fixtures"]

# --- Background jobs and their files ------------------------------------------------

# Django's tasks framework with its database queue: no other server, and workers on any
# machine share the database's queue (`manage.py jobs_worker`, README "Background jobs").
TASKS: dict[str, dict[str, Any]] = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend",
        "QUEUES": ["default"],
    }
}
BOARDWALK_JOB_HEARTBEAT_SECONDS = float(os.environ.get("BOARDWALK_JOB_HEARTBEAT_SECONDS") or "5")
# SQLite lets one connection write at a time: while a big import registers everyone in one
# transaction, no heartbeat can be written, so on SQLite (development) a job is taken for
# lost only after 5 minutes.
BOARDWALK_JOB_LEASE_SECONDS = float(
    os.environ.get("BOARDWALK_JOB_LEASE_SECONDS") or ("300" if _SQLITE else "30")
)
if BOARDWALK_JOB_LEASE_SECONDS <= 2 * BOARDWALK_JOB_HEARTBEAT_SECONDS:
    raise ImproperlyConfigured(
        "BOARDWALK_JOB_LEASE_SECONDS must be more than twice BOARDWALK_JOB_HEARTBEAT_SECONDS, "
        "or a busy worker's job would be taken for lost and run twice."
    )
BOARDWALK_LIVE_POLL_SECONDS = int(os.environ.get("BOARDWALK_LIVE_POLL_SECONDS") or "15")
# A round's score sheets (and table cards, when BOARDWALK_SITE_URL is known) are built as
# soon as the round is published, so they are usually ready before anyone asks.
BOARDWALK_PREBUILD_PRINTOUTS = True
# The address players reach, for the QR codes; unset, the address the organizer uses.
BOARDWALK_SITE_URL = os.environ.get("BOARDWALK_SITE_URL", "").rstrip("/")

# Finished printouts are read back by whichever application server answers the download:
# one folder on one machine, an S3-compatible bucket for several (django-storages).
if os.environ.get("BOARDWALK_S3_BUCKET"):
    _JOB_FILES = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": os.environ["BOARDWALK_S3_BUCKET"],
            "endpoint_url": os.environ.get("BOARDWALK_S3_ENDPOINT_URL") or None,
            "region_name": os.environ.get("BOARDWALK_S3_REGION") or None,
            "location": "boardwalk",
            "default_acl": "private",
            "file_overwrite": False,
        },
    }
else:
    _JOB_FILES = {
        "BACKEND": "jobs.storage.AtomicFileSystemStorage",
        "OPTIONS": {
            # Never served as media: the download view checks who asks.
            "location": os.environ.get("BOARDWALK_FILES_DIR") or BASE_DIR / "var" / "files",
        },
    }
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    "jobs": _JOB_FILES,
}

# --- Security ---------------------------------------------------------------------

# Production defaults satisfy `manage.py check --deploy --fail-level WARNING`; each
# can be overridden, e.g. when a proxy in front of Boardwalk terminates TLS.
_PRODUCTION = not DEBUG

SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", default=_PRODUCTION)
# A load balancer's health check talks plain HTTP to the application server; a redirect
# would read as "unhealthy". /health/ tells nothing but "ok".
SECURE_REDIRECT_EXEMPT = [r"^health/$"]
SESSION_COOKIE_SECURE = env_bool("DJANGO_SESSION_COOKIE_SECURE", default=_PRODUCTION)
CSRF_COOKIE_SECURE = env_bool("DJANGO_CSRF_COOKIE_SECURE", default=_PRODUCTION)
# The language chosen on a phone travels only over HTTPS, like the other cookies.
LANGUAGE_COOKIE_SECURE = env_bool("DJANGO_LANGUAGE_COOKIE_SECURE", default=_PRODUCTION)
SECURE_HSTS_SECONDS = int(
    os.environ.get("DJANGO_SECURE_HSTS_SECONDS", "31536000" if _PRODUCTION else "0")
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool(
    "DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=_PRODUCTION
)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", default=_PRODUCTION)
# Trust X-Forwarded-Proto from the reverse proxy; only safe when a proxy that sets
# (or strips) that header always sits in front, so it can be switched off.
if env_bool("DJANGO_SECURE_PROXY_SSL_HEADER", default=_PRODUCTION):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy: config.security.DEFAULT_POLICY (scripts and styles from our
# static files only) unless CONTENT_SECURITY_POLICY is set here. Development and
# production share it, so a violation shows up on a laptop first.

# The request header a trusted reverse proxy sets to the visitor's address, read by the
# login, banker-link, password-reset and registration throttles (accounts/throttle.py),
# e.g. DJANGO_CLIENT_IP_HEADER=HTTP_X_REAL_IP. It is believed only on requests whose
# REMOTE_ADDR is one of DJANGO_TRUSTED_PROXIES (addresses or networks, e.g. 127.0.0.1 or
# 10.0.0.0/8): anyone else could send the header themselves and never be throttled.
BOARDWALK_CLIENT_IP_HEADER = os.environ.get("DJANGO_CLIENT_IP_HEADER", "")
BOARDWALK_TRUSTED_PROXIES = env_list("DJANGO_TRUSTED_PROXIES")
for _proxy in BOARDWALK_TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError as _error:
        raise ImproperlyConfigured(
            f"DJANGO_TRUSTED_PROXIES: {_proxy!r} is not an address or network ({_error})."
        ) from None

# --- Email --------------------------------------------------------------------------------

# Password resets, and the players' confirmations and Finals invitations (mail/, sent by the
# background workers with retries). Production reads the SMTP server from the environment
# (Django's own setting names); without EMAIL_HOST, `check --deploy` warns
# (config/checks.py), because every reset would fail unseen, and no email to a player is
# even queued (the organizer's pages say so). Development prints password resets to the
# console instead.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=EMAIL_PORT == 587)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", default=EMAIL_PORT == 465)
    EMAIL_TIMEOUT = 10
elif DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "boardwalk@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- Logging ----------------------------------------------------------------------------

# Every warning and error (a 500's traceback, a reset email the mail server refused, a
# worker waiting out the database) goes to the standard error stream, where systemd's
# journal keeps gunicorn's and the workers' (`journalctl -u 'boardwalk*'`; README,
# "Logs"). With a mail server and DJANGO_ADMINS, each server error is also mailed to them.
# Django's default would log nothing at all in production without ADMINS.
ADMINS = [(address, address) for address in env_list("DJANGO_ADMINS")]
_LOG_HANDLERS = ["stderr"] + (["mail_admins"] if EMAIL_HOST and ADMINS else [])
_LOG_LEVEL = os.environ.get("BOARDWALK_LOG_LEVEL", "WARNING").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"require_debug_false": {"()": "django.utils.log.RequireDebugFalse"}},
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name} [{process:d}] {message}", "style": "{"}
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "plain",
            "level": _LOG_LEVEL,
        },
        "mail_admins": {
            "level": "ERROR",
            "filters": ["require_debug_false"],
            "class": "django.utils.log.AdminEmailHandler",
        },
    },
    "root": {"handlers": _LOG_HANDLERS, "level": _LOG_LEVEL},
    # Django's own loggers reach the handlers above through the root; its default console
    # handler (DEBUG only) and mail handler (only with ADMINS) would print or mail twice.
    "loggers": {"django": {"handlers": [], "level": _LOG_LEVEL, "propagate": True}},
}

# --- Sign-in and caches ------------------------------------------------------------

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournament:signed_in"
LOGOUT_REDIRECT_URL = "tournament:home"

# The throttles (registration, login, banker links) count in the cache. One process
# needs nothing more; several processes behind a load balancer should share Redis:
# REDIS_URL=redis://127.0.0.1:6379/0. The cache is only a cache: while Redis is
# unreachable the pages are built without it and the throttles count per process
# (config/cache.py); the short timeouts keep a dead Redis host from stalling requests.
if os.environ.get("REDIS_URL"):
    CACHES = {
        "default": {
            "BACKEND": "config.cache.ResilientRedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1.0},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
