"""Background jobs on a busy database, and the worker's heartbeat.

A worker's own writes (a task's "successful") wait out SQLite's real "database is locked"
instead of giving up; each worker leaves a heartbeat, and the pages that queue jobs say
when none has been seen for a minute, and how to start one; a printout is laid out
outside any transaction, so no lock is held while it renders. A worker process facing a
lock held by another process for 10 s is tests/resilience/test_sqlite_lock.py.
"""

from __future__ import annotations

import datetime
import logging
import signal

import pytest
from django.core.management import call_command
from django.db import IntegrityError, OperationalError, connection
from django.db.models.signals import pre_save
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from jobs import database
from jobs.models import Job, Worker
from jobs.selectors import worker_silence
from jobs.services import worker_beat
from tests.printouts.pdf_helpers import *  # noqa: F403 (the fixtures)
from tests.resilience.sqlite_lock import locked_error

QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
NOTICE = "No background worker has been seen"
HOW = ".venv/bin/python manage.py jobs_worker"


@pytest.fixture(scope="module")
def locked(tmp_path_factory, django_db_blocker) -> OperationalError:
    with django_db_blocker.unblock():
        return locked_error(tmp_path_factory.mktemp("locked"))


@pytest.fixture
def waits(monkeypatch) -> list[float]:
    """``patiently``'s waits, recorded instead of slept."""
    slept: list[float] = []
    monkeypatch.setattr(database.time, "sleep", slept.append)
    return slept


def beat(name: str, at: datetime.datetime) -> None:
    Worker.objects.create(name=name, host="hall-pc", pid=4242, started_at=at, seen_at=at)


def sheets_url(event) -> str:
    return reverse("printouts:round_score_sheets", kwargs={"pk": event.pk, "number": 1})


# --- patiently -----------------------------------------------------------------------------


def test_a_write_refused_by_a_lock_is_tried_again_waiting_longer_each_time(locked, waits):
    answers = [locked, locked, "saved"]

    def write():
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    assert database.patiently(write, what="a test write") == "saved"
    assert waits == [0.5, 1.0]


def test_any_other_database_error_is_raised_at_once(waits):
    tries = []

    def write():
        tries.append(1)
        raise IntegrityError("UNIQUE constraint failed: jobs_worker.name")

    with pytest.raises(IntegrityError):
        database.patiently(write, what="a test write")
    assert tries == [1] and waits == []


def test_a_lock_that_outlasts_the_patience_is_raised_in_the_end(locked, waits, monkeypatch):
    clock = iter(range(0, 1000, 100))  # each look at the clock: 100 s later
    monkeypatch.setattr(database.time, "monotonic", lambda: next(clock))

    def write():
        raise locked

    with pytest.raises(OperationalError, match="database is locked"):
        database.patiently(write, what="a test write", give_up_after=250)
    # Started at 0 (deadline 250); tried at 100 and 200; at 300 the next wait would pass it.
    assert waits == [0.5, 1.0]


# --- the heartbeat and the notices ---------------------------------------------------------


def test_without_a_queue_no_worker_is_needed(db):
    # The test suite's immediate backend runs every job where it is asked.
    assert worker_silence() is None


@override_settings(TASKS=QUEUE)
def test_a_minute_without_a_heartbeat_is_a_worker_missing(db):
    assert worker_silence() is not None and worker_silence().last_seen is None
    seen = timezone.now()
    beat("w1", seen)
    assert worker_silence(now=seen + datetime.timedelta(seconds=59)) is None
    missing = worker_silence(now=seen + datetime.timedelta(seconds=61))
    assert missing is not None and missing.last_seen == seen
    # Another worker, seen later, is enough.
    beat("w2", seen + datetime.timedelta(seconds=50))
    assert worker_silence(now=seen + datetime.timedelta(seconds=61)) is None


@override_settings(TASKS=QUEUE)
def test_the_printouts_page_and_the_cockpit_say_no_worker_and_how_to_start_one(
    organizer_client, event
):
    pages = [
        reverse("printouts:index", kwargs={"pk": event.pk}),
        reverse("cockpit:cockpit", kwargs={"pk": event.pk}),
    ]
    for url in pages:
        body = organizer_client.get(url).content.decode()
        assert body.count(NOTICE) == 1, url
        assert "make run" in body and HOW in body
    beat("w1", timezone.now() - datetime.timedelta(minutes=5))
    body = organizer_client.get(pages[0]).content.decode()
    assert NOTICE + " since" in body and "5\xa0minutes ago" in body
    worker_beat(name="w1", host="hall-pc", pid=1, started_at=timezone.now())
    for url in pages:
        assert NOTICE not in organizer_client.get(url).content.decode(), url


@override_settings(TASKS=QUEUE)
def test_a_job_waiting_for_a_worker_that_is_not_there_says_so_once(organizer_client, event, seated):
    asked = organizer_client.get(sheets_url(event))
    job = Job.objects.get()
    assert asked.status_code == 302 and job.status == Job.Status.QUEUED
    page = organizer_client.get(asked.url).content.decode()
    assert "Waiting for a worker to start it" in page and page.count(NOTICE) == 1
    index = reverse("printouts:index", kwargs={"pk": event.pk})
    organizer_client.get(
        reverse("printouts:table_cards", kwargs={"pk": event.pk, "number": 1})
        + "?base_url=http://hall.example"
    )
    listed = organizer_client.get(index).content.decode()
    # One notice for the page, not one per job waiting.
    assert listed.count("Waiting for a worker to start it") >= 1 and listed.count(NOTICE) == 1


# --- no transaction while a printout renders -----------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_printout_is_laid_out_outside_any_transaction(organizer_client, event, seated):
    from printouts import render

    seen = []
    lay_out = render.round_score_sheets_pdf

    def watched(**kwargs):
        seen.append(connection.in_atomic_block)
        return lay_out(**kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(render, "round_score_sheets_pdf", watched)
        response = organizer_client.get(sheets_url(event))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert seen == [False]


# --- the worker ----------------------------------------------------------------------------


class RefuseAfter:
    """Lets ``skip`` saves of ``model`` through, then refuses the next ``times``."""

    def __init__(self, model, error: Exception, *, skip: int, times: int) -> None:
        self.model, self.error, self.skip, self.times = model, error, skip, times

    def __call__(self, sender, **kwargs) -> None:
        if self.skip:
            self.skip -= 1
        elif self.times:
            self.times -= 1
            raise self.error

    def __enter__(self):
        pre_save.connect(self, sender=self.model, weak=False)
        return self

    def __exit__(self, *exc_info):
        pre_save.disconnect(self, sender=self.model)


@pytest.fixture
def own_signals():
    """db_worker installs its SIGINT, SIGTERM and SIGQUIT handlers in whatever process runs
    it: here the test's own, which gets its handlers back (pytest-xdist stops it with
    SIGTERM)."""
    numbers = [signal.SIGINT, signal.SIGTERM, signal.SIGQUIT]
    kept = {number: signal.getsignal(number) for number in numbers}
    yield
    for number, handler in kept.items():
        signal.signal(number, handler)


@pytest.mark.django_db(transaction=True)
def test_the_worker_beats_and_waits_out_a_lock_on_its_tasks_last_write(
    organizer_client, event, seated, locked, waits, caplog, own_signals
):
    with override_settings(TASKS=QUEUE):
        organizer_client.get(sheets_url(event))
        job = Job.objects.get()
        # The task's row is saved twice by the worker: claimed, then "successful"; the
        # second meets the lock (SQLite's own error) three times, as many as django-tasks-db
        # tries it itself before giving up.
        refuse = RefuseAfter(DBTaskResult, locked, skip=1, times=3)
        with refuse, caplog.at_level(logging.WARNING):
            call_command(
                "jobs_worker",
                "--batch",
                "--no-reload",
                "--no-startup-delay",
                "--worker-id",
                "hall-worker",
                verbosity=0,
            )
    job.refresh_from_db()
    assert job.status == Job.Status.DONE
    assert DBTaskResult.objects.get(pk=job.task_id).status == "SUCCESSFUL"
    assert refuse.times == 0 and waits.count(0.5) == 1  # ours: the first wait of patiently
    assert "database is locked" in caplog.text
    worker = Worker.objects.get(name="hall-worker")
    assert worker.seen_at >= job.created_at
