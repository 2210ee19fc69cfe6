"""Real ``jobs_worker`` processes on the test database, for the tests of the real queue.

A worker is another process, so it must open the database the test writes to: PostgreSQL's
test database can be, SQLite's in-memory one cannot, and these tests skip on SQLite (CI runs
the whole suite on PostgreSQL too, .ci/run).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection
from django.test import override_settings

__all__ = ["Workers", "needs_postgresql", "wait_for", "workers"]

ROOT = Path(__file__).resolve().parents[2]
ON_POSTGRESQL = "postgresql" in settings.DATABASES["default"]["ENGINE"]
SKIP_REASON = (
    "skipped on SQLite: a worker process cannot open the in-memory test database; "
    "these run on PostgreSQL (DATABASE_URL=postgres://..., as .ci/run does)"
)
needs_postgresql = pytest.mark.skipif(not ON_POSTGRESQL, reason=SKIP_REASON)
HEARTBEAT, LEASE = 0.2, 2.0
DEADLINE = 90.0  # seconds a worker may take for a small round on a busy 2-core machine


def wait_for(condition: Callable[[], object], *, what: str, timeout: float = DEADLINE):
    """Poll until ``condition()`` is true; a worker is another process, so there is no event
    to wait on."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for {what}")


def _database_url() -> str:
    db = connection.settings_dict
    auth = quote(db["USER"] or "")
    if db["PASSWORD"]:
        auth += ":" + quote(db["PASSWORD"])
    host = db["HOST"] or "127.0.0.1"
    return f"postgres://{auth}@{host}:{db['PORT'] or 5432}/{db['NAME']}"


@dataclass
class Workers:
    folder: Path
    processes: list[subprocess.Popen] = field(default_factory=list)

    @property
    def files(self) -> Path:
        return self.folder / "files"

    @property
    def gate(self) -> Path:
        return self.folder / "gate"

    def stored(self) -> list[Path]:
        """Every file in the jobs storage, hidden partial ones included."""
        return sorted(p for p in self.files.rglob("*") if p.is_file())

    def start(self, *, gated: bool = False, fail: str = "") -> subprocess.Popen:
        env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings",
            DATABASE_URL=_database_url(),
            BOARDWALK_FILES_DIR=str(self.files),
            BOARDWALK_JOB_HEARTBEAT_SECONDS=str(HEARTBEAT),
            BOARDWALK_JOB_LEASE_SECONDS=str(LEASE),
            JOBS_GATE=str(self.gate),
            JOBS_GATE_FAIL=fail,
        )
        program = ["-m", "tests.jobs.gated_worker"] if gated else ["manage.py", "jobs_worker"]
        number = len(self.processes)
        log = (self.folder / f"worker-{number}.log").open("w")
        process = subprocess.Popen(
            [sys.executable, *program, "--no-reload", "--interval", "0.1", "--no-startup-delay"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.processes.append(process)
        return process

    def kill(self, process: subprocess.Popen) -> None:
        """SIGKILL: no handler runs, nothing is cleaned up, as when the machine's OOM
        killer or a power cut stops a worker."""
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)

    def log(self) -> str:
        return "\n".join(p.read_text() for p in sorted(self.folder.glob("worker-*.log")))

    def stop_all(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.kill(process)


@pytest.fixture
def workers(tmp_path, transactional_db):
    """Start workers with ``workers.start()``; all are stopped at the end. The test's own
    process uses the same queue, storage folder and lease."""
    if not ON_POSTGRESQL:
        pytest.skip(SKIP_REASON)
    pool = Workers(folder=tmp_path)
    pool.gate.mkdir()
    files = {"BACKEND": "jobs.storage.AtomicFileSystemStorage", "OPTIONS": {"location": pool.files}}
    with override_settings(
        TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}},
        STORAGES={**settings.STORAGES, "jobs": files},
        BOARDWALK_JOB_HEARTBEAT_SECONDS=HEARTBEAT,
        BOARDWALK_JOB_LEASE_SECONDS=LEASE,
    ):
        try:
            yield pool
        finally:
            pool.stop_all()
