"""The mail app's background task: send one email, and queue its retry after a passing failure.

One task per email, so one unreachable address holds up nobody else's. A retry is queued
to run after its delay where the queue can wait (django-tasks-db's ``run_after``); a queue
that runs everything at once (tests' immediate backend) tries again straight away.
"""

from __future__ import annotations

import datetime

from jobs.tasks import task
from mail.models import Message
from mail.sending import message_send


@task()
def send_message_task(*, message_id: int) -> None:
    retry_at = message_send(message_id=message_id)
    if retry_at is not None:
        message_enqueue(message_id=message_id, at=retry_at)


def message_enqueue(*, message_id: int, at: datetime.datetime | None = None) -> None:
    queued = send_message_task
    if at is not None:
        if queued.get_backend().supports_defer:
            queued = queued.using(run_after=at)
        else:
            Message.objects.filter(pk=message_id).update(send_after=None)
    queued.enqueue(message_id=message_id)
