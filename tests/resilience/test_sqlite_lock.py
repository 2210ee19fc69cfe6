"""Another process holds SQLite's write lock for 10 s in the middle of a round: nothing is
lost, nobody stops.

Boardwalk runs as `make run` runs it, on a migrated SQLite file: Django's runserver and
a real ``jobs_worker`` process, building the score sheets of the round just published. The
worker runs with a 1-s lock timeout (BOARDWALK_SQLITE_TIMEOUT), so it surely meets the lock
and must wait it out; the server keeps the default (20 s), longer than the lock. Then a
third process takes the write lock (``BEGIN IMMEDIATE``) and holds it for 10 s, twice
Django's old default timeout. Meanwhile:

* the head judge starts a wave's clock and a judge logs in: both are answered once the lock
  is gone, with the clock running and the judge signed in (or, had they waited past the
  timeout, "Not saved: try again", and the second try goes through);
* a public page answers while the lock is still held (WAL: readers never wait);
* the worker is still running afterwards, says so in its heartbeat, and finishes the
  sheets it was building.
"""

from __future__ import annotations

import datetime
import json
import socket
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.resilience.http_tablet import ROOT, Server, Tablet, server_env
from tests.resilience.sqlite_lock import Locker

# Migrated and seeded in one process: each Python start costs seconds on a busy machine.
SEED = (
    "import django, json; django.setup(); "
    "from django.core.management import call_command; "
    "call_command('migrate', interactive=False, verbosity=0); "
    "from tests.resilience.resilience_setup import seed_restart_event; "
    "from tournament.models import Round; "
    "from seating.services import round_publish; "
    "setup = seed_restart_event(); "
    "round_publish(round_=Round.objects.get(event_id=setup['event'], number=1)); "
    "print(json.dumps(setup))"
)
LOCK_SECONDS = 10
# The worker: a 1-s lock timeout, so it meets the lock; a heartbeat every second, so the
# test sees it beat again soon after.
WORKER_ENV = {"BOARDWALK_SQLITE_TIMEOUT": "1", "BOARDWALK_JOB_HEARTBEAT_SECONDS": "1"}
# A new Python process sets Django up before its first step: slow on a busy 2-core machine.
DEADLINE = 90.0


class MakeRunServer(Server):
    """The server as `make run` starts it: Django's threaded runserver, one thread a request.
    (Behind gunicorn's sync workers a page would wait for a free worker while every worker
    waits for the lock; README "PostgreSQL, gunicorn and a reverse proxy" gives it threads.)"""

    def command(self) -> list[str]:
        return [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{self.port}"]


def os_free_port() -> int:
    """A port the system says is free: not one of http_tablet's fixed range, which the
    restart test, running beside this one in another test process, may be about to take."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(condition, *, what: str, timeout: float = DEADLINE):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    pytest.fail(f"timed out waiting for {what}")


def read(path, sql: str):
    """One value, read straight from the file as any other process would (WAL: a reader
    does not wait for the lock)."""
    with sqlite3.connect(path, timeout=30) as db:
        return db.execute(sql).fetchone()[0]


def last_heartbeat(path) -> datetime.datetime | None:
    seen = read(path, "SELECT max(seen_at) FROM jobs_worker")
    return datetime.datetime.fromisoformat(seen).replace(tzinfo=datetime.UTC) if seen else None


@pytest.fixture
def hall(tmp_path):
    """A migrated database file with a round just published, its server and its worker."""
    path = tmp_path / "hall.sqlite3"
    env = server_env(f"sqlite:///{path}")
    seeded = subprocess.run(
        [sys.executable, "-c", SEED],
        cwd=ROOT,
        env={**env, "PYTHONPATH": str(ROOT)},
        check=True,
        capture_output=True,
        text=True,
    )
    setup = json.loads(seeded.stdout.strip().splitlines()[-1])
    server = MakeRunServer(
        database_url=f"sqlite:///{path}", port=os_free_port(), log=tmp_path / "server.log"
    )
    worker_log = tmp_path / "worker.log"
    worker = None
    try:
        with worker_log.open("wb") as out:
            worker = subprocess.Popen(
                [
                    *(sys.executable, "manage.py", "jobs_worker", "--no-reload"),
                    *("--interval", "0.2", "--no-startup-delay"),
                ],
                cwd=ROOT,
                env={**env, **WORKER_ENV, "BOARDWALK_FILES_DIR": str(tmp_path)},
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        server.start()
        yield setup, path, server, worker, worker_log
    finally:
        server.kill()
        if worker is not None and worker.poll() is None:
            worker.terminate()
            worker.wait(timeout=30)


def answered(answer, *, retry):
    """A write's answer: done, or "Not saved: try again" and then done on the second try."""
    if answer.status == 503:
        assert "Not saved: try again" in answer.body
        answer = retry()
    return answer


def test_a_ten_second_lock_loses_nothing_and_stops_nobody(hall):
    setup, path, server, worker, worker_log = hall
    event, wave = setup["event"], setup["waves"][0]
    clock_page = f"/organizer/events/{event}/clock/"
    start_url = f"/organizer/events/{event}/waves/{wave}/clock/start/"
    wait_for(lambda: last_heartbeat(path), what="the worker's first heartbeat")

    judge, newcomer = Tablet(server.base), Tablet(server.base)
    assert "/accounts/login/" not in judge.login(*setup["head_judge"]).url
    judge.get(clock_page)
    newcomer.get("/accounts/login/")
    credentials = dict(zip(("username", "password"), setup["head_judge"], strict=True))

    locker = Locker(path)
    locked_at = time.monotonic()
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            start = pool.submit(judge.post_form, start_url, {})
            login = pool.submit(newcomer.post_form, "/accounts/login/", credentials)
            public = Tablet(server.base).get(f"/events/{event}/")
            assert public.status == 200, public.body[:500]
            assert locker.holding  # answered while the lock was held
            time.sleep(max(0.0, LOCK_SECONDS - (time.monotonic() - locked_at)))
            # Neither write can be saved while the lock is held, nor has either given up.
            assert locker.holding and not start.done() and not login.done()
            locker.release()
            released = datetime.datetime.now(datetime.UTC)
            started = start.result(timeout=DEADLINE)
            signed_in = login.result(timeout=DEADLINE)
    finally:
        locker.kill()

    started = answered(started, retry=lambda: judge.post_form(start_url, {}))
    assert started.status == 200 and started.url.split("#")[0].endswith(clock_page)
    state = Tablet(server.base).get(
        f"/events/{event}/waves/{wave}/clock/state/", accept="application/json"
    )
    assert state.json()["status"] == "running"
    signed_in = answered(
        signed_in, retry=lambda: newcomer.post_form("/accounts/login/", credentials)
    )
    assert signed_in.status == 200 and "/accounts/login/" not in signed_in.url

    # The worker met the lock (its timeout is 1 s), waited it out, and is still running:
    # it beats again and finishes the round's score sheets.
    assert worker.poll() is None, worker_log.read_text()
    wait_for(
        lambda: (last_heartbeat(path) or released) > released,
        what="a heartbeat after the lock\n" + worker_log.read_text(),
    )
    assert "the database is busy or out of reach" in worker_log.read_text()
    wait_for(
        lambda: read(path, "SELECT count(*) FROM jobs_job WHERE status = 'done'") >= 1,
        what="the round's score sheets\n" + worker_log.read_text(),
    )
    assert worker.poll() is None, worker_log.read_text()
