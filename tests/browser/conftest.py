"""A real browser (Debian's chromium driven by Playwright) against Django's live server.

Playwright's sync API runs an event loop in the test thread; the ORM calls the tests make
while it is open are ordinary synchronous ones, hence DJANGO_ALLOW_ASYNC_UNSAFE while the
browser is open (tests that start subprocesses drop it from their environment).
"""

import contextlib
import os
import shutil
import threading

import pytest
from django.core.servers.basehttp import ThreadedWSGIServer
from django.db import connections
from django.test.testcases import LiveServerThread

# Debian's chromium-headless-shell first: the same Blink without the desktop browser around
# it, lighter on a busy machine (docs/testing.md has the page crawl's timings on both). Full
# chromium (`apt-get install chromium`) serves too, in its own headless mode.
# BOARDWALK_CHROMIUM names another chromium binary (or a missing one, to see the tests skip).
CHROMIUM = (
    os.environ.get("BOARDWALK_CHROMIUM")
    or shutil.which("chromium-headless-shell")
    or shutil.which("chromium")
    or "/usr/bin/chromium"
)
HEADLESS_SHELL = os.path.basename(CHROMIUM) == "chromium-headless-shell"
CHROMIUM_ARGS = [
    *([] if HEADLESS_SHELL else ["--headless=new"]),
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class OneRequestAtATimeOnSharedSQLite(ThreadedWSGIServer):
    """The live server, answering one request at a time when its threads share a connection.

    On in-memory SQLite every thread of Django's live server uses the test's one connection
    object, and two requests at once (two tablets at one table, a page polling while a sheet
    is submitted) interleave their transactions on it: one request's rollback breaks the
    other's atomic block, and every later test of that process fails on the broken
    connection. Production never shares a connection between threads, and on PostgreSQL
    (no shared connection) the server stays fully concurrent, so the race tests keep racing.
    The lock is per request, not per connection: a browser's idle keep-alive connection
    must not hold up the others.

    The test's own flush at its end is one more user of that connection: a request still
    in flight when the test's page closes (a poll of the clock) held a table open while the
    flush deleted from it (CI: "database table is locked"). So a test closes the server
    before its flush (``closed_until_the_next_test``), waiting for the request inside, and
    whatever arrives afterwards is told 503 without touching the database.

    On PostgreSQL each request thread opens its own connection, and the site's
    CONN_MAX_AGE would keep it open while the browser holds the socket alive between
    requests. Those threads are daemons the server never joins, so one still open when
    the session ends kept the test database from being dropped ("being accessed by other
    users"): here every request closes its thread's connections once its answer is sent.
    """

    lock = threading.Lock()
    open_to_requests = True
    # On PostgreSQL requests run side by side: the ones still being answered, counted, so
    # that closing waits for them (a tablet's last request and the flush's TRUNCATE once
    # ended a test in "deadlock detected").
    in_flight = 0
    none_in_flight = threading.Condition(lock)

    @classmethod
    def closed_until_the_next_test(cls) -> None:
        with cls.lock:
            cls.open_to_requests = False
            cls.none_in_flight.wait_for(lambda: cls.in_flight == 0, timeout=30)

    @classmethod
    def reopen(cls) -> None:
        with cls.lock:
            cls.open_to_requests = True

    def set_app(self, application):
        server = type(self)
        if not self.connections_override:
            return super().set_app(_counted(server, _closing_connections(application)))

        def one_at_a_time(environ, start_response):
            with server.lock:
                if not server.open_to_requests:
                    start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
                    return [b"the test is over"]
                result = application(environ, start_response)
                try:
                    body = b"".join(result)
                finally:
                    if hasattr(result, "close"):
                        result.close()
            return [body]

        return super().set_app(one_at_a_time)


def _counted(server, application):
    """Requests answered side by side (PostgreSQL), each counted while it is answered and
    refused once the test is over, like the one-at-a-time server's."""

    def counted(environ, start_response):
        with server.lock:
            if not server.open_to_requests:
                start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
                return [b"the test is over"]
            server.in_flight += 1
        try:
            result = application(environ, start_response)
            try:
                body = b"".join(result)
            finally:
                if hasattr(result, "close"):
                    result.close()
        finally:
            with server.lock:
                server.in_flight -= 1
                server.none_in_flight.notify_all()
        return [body]

    return counted


def _closing_connections(application):
    def closing(environ, start_response):
        return _ClosesConnections(application(environ, start_response))

    return closing


class _ClosesConnections:
    """A WSGI answer that, once the server has sent and closed it, closes the database
    connections of the thread that made it (not the shared SQLite one: never used here)."""

    def __init__(self, result) -> None:
        self.result = result

    def __iter__(self):
        return iter(self.result)

    def close(self) -> None:
        try:
            if hasattr(self.result, "close"):
                self.result.close()
        finally:
            connections.close_all()


LiveServerThread.server_class = OneRequestAtATimeOnSharedSQLite


@contextlib.contextmanager
def between_requests():
    """The test's own writes while pages poll: made between two of the live server's
    requests. On in-memory SQLite the server's threads and the test share one connection,
    and a write landing while a poll reads the same table fails with "database table is
    locked" (once in a whole run, the hall display's pause)."""
    with OneRequestAtATimeOnSharedSQLite.lock:
        yield


@pytest.fixture(scope="session")
def chromium() -> str:
    """The chromium binary; without one the browser tests skip (and fail in CI)."""
    if not os.path.exists(CHROMIUM):
        # tests/conftest.py counts the skips by this reason's start (CHROMIUM_MISSING).
        message = f"chromium not found at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return CHROMIUM


@pytest.fixture(scope="session")
def browser(chromium):
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    # A context's routes see the service workers' own requests too, so an offline tablet
    # can cut its worker off as well (tests/browser/test_offline_tablet_browser.py): the
    # driver reads this when it starts (microsoft/playwright#2311, #15684).
    os.environ["PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS"] = "1"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            yield browser
            browser.close()
    finally:
        if previous is None:
            del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def page(browser):
    """A tablet-sized page (1024x768), the size bankers and judges use."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture(autouse=True)
def browser_database(chromium, transactional_db):
    """Browser tests commit (the live server's threads must see their data), so each runs on
    a transactional database, flushed afterwards; the role groups come back with the flush
    (tournament/apps.py).

    Asking for chromium first skips a machine without it before any database is built. Not
    the browser itself: it must start after the live server, so that it is closed (its
    pages no longer polling) before the server stops at the end of the session.

    The page closes before this fixture ends (it was asked for later); the server then
    closes before the flush, as OneRequestAtATimeOnSharedSQLite says why."""
    yield
    OneRequestAtATimeOnSharedSQLite.closed_until_the_next_test()


@pytest.fixture(autouse=True)
def live_server_open():
    """Every browser test starts with the live server answering, including the crawl's
    (which replaces ``browser_database`` and may follow a test that closed it)."""
    OneRequestAtATimeOnSharedSQLite.reopen()
