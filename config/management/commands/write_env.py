"""`boardwalk write_env PATH`: production's environment file, with a fresh secret key.

Every value is quoted by ``config.envfile``, so the file reads the same through systemd's
``EnvironmentFile=`` and a shell's ``set -a; . PATH; set +a``. The file is created readable
by its owner only (it holds the secret key and passwords), and an existing one is never
replaced without ``--force``: a new secret key signs everyone out, and every device the
sign-in throttle knew counts as a stranger again.
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import dj_database_url
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.management.utils import get_random_secret_key

from config.envfile import env_file_text


def _assignment(text: str) -> tuple[str, str]:
    name, equals, value = text.partition("=")
    if not equals:
        raise CommandError(f"--set {text!r}: write NAME=VALUE")
    return name.strip(), value


class Command(BaseCommand):
    help = (
        "Write production's environment file: DJANGO_DEBUG=0, a fresh secret key, the hosts, "
        "the database, the shared cache (Redis), the proxy, the static and printout folders, "
        "each value quoted so that systemd (EnvironmentFile=) and a shell (set -a; . PATH) "
        "read it alike."
    )
    # It runs before there is a database or a production configuration to check.
    requires_system_checks = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the file to write, e.g. /srv/boardwalk/env")
        parser.add_argument(
            "--host",
            action="append",
            required=True,
            dest="hosts",
            help="a name the site answers to (repeat for more); the first is the address "
            "players reach, https://HOST",
        )
        parser.add_argument(
            "--database-url",
            required=True,
            help="postgres://USER:PASSWORD@HOST:5432/NAME (a password with @ : / # ? or %% "
            "must be percent-encoded)",
        )
        parser.add_argument(
            "--redis-url",
            default="redis://127.0.0.1:6379/0",
            help="the cache every process shares (default %(default)s)",
        )
        parser.add_argument(
            "--proxy",
            default="127.0.0.1",
            help="the reverse proxy's address as gunicorn sees it (default %(default)s); "
            "its X-Real-IP header names the visitor for the throttles. '' for none.",
        )
        parser.add_argument(
            "--static-root", help="collectstatic's folder (default: static/ beside PATH)"
        )
        parser.add_argument(
            "--files-dir", help="finished printouts' folder (default: files/ beside PATH)"
        )
        parser.add_argument(
            "--set",
            action="append",
            default=[],
            dest="extra",
            metavar="NAME=VALUE",
            help="any other variable, e.g. EMAIL_HOST=smtp.example.org (repeat for more); "
            "also replaces one of the above",
        )
        parser.add_argument("--force", action="store_true", help="replace an existing file")

    def handle(self, *args, **options) -> None:
        path = Path(options["path"]).absolute()
        values = self._values(path, options)
        comments = [
            f"Boardwalk's environment, written by `boardwalk write_env` on "
            f"{datetime.date.today():%Y-%m-%d}.",
            "Read by systemd (EnvironmentFile=) and by a shell (set -a; . FILE; set +a).",
            "Every value is in single quotes, which both read literally; keep them when editing.",
        ]
        try:
            text = env_file_text(values, comments=comments)
        except ValueError as error:
            raise CommandError(str(error)) from None
        self._write(path, text, force=options["force"])
        self.stdout.write(
            self.style.SUCCESS(f"Wrote {path} (readable by its owner only), with a new secret key.")
        )
        self.stdout.write(f"A shell reads it with: set -a; . {path}; set +a")
        self.stdout.write(f"systemd with: EnvironmentFile={path}")

    def _values(self, path: Path, options: dict) -> dict[str, str]:
        hosts = [host.strip() for host in options["hosts"] if host.strip()]
        if not hosts:
            raise CommandError("--host: give the name the site answers to")
        try:
            dj_database_url.parse(options["database_url"])
        except Exception as error:
            raise CommandError(f"--database-url: {error}") from None
        values = {
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": get_random_secret_key(),
            "DJANGO_ALLOWED_HOSTS": ",".join(hosts),
            "DJANGO_CSRF_TRUSTED_ORIGINS": ",".join(f"https://{host}" for host in hosts),
            "BOARDWALK_SITE_URL": f"https://{hosts[0]}",
            "DATABASE_URL": options["database_url"],
            "REDIS_URL": options["redis_url"],
            "DJANGO_STATIC_ROOT": options["static_root"] or str(path.parent / "static"),
            "BOARDWALK_FILES_DIR": options["files_dir"] or str(path.parent / "files"),
        }
        if options["proxy"]:
            values["DJANGO_CLIENT_IP_HEADER"] = "HTTP_X_REAL_IP"
            values["DJANGO_TRUSTED_PROXIES"] = options["proxy"]
        values.update(_assignment(text) for text in options["extra"])
        return values

    def _write(self, path: Path, text: str, *, force: bool) -> None:
        if path.exists() and not force:
            raise CommandError(
                f"{path} exists; its secret key signs everyone's sessions. "
                "Edit it, or replace it with --force (everyone signs in again)."
            )
        # Written whole under a temporary name and renamed: never a half file, and never
        # readable by anyone else, not even for a moment.
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(temporary, path)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
