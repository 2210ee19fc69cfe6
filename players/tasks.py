"""tournament's background job: a big registration import, with its progress.

An import of a few hundred lines takes seconds to check and longer to register (each line
goes through the public form's rules), so the import page hands it to a worker and shows
how far it is. The outcome is today's: all or nothing, with the first problems listed.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from jobs.models import Job
from jobs.services import JobError, JobOutput, Progress, job_run, job_submit
from jobs.tasks import task
from players.csv_io import MAX_ERRORS_SHOWN, import_registrations
from tournament.models import Event

IMPORT_KIND = "tournament:import"
# Up to this many lines an import is done while the page waits, as it takes a few seconds.
IMPORT_JOB_LINES = 300


def event_job_scope(event: Event) -> str:
    """The scope of an event's jobs (jobs/models.py): its imports and its printouts."""
    return f"event-{event.pk}"


def import_job_submit(
    *, event: Event, text: str, pasted: bool, user: Any = None, send: bool = True
) -> Job:
    return job_submit(
        task=import_registrations_task,
        kind=IMPORT_KIND,
        scope=event_job_scope(event),
        key="registrations",
        params={
            "event": event.pk,
            "text": text,
            "pasted": pasted,
            "send_confirmations": send,
            "language": translation.get_language() or settings.LANGUAGE_CODE,
        },
        user=user,
    )


@task()
def import_registrations_task(*, job_id: int, token: str) -> None:
    job_run(job_id=job_id, token=token, work=_import)


def _import(job: Job, progress: Progress) -> JobOutput:
    params = job.params
    event = Event.objects.filter(pk=params["event"]).first()
    if event is None:
        raise JobError(_("This event no longer exists."))
    with translation.override(params.get("language") or settings.LANGUAGE_CODE):
        result = import_registrations(
            event=event,
            text=params["text"],
            on_progress=progress,
            send_confirmations=params.get("send_confirmations", True),
        )
    outcome = {
        "created": result.created,
        "skipped": result.skipped_existing,
        "errors": result.errors[:MAX_ERRORS_SHOWN],
        "error_count": len(result.errors),
    }
    # A refused paste comes back in the box to be corrected; an imported one is not kept.
    keep = {**params, "text": ""} if result.ok else params
    return JobOutput(result=outcome, params=keep)
