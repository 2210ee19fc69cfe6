"""The real queue: django-tasks-db with real ``jobs_worker`` processes.

A job completes; a job that raises says why and runs again when retried; a worker killed
with SIGKILL mid-job leaves no file, and the job completes on the next worker without anyone
watching its page. On PostgreSQL only (tests/jobs/worker_helpers.py says why).
"""

from __future__ import annotations

from django.contrib.auth.models import Group, User
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from jobs.models import Job
from tests.jobs.worker_helpers import *  # noqa: F403 (the fixtures)
from tests.jobs.worker_helpers import needs_postgresql, wait_for
from tests.printouts.pdf_helpers import *  # noqa: F403 (the fixtures)
from tests.printouts.pdf_helpers import PEOPLE, pdf_pages
from tournament.roles import ORGANIZER

pytestmark = needs_postgresql


def organizer(client):
    user = User.objects.create_user("olive", password="pw")
    user.groups.add(Group.objects.get(name=ORGANIZER))
    client.force_login(user)
    return client


def ask_for_sheets(client, event) -> Job:
    url = reverse("printouts:round_score_sheets", kwargs={"pk": event.pk, "number": 1})
    response = client.get(url)
    job = Job.objects.get()
    assert response.status_code == 302  # to its progress page: a worker builds it
    assert job.status == Job.Status.QUEUED
    return job


def job_page(client, event, job, name="printouts:job") -> str:
    return client.get(reverse(name, kwargs={"pk": event.pk, "job_pk": job.pk}))


def finished(job: Job) -> Job | None:
    job.refresh_from_db()
    return job if job.is_finished else None


def assert_every_table_printed(content: bytes) -> None:
    pages = pdf_pages(content)
    assert len(pages) == len(PEOPLE)
    for index, (_, _, alias) in enumerate(PEOPLE):
        assert f"Table {index // 4 + 1}" in pages[index] and alias in pages[index]


def test_a_worker_builds_the_rounds_sheets(client, event, seated, workers):
    client = organizer(client)
    job = ask_for_sheets(client, event)
    workers.start()
    wait_for(lambda: finished(job), what="the job to finish\n" + workers.log())
    assert job.status == Job.Status.DONE, workers.log()
    download = job_page(client, event, job, "printouts:job_download")
    assert_every_table_printed(download.content)
    assert DBTaskResult.objects.get(pk=job.task_id).status == "SUCCESSFUL"


def test_a_job_that_raises_says_why_and_runs_again_when_retried(client, event, seated, workers):
    client = organizer(client)
    job = ask_for_sheets(client, event)
    failing = workers.start(gated=True, fail="paper jam in tray 2")
    wait_for(lambda: finished(job), what="the job to fail\n" + workers.log())
    assert job.status == Job.Status.FAILED
    assert workers.stored() == []  # nothing half built is kept
    page = job_page(client, event, job).content.decode()
    assert "RuntimeError: paper jam in tray 2" in page and "Try again" in page
    assert DBTaskResult.objects.get(pk=job.task_id).status == "FAILED"
    workers.stop_all()
    assert failing.returncode is not None

    client.post(reverse("printouts:job_retry", kwargs={"pk": event.pk, "job_pk": job.pk}))
    workers.start()
    wait_for(lambda: finished(job), what="the retried job\n" + workers.log())
    assert job.status == Job.Status.DONE and job.error == ""
    assert_every_table_printed(job_page(client, event, job, "printouts:job_download").content)


def test_a_worker_killed_mid_job_leaves_no_file_and_the_job_runs_again(
    client, event, seated, workers
):
    client = organizer(client)
    job = ask_for_sheets(client, event)
    first = workers.start(gated=True)
    # Mid-job: two sheets laid out, the progress written for the page to show.
    wait_for(lambda: (workers.gate / "reported").exists(), what="the first pages")
    wait_for(lambda: Job.objects.filter(pk=job.pk, done=2, total=8).exists(), what="progress")
    lost_task = Job.objects.get(pk=job.pk).task_id
    workers.kill(first)
    assert workers.stored() == []  # no file, whole or half
    job.refresh_from_db()
    assert job.status == Job.Status.RUNNING  # nobody knows yet
    assert DBTaskResult.objects.get(pk=lost_task).status == "RUNNING"

    # A new worker, and nobody looking at the job's page: the worker sees the heartbeat
    # stop, queues the job again and builds it.
    workers.start()
    wait_for(lambda: finished(job), what="the job to run again\n" + workers.log())
    assert job.status == Job.Status.DONE and job.attempts == 2
    assert [p.relative_to(workers.files).as_posix() for p in workers.stored()] == [job.file_name]
    assert_every_table_printed((workers.files / job.file_name).read_bytes())
    assert DBTaskResult.objects.get(pk=lost_task).status == "FAILED"  # not RUNNING for ever
    assert DBTaskResult.objects.get(pk=job.task_id).status == "SUCCESSFUL"
