"""Asking for a printout: the file built from the same data if there is one, else a job."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings

from jobs.models import Job
from jobs.selectors import job_reusable
from jobs.services import job_submit, jobs_recover
from players.tasks import event_job_scope
from printouts.catalog import FORMS, Form, PrintRequest
from printouts.tasks import build_printout
from tournament.models import Event, Round

logger = logging.getLogger(__name__)

KIND_PREFIX = "printouts:"


def printouts_scope(event: Event) -> str:
    return event_job_scope(event)


def printout_job(*, form: Form, request: PrintRequest, user: Any = None) -> Job:
    """The job of this printout built from the data as it is now: a finished one (reused
    until that data changes), one under way, or a new one, queued."""
    scope = printouts_scope(request.event)
    kind = KIND_PREFIX + form.name
    key = form.key(request)
    # A job whose worker was lost would otherwise be waited for for ever.
    jobs_recover(scope=scope)
    fingerprint = form.fingerprint(request)
    job = job_reusable(scope=scope, kind=kind, key=key, fingerprint=fingerprint)
    if job is not None:
        return job
    return job_submit(
        task=build_printout,
        kind=kind,
        scope=scope,
        key=key,
        params={
            "form": form.name,
            "request": request.params(),
            "language": request.event.language or settings.LANGUAGE_CODE,
            "label": form.label(request),
        },
        fingerprint=fingerprint,
        download_name=form.filename(request),
        user=user,
    )


def round_packs_prebuild(*, round_: Round) -> list[Job]:
    """A published round's score sheets, and its table cards when the site's address is
    known, queued at once: they are usually ready before anyone asks."""
    if not settings.BOARDWALK_PREBUILD_PRINTOUTS:
        return []
    event = round_.event
    sheets = PrintRequest(event=event, round=round_)
    jobs = [printout_job(form=FORMS["score-sheets"], request=sheets)]
    if settings.BOARDWALK_SITE_URL:
        cards = PrintRequest(event=event, round=round_, base_url=settings.BOARDWALK_SITE_URL)
        jobs.append(printout_job(form=FORMS["table-cards"], request=cards))
    return jobs


def on_round_published(sender: Any, *, round_: Round, **kwargs: Any) -> None:
    """tournament's round_published signal (connected in printouts/apps.py). Building ahead
    only saves waiting: should queueing fail, the round is published all the same."""
    try:
        round_packs_prebuild(round_=round_)
    except Exception:
        logger.exception("Round %s: its printouts could not be queued", round_.pk)
