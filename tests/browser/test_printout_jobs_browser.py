"""The organizer asks for a round's score sheets, watches a real worker build them page by
page, and downloads the PDF.

The worker is a real ``jobs_worker`` process on the real queue, gated (tests/jobs/gated_worker.py)
so that it stops after each report until the test has seen that step on the page: the
progress the page shows is the worker's own, and the test never races it. PostgreSQL only,
as every test of a worker process (tests/jobs/worker_helpers.py, whose fixture skips on SQLite).
Screenshots of the page at a tablet's and a phone's size go to artifacts/printout-jobs/.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from django.contrib.auth.models import Group, User
from pypdf import PdfReader

from jobs.models import Job
from tests.jobs.worker_helpers import *  # noqa: F403 (the fixtures)
from tests.printouts.pdf_helpers import *  # noqa: F403 (the fixtures)
from tests.printouts.pdf_helpers import PEOPLE

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "printout-jobs"
PASSWORD = "a long Boardwalk passphrase"
# A worker is a new Python process that sets Django up before its first step: on a busy
# 2-core machine that alone can pass Playwright's 10-s default.
WORKER_START = 60_000


def log_in(page, live_server):
    user = User.objects.create_user("olive", password=PASSWORD)
    user.groups.add(Group.objects.get(name="Organizer"))
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url("**/organizer/")


def shoot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_the_organizer_sees_a_rounds_sheets_built_and_downloads_them(
    workers, live_server, page, browser, event, seated
):
    # Without chromium, the browser conftest skips first (its skips are counted as such);
    # on SQLite, the workers fixture skips with its own reason.
    log_in(page, live_server)
    page.goto(f"{live_server.url}/organizer/events/{event.pk}/printouts/")
    page.get_by_role("link", name="blank sheets, one per seat").click()
    page.wait_for_url(re.compile(r"/printouts/jobs/\d+/$"))
    page.get_by_text("Waiting for a worker").wait_for()
    job_url = page.url

    workers.start(gated=True)  # two sheets a step, eight sheets
    state = page.locator("#job .job-state")
    page.get_by_text("2 of 8 done").wait_for(timeout=WORKER_START)
    assert page.locator("#job progress").get_attribute("value") == "2"
    shoot(page, "progress-1024x768")

    # Leave the page and come back: the printouts page lists the job, still at its step.
    page.goto(f"{live_server.url}/organizer/events/{event.pk}/printouts/")
    listed = page.locator("#printout-jobs")
    assert "Round 1 score sheets" in listed.inner_text()
    assert "2 of 8 done" in listed.inner_text()
    shoot(page, "index-1024x768")
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    small = phone.new_page()
    small.context.add_cookies(page.context.cookies())
    small.goto(job_url)
    small.get_by_text("2 of 8 done").wait_for(timeout=WORKER_START)
    shoot(small, "progress-390x844")
    phone.close()

    page.goto(job_url)
    (workers.gate / "open").touch()
    page.get_by_role("link", name="Download the PDF").wait_for(timeout=WORKER_START)
    assert "Ready" in state.first.inner_text()
    shoot(page, "ready-1024x768")
    href = page.get_by_role("link", name="Download the PDF").get_attribute("href")
    pdf = page.request.get(live_server.url + href)
    assert pdf.headers["content-type"] == "application/pdf"
    pages = [p.extract_text() for p in PdfReader(io.BytesIO(pdf.body())).pages]
    assert len(pages) == len(PEOPLE)
    text = "\n".join(pages)
    for table in (1, 2):
        assert f"Table {table}" in text
    for _, _, alias in PEOPLE:
        assert alias in text
    assert Job.objects.get().attempts == 1
