"""Run a background worker: django-tasks-db's ``db_worker``, which also recovers lost jobs,
outlives a busy or unreachable database, and says it is alive.

``db_worker`` leaves the task of a worker killed mid-run RUNNING for ever. Every worker
started with this command first enqueues again the jobs whose heartbeat has stopped, then
keeps doing so while it runs, so a job lost with its worker runs again on another worker
(or on this one after a restart) without anyone watching its page.

``db_worker`` also stops at the first error of the database it cannot take for a lock it
may wait on: SQLite's lock held past the timeout when taking the next task, a PostgreSQL
restart. This one logs it, waits (longer each time, up to half a minute) and goes on.

And it writes its heartbeat (``jobs.models.Worker``) every 5 s from its own
thread, for as long as its loop runs: the printouts page and the cockpit say when no
worker has been seen for a minute. The options are ``db_worker``'s own
(``manage.py jobs_worker --help``).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time

from django.conf import settings
from django.db import DatabaseError, connections
from django.utils import timezone
from django_tasks_db.management.commands import db_worker
from django_tasks_db.management.commands.db_worker import Command as DbWorkerCommand

from jobs.database import FIRST_WAIT, LONGEST_WAIT, database_unavailable, patiently
from jobs.services import jobs_recover, worker_beat, workers_forget

logger = logging.getLogger("jobs")


class Command(DbWorkerCommand):
    help = (
        "Run a database background worker that also queues again the jobs of lost workers, "
        "waits out a busy or unreachable database, and leaves a heartbeat."
    )

    def handle(self, *args, **options) -> None:
        _sweep()
        done = threading.Event()  # the sweeps end with the worker (--batch, --max-tasks)
        sweeper = threading.Thread(
            target=_sweep_until, args=(done,), name="jobs-recover", daemon=True
        )
        sweeper.start()
        # db_worker's handle() builds its Worker by this module-level name: ours stands in
        # for it while it runs (a class replaced in its module, which mypy refuses to type).
        original, db_worker.Worker = db_worker.Worker, PatientWorker  # type: ignore[misc]
        try:
            super().handle(*args, **options)
        finally:
            db_worker.Worker = original  # type: ignore[misc]
            done.set()
            sweeper.join(timeout=30)


class PatientWorker(db_worker.Worker):
    """db_worker's loop, started again after a busy or unreachable database, with a
    heartbeat thread that beats while the loop lives."""

    def run(self) -> None:
        heart = _Heartbeat(name=self.worker_id, loop=threading.current_thread())
        heart.start()
        wait, failed_at = FIRST_WAIT, 0.0
        try:
            while self.running:
                try:
                    super().run()
                    return  # --batch or --max-tasks: done
                except DatabaseError as error:
                    if not database_unavailable(error):
                        raise
                    now = time.monotonic()
                    if now - failed_at > 2 * LONGEST_WAIT:
                        wait = FIRST_WAIT  # a new spell, not the same one going on
                    failed_at = now
                    logger.warning(
                        "Worker %s: the database is busy or out of reach (%s); "
                        "trying again in %.1f s.",
                        self.worker_id,
                        error,
                        wait,
                    )
                    _close_connections()
                    time.sleep(wait)
                    wait = min(wait * 2, LONGEST_WAIT)
                    self.startup_delay = False
        finally:
            heart.stop()

    def run_task(self, db_task_result) -> None:
        # The task's own "successful" and "failed" writes wait out a lock too: given up,
        # they would leave the task RUNNING for ever.
        for name in ("set_successful", "set_failed"):
            write = getattr(db_task_result, name)
            setattr(db_task_result, name, _patient(write, f"Task {db_task_result.pk}: {name}"))
        super().run_task(db_task_result)


def _patient(write, what: str):
    def patient_write(*args, **kwargs):
        return patiently(lambda: write(*args, **kwargs), what=what)

    return patient_write


def _close_connections() -> None:
    try:
        connections.close_all()
    except DatabaseError:
        pass


class _Heartbeat:
    """Writes this worker's row every BOARDWALK_JOB_HEARTBEAT_SECONDS (5) on its own
    connection, as long as the worker's loop (``loop``) is alive: a loop that died of a bug
    must not look alive. The pages wait a minute without a beat before they worry."""

    def __init__(self, *, name: str, loop: threading.Thread) -> None:
        self.name = name
        self.loop = loop
        self.started_at = timezone.now()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="jobs-heartbeat", daemon=True)

    def start(self) -> None:
        """Drop old workers' rows and write the first beat before the loop takes a task, so
        a worker is seen from its start (a --batch run may be over before a second beat)."""
        try:
            workers_forget()
            self._beat(patient=True)
        except DatabaseError:
            logger.warning("Worker %s: first heartbeat not written", self.name, exc_info=True)
        finally:
            connections.close_all()  # this thread's: the loop opens its own
        self._thread.start()

    def _beat(self, *, patient: bool = False) -> None:
        """One beat; the first waits out a lock (for up to a beat's interval), later ones
        need not: a beat missed is written again at the next."""

        def write() -> None:
            worker_beat(
                name=self.name,
                host=socket.gethostname(),
                pid=os.getpid(),
                started_at=self.started_at,
            )

        if patient:
            patiently(
                write,
                what=f"Worker {self.name}: heartbeat",
                give_up_after=settings.BOARDWALK_JOB_HEARTBEAT_SECONDS,
            )
        else:
            write()

    def stop(self) -> None:
        """Stop beating, and wait for a write under way (its connection is then closed)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=30)

    def _run(self) -> None:
        try:
            while not self._stop.wait(settings.BOARDWALK_JOB_HEARTBEAT_SECONDS):
                if not self.loop.is_alive():
                    break
                try:
                    self._beat()
                except DatabaseError as error:
                    logger.warning("Worker %s: heartbeat not written (%s)", self.name, error)
                    _close_connections()
        finally:
            connections.close_all()


def _sweep() -> None:
    try:
        count = jobs_recover()
    except DatabaseError:
        logger.warning("Could not look for lost jobs", exc_info=True)
        return
    finally:
        connections.close_all()
    if count:
        logger.warning("Queued again %s job(s) whose worker was lost.", count)


def _sweep_until(done: threading.Event) -> None:
    while not done.wait(settings.BOARDWALK_JOB_LEASE_SECONDS / 2):
        _sweep()
