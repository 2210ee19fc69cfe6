"""SQLite's write lock held by someone else, for the tests of a busy database.

``Locker`` is another process holding the lock on a database file (``BEGIN IMMEDIATE``, as
a writer in the middle of a long transaction would) until the test releases it.
``locked_error`` is the error Django raises when a write meets such a lock past its
timeout: made for real, on a file of its own, so the code under test meets SQLite's own
words and Django's own wrapping, not a copy of them.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from django.db import OperationalError
from django.db.utils import ConnectionHandler

# The locker: takes the write lock, says so, holds it until a line arrives on its input
# (or 120 s pass, so a test that died cannot leave it behind), then says it let go.
LOCKER = """
import sqlite3, sys, select
db = sqlite3.connect(sys.argv[1], timeout=60, isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
select.select([sys.stdin], [], [], 120)
db.execute("ROLLBACK")
db.close()
print("released", flush=True)
"""


class Locker:
    """Another process holding SQLite's write lock on ``path`` until ``release()``."""

    def __init__(self, path: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", LOCKER, str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        said = self.process.stdout.readline().strip()
        if said != "locked":
            self.process.kill()
            raise RuntimeError(f"the locker did not take the lock: {said!r}")

    @property
    def holding(self) -> bool:
        return self.process.poll() is None

    def release(self) -> None:
        if not self.holding:
            return
        self.process.stdin.write("go\n")
        self.process.stdin.flush()
        said = self.process.stdout.readline().strip()
        self.process.wait(timeout=30)
        if said != "released":
            raise RuntimeError(f"the locker did not let go: {said!r}")

    def kill(self) -> None:
        if self.holding:
            self.process.kill()
            self.process.wait(timeout=30)


def _connection(path: Path, *, timeout: float):
    """A Django connection of its own to ``path`` (not the test database's)."""
    options = {"ENGINE": "django.db.backends.sqlite3", "NAME": str(path)}
    handler = ConnectionHandler({"default": {**options, "OPTIONS": {"timeout": timeout}}})
    return handler["default"]


def locked_error(folder: Path) -> OperationalError:
    """The OperationalError a Django write raises when another connection holds SQLite's
    write lock for longer than the write's timeout (here 0.05 s)."""
    path = folder / "locked.sqlite3"
    sqlite3.connect(path).execute("CREATE TABLE IF NOT EXISTS t (x)").connection.close()
    connection = _connection(path, timeout=0.05)
    locker = Locker(path)
    try:
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO t (x) VALUES (1)")
    except OperationalError as error:
        return error
    finally:
        locker.release()
        connection.close()
    raise AssertionError("the write went through a lock held by another process")


def missing_table_error(folder: Path) -> OperationalError:
    """The OperationalError SQLite raises for a table that does not exist: a bug or a
    migration not run, not a busy database."""
    connection = _connection(folder / "empty.sqlite3", timeout=5)
    try:
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO no_such_table (x) VALUES (1)")
    except OperationalError as error:
        return error
    finally:
        connection.close()
    raise AssertionError("a write to a missing table went through")
