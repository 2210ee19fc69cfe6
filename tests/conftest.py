"""Shared pytest fixtures for Boardwalk's tests, and the suite's own summary line."""

import datetime
import gc
import time
import warnings

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import override_settings

from tests.builders import an_event, players_with_aliases, user_with
from tests.players.organizer_pages import register
from tests.scoring.scoring_helpers import make_round, table_of
from tournament.models import Event, Player, Round, Table
from tournament.roles import JUDGE, ORGANIZER
from tournament.services import event_create

IMMEDIATE_BACKEND = "django_tasks.backends.immediate.ImmediateBackend"
IN_MEMORY_STORAGE = "django.core.files.storage.InMemoryStorage"

# tests/browser/conftest.py skips with a reason starting with this when there is no chromium.
CHROMIUM_MISSING = "chromium not found"


def pytest_configure(config):
    """Python's cycle collector runs less often in the test processes. By default it starts
    after every 700 new objects, and every hundredth run walks everything the process holds
    (Django, Playwright, every test module loaded): a test making and dropping model instances
    set it off hundreds of times. At 50,000 the same tests took 7% less time, run side by side
    on the two cores (docs/testing.md, "How long the suite takes"). Garbage without cycles is
    freed at once either way; only cycles wait a little longer."""
    gc.set_threshold(50_000, 50, 100)


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


# How long the session's end waits for other connections to the test database to close.
LET_GO_SECONDS = 15


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, dropped at the end only once nothing else is connected.

    PostgreSQL refuses to drop a database another session is using, and pytest-django then
    only warns: the test database stayed behind ("being accessed by other users"). A live
    server's request thread closing its connection a moment after the browser went, or a
    worker process still stopping, is waited for; one still there after LET_GO_SECONDS is
    ended, and named in a warning, so the next run does not start on a stale database."""
    yield
    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock():
        _let_go_of_the_test_database()


def _others_on_the_test_database() -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, application_name, state, left(query, 120) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cursor.fetchall()


def _let_go_of_the_test_database() -> None:
    deadline = time.monotonic() + LET_GO_SECONDS
    others = _others_on_the_test_database()
    while others and time.monotonic() < deadline:
        time.sleep(0.2)
        others = _others_on_the_test_database()
    if others:
        warnings.warn(
            f"still connected to the test database at the end, ended: {others}", stacklevel=1
        )
        with connection.cursor() as cursor:
            for pid, *_ in others:
                cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    connection.close()


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


# --- Officials and a scored table: the fixtures the apps' page and scoring tests share ---


@pytest.fixture
def organizer(db) -> User:
    return user_with(ORGANIZER, "olive")


@pytest.fixture
def org_client(client, organizer):
    client.force_login(organizer)
    return client


@pytest.fixture
def judge_client(client, db):
    client.force_login(user_with(JUDGE, "jules"))
    return client


@pytest.fixture
def small_event(db) -> Event:
    """Two seats, so the third registrant onward waits as an alternate."""
    return an_event(
        name="Small Cup",
        date=datetime.date(2030, 4, 20),
        start_time=datetime.time(9, 30),
        expected_players=2,
    )


@pytest.fixture
def full_house(small_event):
    """Two seated players and three alternates, in registration order."""
    names = [
        ("Ada", "Lovelace", "Lucky Thimble"),
        ("Alan", "Turing", "Golden Top Hat"),
        ("Grace", "Hopper", "Swift Boot"),
        ("Edsger", "Dijkstra", "Brave Cat"),
        ("Barbara", "Liskov", "Quiet Iron"),
    ]
    return [register(small_event, first, last, alias=alias) for first, last, alias in names]


@pytest.fixture
def banker(db) -> User:
    return User.objects.create_user("banker", password="pw")


@pytest.fixture
def judge(db) -> User:
    return User.objects.create_user("judge", password="pw")


@pytest.fixture
def four(event) -> dict[str, Player]:
    return players_with_aliases(event, aliases=["Boot", "Car", "Hat", "Dog"])


@pytest.fixture
def round1(event, four) -> Round:
    """Round 1: one table of four, the game over."""
    return make_round(event, 1, [list(four.values())])


@pytest.fixture
def table(round1) -> Table:
    return table_of(round1, 1)
