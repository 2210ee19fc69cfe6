"""Reading jobs: the one a result can be reused from, and a scope's latest jobs."""

from __future__ import annotations

from .models import Job
from .storage import job_storage


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
