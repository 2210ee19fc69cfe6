"""A registration import over IMPORT_JOB_LINES lines runs as a background job: progress, then
the outcome a small import shows (all or nothing, the first 100 problems and their count)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.test import override_settings
from django.urls import reverse

from jobs.models import Job
from players import tasks
from players.csv_io import import_registrations
from players.services import Registration, player_register
from tournament.models import Player
from tournament.roles import ORGANIZER

HEADER = "first_name,last_name,date_of_birth,eligibility_declared,citizenship_declared\n"
DUMMY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


@pytest.fixture
def organizer(client, db):
    user = User.objects.create_user("olive", password="pw")
    user.groups.add(Group.objects.get(name=ORGANIZER))
    client.force_login(user)
    return client


def import_url(event) -> str:
    return reverse("players:player_import", kwargs={"pk": event.pk})


def good_lines(count: int, start: int = 0) -> str:
    return "".join(f"Player{n},Surname,1990-01-01,yes,yes\n" for n in range(start, start + count))


def test_an_import_reports_each_line_checked_then_each_registered(event):
    player_register(
        event=event,
        registration=Registration(
            first_name="Player1",
            last_name="Surname",
            date_of_birth=datetime.date(1990, 1, 1),
            eligibility_declared=True,
            citizenship_declared=True,
            signature="Player1 Surname",
        ),
        source=Player.Source.ON_THE_DAY,
    )
    calls = []
    result = import_registrations(
        event=event, text=HEADER + good_lines(3), on_progress=lambda *step: calls.append(step)
    )
    assert (result.created, result.skipped_existing) == (2, 1)
    # Worked by hand: 3 lines checked out of 3 + 3 (all might be new); line 3 is already
    # registered, so 2 are registered and the total becomes 3 + 2.
    assert calls == [(1, 6), (2, 6), (3, 6), (4, 5), (5, 5)]


def test_a_big_import_runs_as_a_job_and_ends_as_a_small_one(organizer, event):
    lines = tasks.IMPORT_JOB_LINES + 20
    response = organizer.post(import_url(event), {"text": HEADER + good_lines(lines)})
    job = Job.objects.get(kind=tasks.IMPORT_KIND)
    assert response["Location"] == f"{import_url(event)}?job={job.pk}"
    assert Player.objects.filter(event=event).count() == lines
    assert job.status == Job.Status.DONE and job.done == job.total == 2 * lines
    assert job.params["text"] == ""  # imported: the text is not kept
    page = organizer.get(response["Location"]).content.decode()
    assert f"{lines} imported, 0 already registered." in page


def test_a_refused_big_paste_comes_back_with_the_first_hundred_problems(organizer, event):
    bad = "".join(f"Player{n},Surname,1990-13-01,yes,yes\n" for n in range(400))
    text = HEADER + good_lines(50) + bad
    response = organizer.post(import_url(event), {"text": text}, follow=True)
    page = response.content.decode()
    assert not Player.objects.exists()  # all or nothing
    assert "Nothing was imported." in page and page.count("<li>Line ") == 100
    assert "Line 52:" in page and "Line 151:" in page and "Line 152:" not in page
    assert "…and 300 more problems not shown" in page
    form_text = response.context["form"].initial["text"]
    assert form_text == text  # the pasted text is back in the box, to be corrected


def test_a_waiting_import_is_polled_then_the_page_reloads(organizer, event):
    with override_settings(TASKS=DUMMY):
        response = organizer.post(import_url(event), {"text": HEADER + good_lines(400)})
    job = Job.objects.get()
    page = organizer.get(response["Location"]).content.decode()
    assert "Importing in the background." in page and 'hx-trigger="every 1s"' in page
    htmx = {"HX-Request": "true"}
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, done=120, total=800)
    polled = organizer.get(response["Location"], headers=htmx)
    assert "120 of 800 done" in polled.content.decode()
    outcome = {"created": 0, "skipped": 400, "errors": [], "error_count": 0}
    Job.objects.filter(pk=job.pk).update(status=Job.Status.DONE, result=outcome)
    assert organizer.get(response["Location"], headers=htmx)["HX-Refresh"] == "true"


def test_a_failed_import_says_why_and_runs_again(organizer, event, monkeypatch):
    real = tasks.import_registrations

    def broken(**kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(tasks, "import_registrations", broken)
    response = organizer.post(import_url(event), {"text": HEADER + good_lines(400)}, follow=True)
    page = response.content.decode()
    assert "RuntimeError: the database went away" in page and "Try again" in page
    job = Job.objects.get()
    monkeypatch.setattr(tasks, "import_registrations", real)
    retry = reverse("players:player_import_retry", kwargs={"pk": event.pk})
    page = organizer.post(retry, {"job": job.pk}, follow=True).content.decode()
    assert "400 imported" in page
    assert Player.objects.filter(event=event).count() == 400


def test_an_import_job_is_only_this_events(organizer, event):
    other = Job.objects.create(kind=tasks.IMPORT_KIND, scope="event-999999", task_path="x")
    assert organizer.get(f"{import_url(event)}?job={other.pk}").status_code == 404
    assert organizer.get(f"{import_url(event)}?job=¹²").status_code == 404
