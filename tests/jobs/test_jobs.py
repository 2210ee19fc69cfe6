"""Background jobs in one process: printouts built as jobs and reused until their data changes,
failures shown and retried, lost runs recovered, files written whole.

Jobs run here through django-tasks' immediate backend (tests/conftest.py); the real database
queue with real worker processes, killed ones included, is tests/jobs/test_jobs_worker.py.
"""

from __future__ import annotations

import dataclasses
import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.core.files.base import ContentFile
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from jobs.fingerprint import digest
from jobs.models import Job
from jobs.services import JobOutput, job_run, job_submit, jobs_recover
from jobs.storage import AtomicFileSystemStorage, job_storage
from printouts import catalog
from printouts.tasks import build_printout
from seating.services import round_publish
from tests.printouts.pdf_helpers import *  # noqa: F403 (the fixtures)
from tests.printouts.pdf_helpers import PEOPLE, pdf_pages
from tournament.roles import JUDGE

DUMMY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


def sheets_url(event, number=1):
    return reverse("printouts:round_score_sheets", kwargs={"pk": event.pk, "number": number})


def job_url(job, name="printouts:job"):
    return reverse(name, kwargs={"pk": int(job.scope.split("-")[1]), "job_pk": job.pk})


def stored_names() -> set[str]:
    storage = job_storage()
    names = set()

    def walk(folder: str) -> None:
        folders, files = storage.listdir(folder)
        names.update(f"{folder}/{name}".lstrip("/") for name in files)
        for sub in folders:
            walk(f"{folder}/{sub}".lstrip("/"))

    walk("")
    return names


@pytest.fixture(autouse=True)
def empty_storage():
    for name in stored_names():
        job_storage().delete(name)


# --- reuse until the data changes -------------------------------------------------------------


def test_round_sheets_are_built_once_and_reused_until_a_seat_changes(
    organizer_client, event, seated
):
    first = organizer_client.get(sheets_url(event))
    assert first.status_code == 200 and first["Content-Type"] == "application/pdf"
    assert "round-1-score-sheets.pdf" in first["Content-Disposition"]
    job = Job.objects.get()
    assert job.status == Job.Status.DONE and job.kind == "printouts:score-sheets"
    assert stored_names() == {job.file_name}

    again = organizer_client.get(sheets_url(event))
    assert again.content == first.content
    assert Job.objects.count() == 1  # served from storage, not built again

    _, _, players = seated
    players[0].alias = "Silver Dog"
    players[0].save()
    changed = organizer_client.get(sheets_url(event))
    assert "Silver Dog" in pdf_pages(changed.content)[0]
    newer = Job.objects.get()  # the older job went, with its file
    assert newer.pk != job.pk and stored_names() == {newer.file_name}


def test_an_edit_of_the_event_is_a_change_too(organizer_client, event, seated):
    organizer_client.get(sheets_url(event))
    event.name = "Autumn Open"
    event.save()
    content = organizer_client.get(sheets_url(event)).content
    assert "Autumn Open" in pdf_pages(content)[0]
    assert Job.objects.get().params["request"]["round"] == 1


def test_a_published_round_has_its_packs_built_before_anyone_asks(organizer_client, event, seated):
    round_, _, _ = seated
    site = "https://boardwalk.example.org"
    with override_settings(BOARDWALK_PREBUILD_PRINTOUTS=True, BOARDWALK_SITE_URL=site):
        round_publish(round_=round_)
        built = {job.kind: job for job in Job.objects.all()}
        assert set(built) == {"printouts:score-sheets", "printouts:table-cards"}
        assert all(job.status == Job.Status.DONE for job in built.values())
        assert all(job.created_by is None for job in built.values())

        organizer_client.get(sheets_url(event))
        cards = reverse("printouts:table_cards", kwargs={"pk": event.pk, "number": 1})
        text = " ".join(pdf_pages(organizer_client.get(cards).content))
    assert Job.objects.count() == 2  # both answered from what publishing built
    assert "No banker link is in force" in text


def test_without_a_site_address_only_the_sheets_are_built_ahead(event, seated):
    round_, _, _ = seated
    with override_settings(BOARDWALK_PREBUILD_PRINTOUTS=True, BOARDWALK_SITE_URL=""):
        round_publish(round_=round_)
    assert [job.kind for job in Job.objects.all()] == ["printouts:score-sheets"]


# --- the job page, failures and retries -------------------------------------------------------


def test_a_job_that_raises_says_why_and_can_be_retried(
    organizer_client, event, seated, monkeypatch
):
    form = catalog.FORMS["score-sheets"]

    def jammed(request, on_page):
        raise RuntimeError("the toner ran out")

    monkeypatch.setitem(catalog.FORMS, "score-sheets", dataclasses.replace(form, build=jammed))
    response = organizer_client.get(sheets_url(event))
    job = Job.objects.get()
    assert response.status_code == 302 and response["Location"] == job_url(job)
    assert job.status == Job.Status.FAILED and stored_names() == set()
    page = organizer_client.get(job_url(job)).content.decode()
    assert "RuntimeError: the toner ran out" in page
    assert job_url(job, "printouts:job_retry") in page

    monkeypatch.setitem(catalog.FORMS, "score-sheets", form)
    retried = organizer_client.post(job_url(job, "printouts:job_retry"))
    assert retried["Location"] == job_url(job)
    job.refresh_from_db()
    assert job.status == Job.Status.DONE and job.error == "" and job.attempts == 1
    page = organizer_client.get(job_url(job)).content.decode()
    assert job_url(job, "printouts:job_download") in page
    download = organizer_client.get(job_url(job, "printouts:job_download"))
    text = " ".join(pdf_pages(download.content))
    assert all(alias in text for _, _, alias in PEOPLE)


def test_a_waiting_job_is_polled_and_a_finished_one_is_not(organizer_client, event, seated):
    with override_settings(TASKS=DUMMY):
        response = organizer_client.get(sheets_url(event))
    job = Job.objects.get()
    assert response["Location"] == job_url(job) and job.status == Job.Status.QUEUED
    polled = organizer_client.get(job_url(job), headers={"HX-Request": "true"}).content.decode()
    assert 'hx-trigger="every 1s"' in polled and "Waiting for a worker" in polled
    assert "<html" not in polled  # the fragment htmx swaps in

    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, done=50, total=200)
    polled = organizer_client.get(job_url(job), headers={"HX-Request": "true"}).content.decode()
    assert '<progress class="job-progress" max="200" value="50">' in polled
    assert "50 of 200 done" in polled
    index = organizer_client.get(reverse("printouts:index", kwargs={"pk": event.pk}))
    assert "50 of 200 done" in index.content.decode()  # leave the page, come back: it is listed

    build_printout.call(job_id=job.pk, token=job.token)  # a second run of a running job
    job.refresh_from_db()
    assert job.status == Job.Status.RUNNING and job.done == 50  # only a queued job starts

    Job.objects.filter(pk=job.pk).update(status=Job.Status.FAILED, error="Paper jam")
    polled = organizer_client.get(job_url(job), headers={"HX-Request": "true"}).content.decode()
    assert "Paper jam" in polled and "hx-trigger" not in polled


def test_job_pages_are_for_the_organizers_of_that_event(client, organizer_client, event, seated):
    organizer_client.get(sheets_url(event))
    job = Job.objects.get()
    urls = [job_url(job), job_url(job, "printouts:job_download")]
    other = Job.objects.create(kind=job.kind, scope="event-999999", task_path=job.task_path)
    assert organizer_client.get(job_url(other)).status_code == 404  # not this event's job
    elsewhere = reverse("printouts:job", kwargs={"pk": event.pk, "job_pk": other.pk})
    assert organizer_client.get(elsewhere).status_code == 404
    organizer_client.logout()
    for url in urls:
        assert client.get(url).status_code == 302  # to the login page
    judge = User.objects.create_user("jules", password="pw")
    judge.groups.add(Group.objects.get(name=JUDGE))
    client.force_login(judge)
    for url in urls:
        assert client.get(url).status_code == 403
    assert client.post(job_url(job, "printouts:job_retry")).status_code == 403


# --- lost runs --------------------------------------------------------------------------------


def _queued_job(event) -> Job:
    with override_settings(TASKS=DUMMY):
        return job_submit(
            task=build_printout,
            kind="printouts:score-sheets",
            scope=f"event-{event.pk}",
            key="score-sheets:round-1",
            params={
                "form": "score-sheets",
                "request": {"event": event.pk, "round": 1},
                "label": "Round 1 score sheets",
            },
            download_name="round-1-score-sheets.pdf",
        )


def _lose(job: Job, *, attempts: int = 1, seconds_ago: float = 31) -> None:
    """As if a worker had claimed the job and been killed: RUNNING, heartbeat stopped."""
    beat = timezone.now() - datetime.timedelta(seconds=seconds_ago)
    Job.objects.filter(pk=job.pk).update(
        status=Job.Status.RUNNING, heartbeat_at=beat, attempts=attempts
    )


@override_settings(BOARDWALK_JOB_LEASE_SECONDS=30)
def test_a_run_whose_heartbeat_stopped_runs_again_when_its_page_is_polled(
    organizer_client, event, seated
):
    job = _queued_job(event)
    lost_token = job.token
    _lose(job, seconds_ago=29)
    organizer_client.get(job_url(job), headers={"HX-Request": "true"})
    job.refresh_from_db()
    assert job.status == Job.Status.RUNNING  # within the lease: still taken for alive

    _lose(job, seconds_ago=31)
    organizer_client.get(job_url(job), headers={"HX-Request": "true"})
    job.refresh_from_db()
    assert job.status == Job.Status.DONE and job.attempts == 2 and job.token != lost_token
    assert stored_names() == {job.file_name}

    # The lost run, should it wake, can change nothing.
    job_run(job_id=job.pk, token=lost_token, work=pytest.fail)
    assert Job.objects.get(pk=job.pk).file_name == job.file_name


@override_settings(BOARDWALK_JOB_LEASE_SECONDS=30)
def test_a_job_lost_three_times_fails_and_says_so(event, seated):
    job = _queued_job(event)
    _lose(job, attempts=3)
    assert jobs_recover() == 0
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED and "stopped 3 times" in job.error


def test_a_run_that_lost_its_job_while_working_keeps_no_file(event, seated):
    job = _queued_job(event)

    def work(claimed, progress):
        # Meanwhile the job was taken for lost and given to another run.
        Job.objects.filter(pk=claimed.pk).update(token="another-run", status=Job.Status.QUEUED)
        return JobOutput(content=b"%PDF-1.7 half a round")

    job_run(job_id=job.pk, token=job.token, work=work)
    job.refresh_from_db()
    assert job.status == Job.Status.QUEUED and job.file_name == ""
    assert stored_names() == set()


# --- files written whole ----------------------------------------------------------------------


class BrokenContent(ContentFile):
    """A file whose writing stops half way, as a killed write would."""

    def chunks(self, chunk_size=None):
        yield b"%PDF-1.7 first half"
        raise OSError("disk gone")


def test_the_file_storage_shows_a_file_whole_or_not_at_all(tmp_path):
    storage = AtomicFileSystemStorage(location=tmp_path)
    with pytest.raises(OSError, match="disk gone"):
        storage.save("event-1/sheets.pdf", BrokenContent(b""))
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == []
    name = storage.save("event-1/sheets.pdf", ContentFile(b"%PDF-1.7 whole"))
    assert storage.open(name).read() == b"%PDF-1.7 whole"
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == ["sheets.pdf"]


# --- the fingerprint --------------------------------------------------------------------------


def test_the_fingerprint_follows_every_field_and_nothing_else(event, seated):
    _, tables, players = seated
    before = digest(event, [players, tables])
    assert digest(event, [players, tables]) == before  # the same data, the same digest
    players[3].postal_code = "08401"
    assert digest(event, [players, tables]) != before
    players[3].postal_code = ""
    tables[1].wave_id = None
    assert digest(event, [players, tables]) != before
    with pytest.raises(TypeError):
        digest(object())
