"""Run a background worker: django-tasks-db's ``db_worker``, which also recovers lost jobs.

``db_worker`` leaves the task of a worker killed mid-run RUNNING for ever. Every worker
started with this command first enqueues again the jobs whose heartbeat has stopped, then
keeps doing so while it runs, so a job lost with its worker runs again on another worker
(or on this one after a restart) without anyone watching its page. The options are
``db_worker``'s own (``manage.py jobs_worker --help``).
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.db import DatabaseError, connections
from django_tasks_db.management.commands.db_worker import Command as DbWorkerCommand

from jobs.services import jobs_recover

logger = logging.getLogger("jobs")


class Command(DbWorkerCommand):
    help = "Run a database background worker that also queues again the jobs of lost workers."

    def handle(self, *args, **options) -> None:
        _sweep()
        threading.Thread(target=_sweep_forever, name="jobs-recover", daemon=True).start()
        super().handle(*args, **options)


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


def _sweep_forever() -> None:
    stop = threading.Event()
    while not stop.wait(settings.BOARDWALK_JOB_LEASE_SECONDS / 2):
        _sweep()
