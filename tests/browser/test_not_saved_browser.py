"""A busy database, seen in a real browser: "Not saved: try again", and no worker running.

The database's refusal is SQLite's own "database is locked" (tests/resilience/sqlite_lock.py),
raised at the write (a ``pre_save`` or the ``user_logged_in`` signal) inside Django's live
server. With htmx (the clock card) the message appears above the form and the form keeps
what was typed; without (the login page) the "Not saved" page keeps the username, asks for
the password again, and its Try again signs in. The printouts page and the cockpit say
when no worker has been seen. Screenshots at 1024x768, 768x1024 and 390x844 go to
artifacts/not-saved/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User
from django.contrib.auth.signals import user_logged_in
from django.db import OperationalError
from django.db.models.signals import pre_save

from clock import services as clock_services
from tests.clock.test_clock_pages import wave as wave
from tests.resilience.sqlite_lock import locked_error
from tournament.models import ClockAction
from tournament.roles import HEAD_JUDGE, ORGANIZER

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "not-saved"
PASSWORD = "a long Boardwalk passphrase"
SIZES = [(1024, 768), (768, 1024), (390, 844)]
QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture(scope="module")
def locked(tmp_path_factory, django_db_blocker) -> OperationalError:
    with django_db_blocker.unblock():
        return locked_error(tmp_path_factory.mktemp("locked"))


class RefuseOnce:
    """The next write of this kind meets the lock; the one after goes through."""

    def __init__(self, error: Exception) -> None:
        self.error, self.left = error, 1

    def __call__(self, sender, **kwargs) -> None:
        if self.left:
            self.left -= 1
            raise self.error


def user(role: str, username: str) -> User:
    person = User.objects.create_user(username, password=PASSWORD)
    person.groups.add(Group.objects.get(name=role))
    return person


def log_in(page, live_server, username: str) -> None:
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def shoot_all_sizes(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}x{height}.png"), full_page=True)
        # Nothing wider than the screen (a phone would scroll sideways).
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{name} at {width}px is {overflow}px too wide"
    page.set_viewport_size({"width": 1024, "height": 768})


def test_a_pause_not_saved_says_so_above_the_form_and_keeps_the_reason(
    live_server, page, wave, locked
):
    user(HEAD_JUDGE, "hedda")
    clock_services.clock_start(wave=wave)
    log_in(page, live_server, "hedda")
    page.goto(f"{live_server.url}/organizer/events/{wave.round.event_id}/clock/")
    reason = page.get_by_placeholder("Reason for the pause")
    reason.fill("Rules dispute at table 1")

    refuse = RefuseOnce(locked)
    pre_save.connect(refuse, sender=ClockAction, weak=False)
    try:
        page.get_by_role("button", name="Pause").click()
        note = page.locator("[data-not-saved]")
        note.wait_for()
    finally:
        pre_save.disconnect(refuse, sender=ClockAction)
    assert "Not saved" in note.inner_text() and note.get_attribute("role") == "alert"
    # The form is as it was typed, right below the message; nothing was paused.
    assert reason.input_value() == "Rules dispute at table 1"
    assert not ClockAction.objects.filter(kind=ClockAction.Kind.PAUSE).exists()
    shoot_all_sizes(page, "clock-pause")

    # Tap Pause again: saved, the card shows the pause, the message is gone.
    page.get_by_role("button", name="Pause").click()
    page.get_by_role("button", name="Resume").wait_for()
    assert page.locator("[data-not-saved]").count() == 0
    assert ClockAction.objects.get(kind=ClockAction.Kind.PAUSE).reason == (
        "Rules dispute at table 1"
    )


def test_a_login_not_saved_keeps_the_username_and_try_again_signs_in(live_server, page, locked):
    user(HEAD_JUDGE, "hedda")
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("hedda")
    page.get_by_label("Password").fill(PASSWORD)
    refuse = RefuseOnce(locked)
    user_logged_in.connect(refuse, weak=False)
    try:
        page.get_by_role("button", name="Log in").click()
        page.get_by_role("heading", name="Not saved: try again").wait_for()
    finally:
        user_logged_in.disconnect(refuse)
    assert page.locator('input[name="username"]').input_value() == "hedda"
    again = page.get_by_label(re.compile("password, typed again", re.I))
    assert again.input_value() == ""
    shoot_all_sizes(page, "login")

    again.fill(PASSWORD)
    page.get_by_role("button", name="Try again").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    assert page.get_by_role("button", name="Log out hedda").is_visible()


def test_the_printouts_page_and_the_cockpit_say_no_worker_runs(live_server, page, event, settings):
    settings.TASKS = QUEUE  # the database queue: a worker process is needed
    user(ORGANIZER, "olive")
    log_in(page, live_server, "olive")
    for name, path in (("printouts", "printouts/"), ("cockpit", "")):
        page.goto(f"{live_server.url}/organizer/events/{event.pk}/{path}")
        notice = page.locator("[data-worker-notice]")
        assert "No background worker has been seen" in notice.inner_text()
        assert ".venv/bin/python manage.py jobs_worker" in notice.inner_text()
        shoot_all_sizes(page, f"no-worker-{name}")
