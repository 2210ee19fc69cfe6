"""SQLite, the `make run` default, is set up for a server and a worker sharing one file.

Each case asks SQLite itself, in a fresh process on a file of its own (settings are read
once per process): the journal is WAL, a write waits 20 s for the lock, and a transaction
holds the write lock from its first statement, before it has written anything. PostgreSQL
gets none of these options.
"""

from __future__ import annotations

import json

from tests.config.test_settings import run_django

PROBE = """
import django, json, sqlite3, sys
django.setup()
from django.db import connection, transaction
cursor = connection.cursor()
found = {}
for pragma in ("journal_mode", "busy_timeout", "synchronous"):
    cursor.execute(f"PRAGMA {pragma}")
    found[pragma] = cursor.fetchone()[0]
other = sqlite3.connect(sys.argv[1], timeout=0, isolation_level=None)
with transaction.atomic():
    connection.cursor().execute("SELECT 1")  # read only, nothing written yet
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
        found["another_could_write"] = True
    except sqlite3.OperationalError as error:
        found["another_could_write"] = str(error)
print(json.dumps(found))
"""


def probe(tmp_path, **env: str) -> dict:
    path = tmp_path / "probe.sqlite3"
    result = run_django(["-c", PROBE, str(path)], DATABASE_URL=f"sqlite:///{path}", **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_sqlite_runs_in_wal_waits_20_seconds_and_locks_when_a_transaction_begins(tmp_path):
    found = probe(tmp_path)
    assert found["journal_mode"] == "wal"
    assert found["busy_timeout"] == 20_000  # milliseconds
    assert found["synchronous"] == 1  # NORMAL (FULL is 2)
    # The transaction has only read, yet nobody else may write: its lock was taken at BEGIN.
    assert found["another_could_write"] == "database is locked"


def test_the_wait_can_be_changed(tmp_path):
    assert probe(tmp_path, BOARDWALK_SQLITE_TIMEOUT="3")["busy_timeout"] == 3_000


def test_postgresql_gets_none_of_sqlites_options():
    script = (
        "import django, json; from django.conf import settings; django.setup(); "
        "print(json.dumps(settings.DATABASES['default']['OPTIONS']))"
    )
    result = run_django(["-c", script], DATABASE_URL="postgres://postgres@127.0.0.1:5432/x")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {}
