"""The machine `make deploy-check` deploys on: its folder, its processes, its commands.

A ``Deployment`` is one run's /srv/boardwalk: the source, the virtual environment, the
environment file, the logs, and the processes started (each in its own process group,
stopped by its own id). Every Boardwalk command goes through ``sh -c 'set -a; . env; set +a;
exec ...'``, the README's way of reading the environment file.
"""

from __future__ import annotations

import contextlib
import getpass
import os
import secrets
import signal
import socket
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
HOST = "boardwalk.example.org"  # the README's name; every request names it
ROLE = "bw_deploy"
DATABASE, RESTORED = "bw_deploy", "bw_deploy_restored"
# Every package of the source but the tests: an app added later is checked as installed.
APPS = tuple(sorted(p.parent.name for p in ROOT.glob("*/__init__.py") if p.parent.name != "tests"))
DATA = ("templates/", "static/", "locale/", "fixtures/", "gameplay/editions/")
# A shell that reads the environment file as the README does, then runs the command.
WITH_ENV = 'set -a; . "$0"; set +a; exec "$@"'


class CheckError(RuntimeError):
    """A step of the recipe failed; the message says which and why."""


def ports(name: str, default: str) -> list[int]:
    return [int(port) for port in os.environ.get(name, default).split(",") if port.strip()]


class Deployment:
    """One run: its folder (the README's /srv/boardwalk), processes and names."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.src, self.venv, self.env = work / "src", work / ".venv", work / "env"
        self.logs = work / "logs"
        self.logs.mkdir()
        self.admin = os.environ.get(
            "DEPLOY_CHECK_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres"
        )
        self.redis = os.environ.get("DEPLOY_CHECK_REDIS_URL", "redis://127.0.0.1:6379/13")
        self.app_ports = ports("DEPLOY_CHECK_PORTS", "8110,8111")
        self.https_port, self.http_port = ports("DEPLOY_CHECK_NGINX_PORTS", "8130,8129")
        self.password = secrets.token_urlsafe(24)  # URL- and SQL-safe, as the README's
        self.admin_password = secrets.token_urlsafe(24)
        self.processes: dict[str, subprocess.Popen] = {}
        admin = urlsplit(self.admin)
        self.db_host, self.db_port = admin.hostname or "127.0.0.1", admin.port or 5432
        self.pg_env = {
            **os.environ,
            "PGHOST": self.db_host,
            "PGPORT": str(self.db_port),
            "PGUSER": admin.username or "postgres",
            "PGDATABASE": admin.path.lstrip("/") or "postgres",
        }
        if admin.password:
            self.pg_env["PGPASSWORD"] = admin.password

    def database_url(self, name: str) -> str:
        return f"postgres://{ROLE}:{self.password}@{self.db_host}:{self.db_port}/{name}"

    # --- running things ---------------------------------------------------------------

    def clean_env(self, **extra: str) -> dict[str, str]:
        """A login shell's environment: nothing of Boardwalk's but what the file sets."""
        skip = ("DJANGO_", "BOARDWALK_", "DATABASE_URL", "REDIS_URL", "VIRTUAL_ENV", "PYTHON")
        env = {k: v for k, v in os.environ.items() if not k.startswith(skip)}
        return {**env, **extra}

    def boardwalk(self, *args: str, **env: str) -> str:
        """`boardwalk ARGS` through the README's wrapper (deploy/boardwalk, from the source
        as installed): the environment file read by a shell, in the deployment's folder, as
        the user running the check. ``env`` is what the wrapper inherits."""
        wrapper = self.src / "deploy" / "boardwalk"
        home = {"BOARDWALK_HOME": str(self.work), "BOARDWALK_USER": getpass.getuser()}
        return run([str(wrapper), *args], env=self.clean_env(**home, **env))

    def boardwalk_on(self, database_url: str, *args: str) -> str:
        """`boardwalk ARGS` with the environment file's settings but another database."""
        command = ["sh", "-c", WITH_ENV, str(self.env), "env", f"DATABASE_URL={database_url}"]
        command.append(str(self.venv / "bin" / "boardwalk"))
        return run([*command, *args], cwd=self.work, env=self.clean_env())

    def start(self, name: str, program: str, *args: str, **env: str) -> None:
        """A program of the virtual environment, with the environment file read first."""
        command = ["sh", "-c", WITH_ENV, str(self.env), str(self.venv / "bin" / program), *args]
        self.start_program(name, command, **env)

    def start_program(self, name: str, command: list[str], **env: str) -> None:
        log = (self.logs / f"{name}.log").open("ab")
        self.processes[name] = subprocess.Popen(
            command,
            cwd=self.work,
            env=self.clean_env(**env),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def stop_all(self) -> None:
        for name, process in reversed(list(self.processes.items())):
            started = time.monotonic()
            stop(process)
            print(f"   stopped {name} (pid {process.pid}) in {time.monotonic() - started:.1f} s")
        self.processes.clear()

    def logs_tail(self) -> str:
        parts = []
        for log in sorted(self.logs.glob("*.log")):
            text = log.read_text(errors="replace").strip()
            if text:
                parts.append(f"--- {log.name} (last lines)\n" + "\n".join(text.splitlines()[-25:]))
        return "\n".join(parts)


def run(command: list[str], **kwargs) -> str:
    result = subprocess.run(command, capture_output=True, text=True, timeout=600, **kwargs)
    if result.returncode != 0:
        shown = " ".join(command[4:] if command[:2] == ["sh", "-c"] else command)
        raise CheckError(f"`{shown}` failed ({result.returncode}):\n{result.stdout}{result.stderr}")
    return result.stdout


def stop(process: subprocess.Popen) -> None:
    """Gracefully (gunicorn finishes its requests), then the process group it leads."""
    if process.poll() is None:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=20)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


def port_free(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) != 0


def wait_listening(deploy: Deployment, name: str, port: int, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if deploy.processes[name].poll() is not None:
            raise CheckError(f"{name} exited:\n{deploy.logs_tail()}")
        if not port_free(port):
            return
        time.sleep(0.2)
    raise CheckError(f"{name} did not listen on {port} within {timeout_s:.0f} s")


@contextlib.contextmanager
def step(title: str):
    started = time.monotonic()
    print(f"==> {title}", flush=True)
    yield
    print(f"    done in {time.monotonic() - started:.1f} s", flush=True)
