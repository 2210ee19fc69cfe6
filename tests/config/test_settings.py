"""Settings behave safely per environment.

Settings are evaluated once per process, so each case runs Django in a subprocess
with its own environment rather than patching the already-loaded settings.
"""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# Variables that would leak the outer environment into a case.
SETTINGS_VARS = [
    "DJANGO_ADMINS",
    "BOARDWALK_LOG_LEVEL",
    "DJANGO_LANGUAGE_COOKIE_SECURE",
    "DATABASE_URL",
    "DJANGO_DEBUG",
    "DJANGO_SECRET_KEY",
    "DJANGO_ALLOWED_HOSTS",
    "DJANGO_CSRF_TRUSTED_ORIGINS",
    "DJANGO_SECURE_SSL_REDIRECT",
    "DJANGO_SESSION_COOKIE_SECURE",
    "DJANGO_CSRF_COOKIE_SECURE",
    "DJANGO_SECURE_HSTS_SECONDS",
    "DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "DJANGO_SECURE_HSTS_PRELOAD",
    "DJANGO_SECURE_PROXY_SSL_HEADER",
    "DJANGO_CLIENT_IP_HEADER",
    "DJANGO_TRUSTED_PROXIES",
    "REDIS_URL",
    "DJANGO_STATIC_ROOT",
    "EMAIL_HOST",
    "EMAIL_PORT",
    "EMAIL_HOST_USER",
    "EMAIL_HOST_PASSWORD",
    "EMAIL_USE_TLS",
    "EMAIL_USE_SSL",
    "DEFAULT_FROM_EMAIL",
    # Set by the browser tests for Playwright; the deploy check rightly flags it.
    "DJANGO_ALLOW_ASYNC_UNSAFE",
]


def run_django(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    """Run `python <args>` in the repo with a clean settings environment plus `env`."""
    full_env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARS}
    full_env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    full_env.update(env)
    return subprocess.run(
        [sys.executable, *args],
        cwd=REPO,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=120,
    )


PRINT_SETTING = "import django; from django.conf import settings; django.setup(); print({})"


def production_env(**extra: str) -> dict[str, str]:
    return {
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_ALLOWED_HOSTS": "boardwalk.example.org",
        "EMAIL_HOST": "mail.example.org",
        # Never connected to by `check`: the shared cache production needs (boardwalk.W003).
        "REDIS_URL": "redis://127.0.0.1:6379/0",
        # An empty database: the demo-password check must not read a developer's db.sqlite3.
        "DATABASE_URL": "sqlite://:memory:",
        **extra,
    }


def test_deploy_check_is_clean_in_production_mode():
    result = run_django(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **production_env()
    )
    assert result.returncode == 0, result.stdout + result.stderr


# An HTTPS request through the whole middleware stack (the health page touches no
# database), printing the security headers the browser would get.
PRINT_HEADERS = (
    "import django; django.setup(); from django.test import Client; "
    "r = Client(HTTP_HOST='boardwalk.example.org').get('/health/', secure=True); "
    "print(r.status_code); print(r.headers.get('Strict-Transport-Security')); "
    "print(r.headers.get('Content-Security-Policy')); print(r.headers.get('X-Frame-Options'))"
)


def test_production_sends_hsts_csp_and_frame_denial():
    result = run_django(["-c", PRINT_HEADERS], **production_env())
    assert result.returncode == 0, result.stderr
    status, hsts, csp, frames = result.stdout.splitlines()
    assert status == "200"
    assert hsts == "max-age=31536000; includeSubDomains; preload"
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert frames == "DENY"


def test_development_sends_no_hsts_but_the_same_csp():
    """HSTS on a laptop would pin 127.0.0.1 to HTTPS in the developer's browser for a year."""
    result = run_django(["-c", PRINT_HEADERS], DJANGO_ALLOWED_HOSTS="boardwalk.example.org")
    assert result.returncode == 0, result.stderr
    status, hsts, csp, frames = result.stdout.splitlines()
    assert (status, hsts, frames) == ("200", "None", "DENY")
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp


def test_production_without_secret_key_refuses_to_start():
    result = run_django(
        ["-c", PRINT_SETTING.format("settings.DEBUG")],
        DJANGO_DEBUG="0",
        DJANGO_ALLOWED_HOSTS="boardwalk.example.org",
    )
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DJANGO_SECRET_KEY must be set" in result.stderr


def test_production_without_allowed_hosts_refuses_to_start():
    result = run_django(
        ["-c", PRINT_SETTING.format("settings.DEBUG")],
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
    )
    assert result.returncode != 0
    assert "DJANGO_ALLOWED_HOSTS must be set" in result.stderr


def test_development_defaults_need_no_environment():
    result = run_django(
        ["-c", PRINT_SETTING.format("settings.DEBUG, settings.ALLOWED_HOSTS, settings.DATABASES")]
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("True ['127.0.0.1', 'localhost', 'testserver']")
    assert "django.db.backends.sqlite3" in result.stdout
    assert "db.sqlite3" in result.stdout


def test_unrecognised_debug_value_is_an_error():
    result = run_django(["-c", PRINT_SETTING.format("settings.DEBUG")], DJANGO_DEBUG="maybe")
    assert result.returncode != 0
    assert "DJANGO_DEBUG='maybe' is not a yes/no value" in result.stderr


@pytest.mark.parametrize(
    "url", ["postgres://u@h:5432/db", "postgresql://u@h:5432/db"], ids=["postgres", "postgresql"]
)
def test_database_url_selects_postgresql(url):
    result = run_django(
        ["-c", PRINT_SETTING.format("settings.DATABASES['default']['ENGINE']")],
        DATABASE_URL=url,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "django.db.backends.postgresql"


# --- Email -----------------------------------------------------------


def test_production_without_a_mail_server_fails_the_deploy_check():
    env = production_env()
    del env["EMAIL_HOST"]
    result = run_django(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **env)
    assert result.returncode != 0
    assert "boardwalk.W001" in result.stderr + result.stdout
    assert "password reset emails cannot be sent" in result.stderr + result.stdout


# --- The shared cache ---------------------------------------------------------------------


def test_production_without_a_shared_cache_fails_the_deploy_check():
    """Without REDIS_URL one gunicorn of three workers served stale standings to 18 of 30
    requests after a change, and `check --deploy` passed."""
    env = production_env()
    del env["REDIS_URL"]
    result = run_django(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **env)
    output = result.stderr + result.stdout
    assert result.returncode != 0
    assert "boardwalk.W003" in output and "REDIS_URL" in output


def test_development_keeps_its_memory_cache_without_a_warning():
    result = run_django(["manage.py", "check", "--deploy"], DATABASE_URL="sqlite://:memory:")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "boardwalk.W003" not in result.stdout + result.stderr


def test_the_mail_server_comes_from_the_environment():
    setting = (
        "settings.EMAIL_BACKEND, settings.EMAIL_HOST, settings.EMAIL_PORT, "
        "settings.EMAIL_USE_TLS, settings.EMAIL_HOST_USER, settings.DEFAULT_FROM_EMAIL"
    )
    result = run_django(
        ["-c", PRINT_SETTING.format(setting)],
        **production_env(
            EMAIL_PORT="587",
            EMAIL_HOST_USER="boardwalk",
            EMAIL_HOST_PASSWORD="secret",
            DEFAULT_FROM_EMAIL="Boardwalk <noreply@example.org>",
        ),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.core.mail.backends.smtp.EmailBackend",
        "mail.example.org",
        "587",
        "True",
        "boardwalk",
        "Boardwalk",
        "<noreply@example.org>",
    ]


def test_development_prints_mail_to_the_console():
    result = run_django(["-c", PRINT_SETTING.format("settings.EMAIL_BACKEND")])
    assert result.stdout.strip() == "django.core.mail.backends.console.EmailBackend"


# --- Trusted proxies -------------------------------------------------


def test_a_client_ip_header_without_trusted_proxies_fails_the_deploy_check():
    env = production_env(DJANGO_CLIENT_IP_HEADER="HTTP_X_REAL_IP")
    result = run_django(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **env)
    assert result.returncode != 0 and "boardwalk.W002" in result.stderr + result.stdout
    env["DJANGO_TRUSTED_PROXIES"] = "127.0.0.1, 10.0.0.0/8"
    result = run_django(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **env)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_trusted_proxy_that_is_not_an_address_is_an_error():
    result = run_django(
        ["-c", PRINT_SETTING.format("settings.BOARDWALK_TRUSTED_PROXIES")],
        DJANGO_TRUSTED_PROXIES="127.0.0.1,nginx",
    )
    assert result.returncode != 0
    assert "DJANGO_TRUSTED_PROXIES: 'nginx' is not an address or network" in result.stderr


def test_outside_the_tests_passwords_get_the_slow_hasher():
    """tests/conftest.py puts MD5 first to save time; the site itself must not: a password
    hashed by a plain Django process is PBKDF2 at Django 5.2's 1,000,000 iterations."""
    result = run_django(
        [
            "-c",
            "import django; django.setup(); from django.contrib.auth.hashers import "
            "make_password; print(make_password('a long Boardwalk passphrase'))",
        ],
        **production_env(),
    )
    assert result.returncode == 0, result.stderr
    algorithm, iterations, _salt, _hash = result.stdout.strip().split("$")
    assert algorithm == "pbkdf2_sha256"
    assert int(iterations) >= 1_000_000


# --- Logging and the language cookie -------------------------------------------------------


def test_production_logs_errors_to_stderr_and_mails_the_admins():
    """A 500's traceback, logged as Django logs it, reaches the standard error stream and
    the admins' mail handler when a mail server and DJANGO_ADMINS are set."""
    code = (
        "import django, logging; django.setup(); from django.conf import settings;"
        "print([type(h).__name__ for h in logging.getLogger().handlers]);"
        "print(settings.ADMINS);"
        "logging.getLogger('django.request').error('Internal Server Error: /x/')"
    )
    result = run_django(["-c", code], **production_env(DJANGO_ADMINS="ops@example.org"))
    assert result.returncode == 0, result.stderr
    handlers, admins = result.stdout.splitlines()
    assert handlers == "['StreamHandler', 'AdminEmailHandler']"
    assert admins == "[('ops@example.org', 'ops@example.org')]"
    assert "ERROR django.request" in result.stderr and "Internal Server Error: /x/" in result.stderr


def test_without_a_mail_server_errors_still_reach_stderr():
    code = (
        "import django, logging; django.setup();"
        "print([type(h).__name__ for h in logging.getLogger().handlers]);"
        "logging.getLogger('boardwalk.test').warning('reset email refused')"
    )
    env = production_env(DJANGO_ADMINS="ops@example.org")
    env.pop("EMAIL_HOST")
    result = run_django(["-c", code], **env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['StreamHandler']"
    assert "WARNING boardwalk.test" in result.stderr and "reset email refused" in result.stderr


def test_the_language_cookie_is_secure_in_production_only():
    setting = "settings.LANGUAGE_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE"
    production = run_django(["-c", PRINT_SETTING.format(setting)], **production_env())
    assert production.stdout.split() == ["True", "True"]
    development = run_django(["-c", PRINT_SETTING.format(setting)])
    assert development.stdout.split() == ["False", "False"]
