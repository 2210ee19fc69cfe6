"""Submitting, running, retrying and recovering jobs.

A job runs as a django-tasks task that calls ``job_run`` with the job's id and run token.
The run claims the job, does the work while a beat thread writes its progress and a
heartbeat, and finishes it: the file is saved through the storage API before the job says
it is done, so a run killed part way leaves no file and no "done". A job whose heartbeat
is older than the lease lost its worker; ``jobs_recover`` (called by the pages that show
jobs and by every ``jobs_worker``) gives it a new token and enqueues it again, and the lost
run, should it ever wake, can no longer report or finish anything.
"""

from __future__ import annotations

import datetime
import logging
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import DatabaseError, connections
from django.db.models import F
from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.text import get_valid_filename
from django.utils.translation import gettext as _

from jobs.database import database_unavailable, patiently
from jobs.models import Job, Worker
from jobs.storage import job_storage
from jobs.tasks import Task

logger = logging.getLogger(__name__)

# Told (done, total) as the work goes on.
Progress = Callable[[int, int], None]
# A run lost this many times (its worker killed each time) fails instead of looping.
MAX_ATTEMPTS = 3
# How often the beat thread writes fresh progress; a heartbeat is written at least every
# BOARDWALK_JOB_HEARTBEAT_SECONDS.
PROGRESS_INTERVAL = 0.5
ERROR_LENGTH = 1000


@dataclass(frozen=True)
class JobOutput:
    content: bytes | None = None  # the file, saved in the jobs storage
    result: Any = None  # JSON-able, for jobs that make no file
    fingerprint: str = ""  # of the data actually read, if the work computed it
    params: dict | None = None  # the job's parameters from now on: input no longer needed goes


class JobError(Exception):
    """A failure whose message is written for the official, as it stands."""


Work = Callable[[Job, Progress], JobOutput]


def _token() -> str:
    return secrets.token_hex(16)


def _now() -> datetime.datetime:
    return timezone.now()


def _lease() -> datetime.timedelta:
    return datetime.timedelta(seconds=settings.BOARDWALK_JOB_LEASE_SECONDS)


# --- submitting ------------------------------------------------------------------------------


def job_submit(
    *,
    task: Task,
    kind: str,
    scope: str,
    key: str = "",
    params: dict | None = None,
    fingerprint: str = "",
    download_name: str = "",
    user: Any = None,
) -> Job:
    """Record a job and enqueue its task; returns the job as it stands after enqueueing (an
    immediate backend has run it already).

    The job's row and, with the database backend, its task's row are written together, so
    no worker sees one without the other.
    """
    job = Job.objects.create(
        kind=kind,
        scope=scope,
        key=key,
        params=params or {},
        fingerprint=fingerprint,
        download_name=download_name,
        task_path=task.module_path,
        token=_token(),
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    _enqueue(job, task)
    job.refresh_from_db()
    return job


def _enqueue(job: Job, task: Task | None = None) -> None:
    task = task or import_string(job.task_path)
    result = task.enqueue(job_id=job.pk, token=job.token)
    Job.objects.filter(pk=job.pk, token=job.token).update(task_id=str(result.id)[:64])


def job_retry(*, job: Job) -> Job:
    """Run a failed job again from the start, under a new token."""
    token = _token()
    retried = Job.objects.filter(pk=job.pk, status=Job.Status.FAILED).update(
        status=Job.Status.QUEUED,
        token=token,
        error="",
        done=0,
        total=0,
        attempts=0,
        task_id="",
        heartbeat_at=None,
        finished_at=None,
    )
    job.refresh_from_db()
    if retried:
        _enqueue(job)
        job.refresh_from_db()
    return job


# --- running ---------------------------------------------------------------------------------


def job_run(*, job_id: int, token: str, work: Work) -> None:
    """The body of every job's task: claim, work with heartbeats, then finish or fail.

    A run whose token is no longer the job's (it was lost and enqueued again, or the job was
    retried or deleted) does nothing.

    The run's own bookkeeping (claiming, finishing, failing) waits out a busy or unreachable
    database (``patiently``): given up, the job would wait for a run that has left. The
    work itself runs outside any transaction; a job that writes keeps its transaction to the
    writing, after the reading and computing (a PDF is laid out before anything is saved).
    """
    now = _now()
    claimed = patiently(
        lambda: Job.objects.filter(pk=job_id, token=token, status=Job.Status.QUEUED).update(
            status=Job.Status.RUNNING,
            started_at=now,
            heartbeat_at=now,
            attempts=F("attempts") + 1,
            done=0,
            total=0,
        ),
        what=f"Job {job_id}: claiming",
    )
    if not claimed:
        logger.info("Job %s: run %s is not the job's current run; nothing to do.", job_id, token)
        return
    job = patiently(lambda: Job.objects.get(pk=job_id), what=f"Job {job_id}: reading")
    beat = _Beat(job_id=job_id, token=token)
    try:
        with beat:
            output = work(job, beat.report)
    except Exception as error:
        message = _failure_message(error)
        patiently(
            lambda: _fail(job_id=job_id, token=token, message=message),
            what=f"Job {job_id}: saying it failed",
        )
        raise
    except BaseException:
        # The worker is being stopped mid-job (a second Ctrl-C): another run does the job.
        _requeue(job_id=job_id, token=token)
        raise
    _finish(job, token=token, output=output, progress=beat.progress)


class _Beat:
    """A thread writing the run's progress and heartbeat on its own connection.

    Its own connection, so progress shows while the work holds a transaction open (an import
    registers everyone in one), and so a long step without progress reports (laying out one
    big document) still proves the worker alive.
    """

    def __init__(self, *, job_id: int, token: str) -> None:
        self.job_id = job_id
        self.token = token
        self.progress: tuple[int, int] = (0, 0)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"job-{job_id}-beat", daemon=True)

    def report(self, done: int, total: int) -> None:
        self.progress = (done, total)

    def __enter__(self) -> _Beat:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        heartbeat = settings.BOARDWALK_JOB_HEARTBEAT_SECONDS
        written, last_beat = (0, 0), _now()
        try:
            while not self._stop.wait(min(PROGRESS_INTERVAL, heartbeat)):
                now = _now()
                if self.progress == written and (now - last_beat).total_seconds() < heartbeat:
                    continue
                done, total = written = self.progress
                try:
                    Job.objects.filter(
                        pk=self.job_id, token=self.token, status=Job.Status.RUNNING
                    ).update(done=done, total=total, heartbeat_at=now)
                    last_beat = now
                except DatabaseError:
                    logger.warning("Job %s: heartbeat not written", self.job_id, exc_info=True)
        finally:
            connections.close_all()  # this thread's connections only


def _failure_message(error: Exception) -> str:
    if isinstance(error, ValidationError):
        message = " ".join(error.messages)
    elif database_unavailable(error):
        message = _(
            "The database was busy or out of reach, so nothing was saved. Try again; if it "
            "happens again, tell the administrator."
        )
    elif isinstance(error, JobError):
        message = str(error)
    else:
        message = f"{type(error).__name__}: {error}"
    return message[:ERROR_LENGTH]


def _fail(*, job_id: int, token: str, message: str) -> None:
    Job.objects.filter(pk=job_id, token=token).exclude(status=Job.Status.DONE).update(
        status=Job.Status.FAILED, error=message, finished_at=_now()
    )


def _finish(job: Job, *, token: str, output: JobOutput, progress: tuple[int, int]) -> None:
    """Save the file, then say "done" only if this run still holds the job."""
    name = ""
    if output.content is not None:
        name = job_storage().save(_storage_name(job, token), ContentFile(output.content))
    done, total = progress
    fields: dict[str, Any] = {
        "status": Job.Status.DONE,
        "finished_at": _now(),
        "file_name": name,
        "result": output.result,
        "done": max(done, total),
        "total": total,
    }
    if output.fingerprint:
        fields["fingerprint"] = output.fingerprint
    if output.params is not None:
        fields["params"] = output.params
    running = Job.objects.filter(pk=job.pk, token=token, status=Job.Status.RUNNING)
    try:
        updated = patiently(lambda: running.update(**fields), what=f"Job {job.pk}: finishing")
    except Exception:
        if name:
            job_storage().delete(name)  # no "done" points at it
        raise
    if not updated:
        logger.warning("Job %s: run %s lost the job before finishing; dropped.", job.pk, token)
        if name:
            job_storage().delete(name)
        return
    patiently(lambda: _supersede(job), what=f"Job {job.pk}: dropping older copies")


def _storage_name(job: Job, token: str) -> str:
    folder = get_valid_filename(job.scope) or "jobs"
    kind = get_valid_filename(job.kind.replace(":", "-")) or "job"
    base = get_valid_filename(job.download_name) or "result"
    return f"{folder}/{kind}/{job.pk}-{token[:8]}-{base}"


def _supersede(job: Job) -> None:
    """The older finished jobs of the same scope, kind and key go, with their files."""
    older = (
        Job.objects.filter(scope=job.scope, kind=job.kind, key=job.key)
        .filter(status__in=[Job.Status.DONE, Job.Status.FAILED], pk__lt=job.pk)
        .only("pk", "file_name")
    )
    job_delete(jobs=list(older))


def job_delete(*, jobs: list[Job]) -> None:
    for old in jobs:
        if old.file_name:
            job_storage().delete(old.file_name)
    Job.objects.filter(pk__in=[old.pk for old in jobs]).delete()


# --- recovering ------------------------------------------------------------------------------


def jobs_recover(*, scope: str | None = None) -> int:
    """Enqueue again the running jobs whose heartbeat is older than the lease (their worker
    was killed or lost); a job lost ``MAX_ATTEMPTS`` times fails instead. Returns how many
    were enqueued again."""
    stale = Job.objects.filter(status=Job.Status.RUNNING, heartbeat_at__lt=_now() - _lease())
    if scope is not None:
        stale = stale.filter(scope=scope)
    requeued = 0
    for job in stale:
        if job.attempts >= MAX_ATTEMPTS:
            message = _(
                "The worker building this stopped %(count)s times before it was done, so it "
                "was not started again. Try again; if it stops again, tell the administrator."
            ) % {"count": job.attempts}
            _fail(job_id=job.pk, token=job.token, message=message)
        else:
            requeued += _requeue(job_id=job.pk, token=job.token)
        _mark_task_lost(job.task_id)
    return requeued


def _requeue(*, job_id: int, token: str) -> bool:
    new = _token()
    moved = Job.objects.filter(pk=job_id, token=token, status=Job.Status.RUNNING).update(
        status=Job.Status.QUEUED, token=new, task_id="", heartbeat_at=None
    )
    if moved:
        logger.warning("Job %s lost its worker; queued again.", job_id)
        _enqueue(Job.objects.get(pk=job_id))
    return bool(moved)


def _mark_task_lost(task_id: str) -> None:
    """The database backend leaves a killed worker's task RUNNING for ever; say it failed,
    so its admin page and prune_db_task_results see it for what it is."""
    if not task_id or not apps.is_installed("django_tasks_db"):
        return
    from django_tasks_db.models import DBTaskResult

    try:
        DBTaskResult.objects.filter(pk=task_id, status="RUNNING").update(
            status="FAILED",
            finished_at=_now(),
            exception_class_path="jobs.services.WorkerLost",
            traceback="The worker stopped beating; the job was queued again as a new task.",
        )
    except (ValidationError, ValueError):
        pass  # an id from another backend


# --- workers' heartbeats ---------------------------------------------------------------------


def worker_beat(*, name: str, host: str, pid: int, started_at: datetime.datetime) -> None:
    """Say that the worker ``name`` is alive now (its row, made on its first beat)."""
    Worker.objects.update_or_create(
        name=name,
        defaults={"host": host[:255], "pid": pid, "started_at": started_at, "seen_at": _now()},
    )


def workers_forget(*, older_than: datetime.timedelta = datetime.timedelta(days=1)) -> int:
    """Drop the rows of workers not seen for a day: each start makes a new one."""
    deleted, _counts = Worker.objects.filter(seen_at__lt=_now() - older_than).delete()
    return deleted
