"""Reading jobs: the one a result can be reused from, a scope's latest jobs, and whether
a worker is there to run them."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Max
from django.utils import timezone

from jobs.models import Job, Worker
from jobs.storage import job_storage

# A worker writes its heartbeat every BOARDWALK_JOB_HEARTBEAT_SECONDS (5); a minute of
# silence means none is running, even allowing for beats lost to a lock held a while.
WORKER_SILENT_SECONDS = 60


@dataclass(frozen=True)
class WorkerSilence:
    last_seen: datetime.datetime | None  # None: no worker ever ran on this database


def job_reusable(*, scope: str, kind: str, key: str, fingerprint: str) -> Job | None:
    """The newest job built from exactly this data that is done (its file still there),
    queued or running; None when a new job is needed."""
    candidates = Job.objects.filter(
        scope=scope, kind=kind, key=key, fingerprint=fingerprint
    ).exclude(status=Job.Status.FAILED)
    for job in candidates.order_by("-pk")[:3]:
        if job.status != Job.Status.DONE or not job.file_name:
            return job
        if job_storage().exists(job.file_name):
            return job
    return None


def jobs_latest(*, scope: str, kinds: tuple[str, ...] | None = None) -> list[Job]:
    """The newest job of each kind and key in the scope, newest first."""
    jobs = Job.objects.filter(scope=scope).order_by("-pk")
    if kinds is not None:
        jobs = jobs.filter(kind__in=kinds)
    latest: dict[tuple[str, str], Job] = {}
    for job in jobs.defer("params", "result"):
        latest.setdefault((job.kind, job.key), job)
    return list(latest.values())


def worker_last_seen() -> datetime.datetime | None:
    """When a background worker last said it was alive (any worker), or None if none ever
    did on this database."""
    return Worker.objects.aggregate(seen=Max("seen_at"))["seen"]


def workers_needed() -> bool:
    """Whether queued jobs wait for a worker process: with the database queue they do;
    the immediate backend (the tests, a one-off script) runs each job where it is asked."""
    backend = settings.TASKS.get("default", {}).get("BACKEND", "")
    return backend.startswith("django_tasks_db.")


def worker_silence(*, now: datetime.datetime | None = None) -> WorkerSilence | None:
    """The notice "no worker has been seen for a minute", or None when one has been (or
    none is needed)."""
    if not workers_needed():
        return None
    seen = worker_last_seen()
    now = now or timezone.now()
    if seen is not None and (now - seen).total_seconds() < WORKER_SILENT_SECONDS:
        return None
    return WorkerSilence(last_seen=seen)
