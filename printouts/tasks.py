"""The printouts' task: a form's PDF built in a worker, with its progress."""

from __future__ import annotations

from django.conf import settings
from django.utils import translation

from jobs.services import JobOutput, Progress, job_run
from jobs.tasks import task
from printouts.catalog import FORMS, PrintRequest


@task()
def build_printout(*, job_id: int, token: str) -> None:
    job_run(job_id=job_id, token=token, work=_build)


def _build(job, progress: Progress) -> JobOutput:
    form = FORMS[job.params["form"]]
    with translation.override(job.params.get("language") or settings.LANGUAGE_CODE):
        request = PrintRequest.from_params(job.params["request"])
        # Read before building: the file is labelled with the data it was built from, even
        # if that changed between the organizer's click and the worker's start.
        fingerprint = form.fingerprint(request)
        content = form.build(request, progress)
    return JobOutput(content=content, fingerprint=fingerprint)
