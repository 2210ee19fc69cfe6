"""Telling a database that is busy or out of reach from a bug, and waiting it out.

Both the worker (which must outlive a locked or restarting database) and the pages (which
answer "Not saved: try again" instead of a server error, config/not_saved.py) ask the
same question of an error: would the same statement succeed a little later?
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypeVar

from django.db import DatabaseError, InterfaceError, OperationalError, connections

logger = logging.getLogger("jobs")

T = TypeVar("T")

# SQLite's own words when another connection holds the write lock past the busy timeout.
# "schema is locked" is the same wait in shared-cache mode (an in-memory database).
_SQLITE_BUSY = (
    "database is locked",
    "database table is locked",
    "database schema is locked",
    "database is busy",
)
# The waits between tries of ``patiently``, in seconds: quick at first, then every 30 s.
FIRST_WAIT = 0.5
LONGEST_WAIT = 30.0


def database_unavailable(error: BaseException) -> bool:
    """True for an error that says the database is busy or out of reach, not that the
    statement is wrong: SQLite's lock held past its timeout; on PostgreSQL, a connection
    that failed or was lost (psycopg raises OperationalError for those, and for a
    serialization failure, which also succeeds when tried again).

    SQLite also raises OperationalError for a missing table or column (a bug, or a
    migration not run): those stay errors, so they are seen and fixed.
    """
    if not isinstance(error, DatabaseError):
        return False
    if isinstance(error, InterfaceError):
        return True  # the connection is already closed
    if not isinstance(error, OperationalError):
        return False
    cause = error.__cause__ or error
    module = type(cause).__module__ or ""
    if module.startswith("sqlite3") or "sqlite" in module:
        return any(words in str(error).lower() for words in _SQLITE_BUSY)
    return True


def patiently(call: Callable[[], T], *, what: str, give_up_after: float = 300.0) -> T:
    """``call()``, tried again while the database is busy or out of reach, waiting longer
    each time, for up to ``give_up_after`` seconds; any other error is raised at once.

    A worker's writes that say a job is claimed, done or failed must not be lost to a lock
    someone else holds for a while: the job would wait for a worker that already gave up.
    """
    deadline = time.monotonic() + give_up_after
    wait = FIRST_WAIT
    while True:
        try:
            return call()
        except DatabaseError as error:
            if not database_unavailable(error) or time.monotonic() + wait > deadline:
                raise
            logger.warning(
                "%s: the database is busy or out of reach (%s); trying again in %.1f s.",
                what,
                error,
                wait,
            )
            _drop_broken_connections()
            time.sleep(wait)
            wait = min(wait * 2, LONGEST_WAIT)


def _drop_broken_connections() -> None:
    """Close this thread's connections that are not inside a transaction, so the next try
    opens a fresh one (a lost PostgreSQL connection stays lost); one inside a transaction
    belongs to the caller's atomic block, which rolls it back itself."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            try:
                connection.close()
            except DatabaseError:
                pass
