"""Shared pytest fixtures for Boardwalk's tests, and the suite's own summary line."""

import datetime
import time

import pytest
from django.conf import settings
from django.test import override_settings

from tournament.models import Event
from tournament.services import event_create

IMMEDIATE_BACKEND = "django_tasks.backends.immediate.ImmediateBackend"
IN_MEMORY_STORAGE = "django.core.files.storage.InMemoryStorage"

# tests/browser/conftest.py skips with a reason starting with this when there is no chromium.
CHROMIUM_MISSING = "chromium not found"


@pytest.fixture(scope="session", autouse=True)
def fast_password_hasher():
    """MD5 first, as Django's testing docs advise: the suite creates and logs in hundreds of
    users, and each PBKDF2 hash costs a noticeable fraction of a second on a 2-core machine.
    The site's own hashers stay in the list, so any hash they made still verifies; the
    site keeps hashing with them (tests/config/test_settings.py checks that in a fresh process)."""
    hashers = ["django.contrib.auth.hashers.MD5PasswordHasher", *settings.PASSWORD_HASHERS]
    with override_settings(PASSWORD_HASHERS=hashers):
        yield


@pytest.fixture(scope="session", autouse=True)
def jobs_run_at_once():
    """Background jobs run inside the request that asks for them (django-tasks' immediate
    backend), their files kept in memory, and rounds published without building their packs
    ahead: every test sees a job's outcome at once and leaves no file behind. The tests of
    real workers (tests/jobs/test_jobs_worker.py) switch to the database queue themselves."""
    storages = {**settings.STORAGES, "jobs": {"BACKEND": IN_MEMORY_STORAGE}}
    with override_settings(
        TASKS={"default": {"BACKEND": IMMEDIATE_BACKEND}},
        STORAGES=storages,
        BOARDWALK_PREBUILD_PRINTOUTS=False,
    ):
        yield


@pytest.fixture
def event(db) -> Event:
    """A valid event created the way the app creates them: through the service."""
    return event_create(
        name="Spring Championship",
        organization="Atlantic Avenue Club",
        venue="Library Annex",
        date=datetime.date(2030, 4, 20),
        start_time=datetime.time(9, 30),
    )


class FrozenTime:
    """A clock that stands still until the test moves it."""

    def __init__(self, at: float) -> None:
        self.at = at

    def advance(self, seconds: float) -> None:
        self.at += seconds


@pytest.fixture
def frozen_time(monkeypatch) -> FrozenTime:
    """``time.time()`` standing still (the throttles' clock reads it), at a whole second of
    today, so a test of limits in time does not depend on when it runs."""
    clock = FrozenTime(float(int(time.time())))
    monkeypatch.setattr(time, "time", lambda: clock.at)
    return clock


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_terminal_summary(terminalreporter):
    """One line after pytest's own summary when the browser tests could not run.

    A hook of this conftest rather than tests/browser/conftest.py: under pytest-xdist only
    the controlling process prints, and it loads this conftest but not the browser one.
    """
    yield
    skipped = [
        report
        for report in terminalreporter.stats.get("skipped", [])
        if CHROMIUM_MISSING in str(report.longrepr)
    ]
    if skipped:
        terminalreporter.write_line(
            f"{len(skipped)} browser tests skipped: {CHROMIUM_MISSING}; "
            "install it with: apt-get install chromium"
        )
