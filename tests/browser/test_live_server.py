"""The live server of the browser tests answers one request at a time on a shared connection.

Two tablets at one table once broke the shared in-memory SQLite connection mid-transaction
(CI: one test timed out, 34 later tests of its process failed on the broken connection).
These tests hold one request inside the application and see whether a second gets in.
"""

import threading

from tests.browser.conftest import OneRequestAtATimeOnSharedSQLite


def _server(*, shared: bool) -> OneRequestAtATimeOnSharedSQLite:
    server = OneRequestAtATimeOnSharedSQLite.__new__(OneRequestAtATimeOnSharedSQLite)
    server.connections_override = {"default": object()} if shared else {}
    return server


def _overlap(server: OneRequestAtATimeOnSharedSQLite) -> bool:
    """Whether a second request entered the application while the first was still in it."""
    inside = threading.Event()
    release = threading.Event()
    second_in = threading.Event()
    calls = []

    def application(environ, start_response):
        calls.append(environ["n"])
        if environ["n"] == 1:
            inside.set()
            release.wait(timeout=5)
        else:
            second_in.set()
        start_response("200 OK", [])
        return [b"ok"]

    server.set_app(application)
    app = server.get_app()
    first = threading.Thread(target=lambda: app({"n": 1}, lambda *a: None))
    first.start()
    inside.wait(timeout=5)
    second = threading.Thread(target=lambda: app({"n": 2}, lambda *a: None))
    second.start()
    overlapped = second_in.wait(timeout=0.5)
    release.set()
    first.join(timeout=5)
    second.join(timeout=5)
    assert calls == [1, 2]
    return overlapped


def test_a_second_request_waits_while_the_threads_share_one_sqlite_connection():
    assert not _overlap(_server(shared=True))


def test_requests_run_side_by_side_when_nothing_is_shared():
    """PostgreSQL: each thread has its own connection, and the race tests need real races."""
    assert _overlap(_server(shared=False))


def test_the_whole_answer_comes_back_and_the_response_is_closed():
    closed = []

    class Body(list):
        def close(self):
            closed.append(True)

    server = _server(shared=True)
    server.set_app(lambda environ, start_response: Body([b"one ", b"two"]))
    assert server.get_app()({}, None) == [b"one two"]
    assert closed == [True]


def test_closing_waits_for_the_request_inside_and_turns_the_next_away():
    """The flush at a test's end must not meet a request still using the connection."""
    inside = threading.Event()
    release = threading.Event()
    entered = []

    def application(environ, start_response):
        entered.append(environ["n"])
        if environ["n"] == 1:
            inside.set()
            release.wait(timeout=5)
        start_response("200 OK", [])
        return [b"ok"]

    server = _server(shared=True)
    server.set_app(application)
    app = server.get_app()
    first = threading.Thread(target=lambda: app({"n": 1}, lambda *a: None))
    first.start()
    inside.wait(timeout=5)
    closing = threading.Thread(target=OneRequestAtATimeOnSharedSQLite.closed_until_the_next_test)
    closing.start()
    closing.join(timeout=0.5)
    assert closing.is_alive(), "closing did not wait for the request inside"
    release.set()
    first.join(timeout=5)
    closing.join(timeout=5)
    statuses = []
    try:
        assert app({"n": 2}, lambda status, headers: statuses.append(status)) == [
            b"the test is over"
        ]
        assert statuses == ["503 Service Unavailable"] and entered == [1]
    finally:
        OneRequestAtATimeOnSharedSQLite.reopen()
    assert app({"n": 3}, lambda *a: None) == [b"ok"] and entered == [1, 3]
