"""The demo's rows, built once per test process and put back wherever a module needs them.

Building the played demo (``demo.event.load_demo_event``: a championship day, a knockout, a
junior event and a series, every sheet through the services) costs seconds, and a dozen
modules read it: built in each, it was a tenth of the suite's time. ``load_demo_rows`` builds
it once in a transaction that is rolled back, keeps every row it added, and writes those rows
back into the database when asked, in a fraction of the time. What comes back is what the
build made, row for row (``tests/demo/test_demo_rows.py`` compares them), dates and times
included: a clock that was running when the demo was built has run on since (minutes at most,
within one run of the suite).

The test processes of one run (pytest-xdist's workers) share the snapshot: the first to need
it builds it and leaves it in a file of the run's own (under the system's temporary
directory, named by the run's id), the others wait for it there and read it, so the demo is
built once per run, not once per process. Without xdist, the snapshot stays in the process.

Rows that existed before the build (the role groups, content types and permissions) stay
as they are; a build that changed one of them would not come back, so taking the snapshot
refuses it. A transactional test's flush makes those rows again under new ids: the snapshot
is carried over to them (its officials' role groups found by name) rather than built again.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import pickle
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from django.apps import apps
from django.contrib.auth.models import User
from django.core.management.color import no_style
from django.db import connection, models, transaction

from demo.event import DEMO_EVENT_NAME, DEMO_OFFICIALS, load_demo_event
from tournament.models import Event


@dataclass(frozen=True)
class TableRows:
    model: type[models.Model]
    fields: tuple[models.Field, ...]
    rows: tuple[tuple, ...]


@dataclass(frozen=True)
class DemoSnapshot:
    baseline: dict  # every row there was before the build, by model and id
    tables: tuple[TableRows, ...]
    # The rows of the baseline the demo's rows point at (its officials' role groups), by
    # model and id: their natural keys, to find them again under other ids.
    references: dict


_SNAPSHOTS: dict[bool, list[DemoSnapshot]] = {}


def _stored_models() -> list[type[models.Model]]:
    return [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed and not model._meta.proxy
    ]


def _rows(model: type[models.Model]) -> dict:
    fields = model._meta.concrete_fields
    names = [field.attname for field in fields]
    return {row[0]: row for row in model._base_manager.values_list("pk", *names).order_by()}


def _refuse_a_database_with_a_demo_in_the_way() -> None:
    """The demo makes its officials' accounts only where they are missing, and the rows put
    back name them by id: with events or those accounts already there, neither a snapshot
    taken nor one put back would be the demo."""
    usernames = [username for username, _ in DEMO_OFFICIALS]
    if Event.objects.exists() or User.objects.filter(username__in=usernames).exists():
        raise RuntimeError("the demo goes into a database without events or its officials")


def _baseline() -> dict:
    return {model: _rows(model) for model in _stored_models()}


def _take(play: bool, before: dict) -> DemoSnapshot:
    _refuse_a_database_with_a_demo_in_the_way()
    with transaction.atomic():
        load_demo_event(play=play)
        tables = []
        for model in before:
            after = _rows(model)
            changed = [pk for pk, row in before[model].items() if after.get(pk) != row]
            if changed:
                raise RuntimeError(
                    f"the demo changed rows it did not make ({model._meta.db_table} {changed}): "
                    "a snapshot of the rows it added would not give them back"
                )
            added = tuple(row[1:] for pk, row in after.items() if pk not in before[model])
            if added:
                tables.append(TableRows(model, tuple(model._meta.concrete_fields), added))
        references = _references(tables, before)
        transaction.set_rollback(True)
    return DemoSnapshot(baseline=before, tables=tuple(tables), references=references)


def _references(tables: list[TableRows], before: dict) -> dict:
    """The natural keys of the baseline's rows that ``tables`` point at, by model and id."""
    pointed: dict = {}
    for table in tables:
        for n, field in enumerate(table.fields):
            if field.is_relation and before.get(field.related_model):
                pointed.setdefault(field.related_model, set()).update(
                    row[n] for row in table.rows if row[n] is not None
                )
    return {
        model: {obj.pk: obj.natural_key() for obj in model._base_manager.filter(pk__in=sorted(pks))}
        for model, pks in pointed.items()
    }


def _carried_over(snapshot: DemoSnapshot, before: dict) -> DemoSnapshot | None:
    """The snapshot over a baseline made again under other ids, or None if it is not that.

    A transactional test's flush empties every table and the migrations' signal makes the
    content types, permissions and role groups again, the same rows under new ids: the
    demo's rows then come back with their references to those rows (its officials' role
    groups) moved to the new ids, found by natural key, rather than built again. Anything
    else in the way (a row more or fewer, a referenced row missing) and it is built."""
    if {model: len(rows) for model, rows in snapshot.baseline.items()} != {
        model: len(rows) for model, rows in before.items()
    }:
        return None
    if any(snapshot.baseline[t.model] != before[t.model] for t in snapshot.tables):
        return None  # the demo adds rows to a table whose rows were made again
    moved = {}
    for model, keys in snapshot.references.items():
        now = {obj.natural_key(): obj.pk for obj in model._base_manager.all()}
        if not set(keys.values()) <= set(now):
            return None
        moved[model] = {pk: now[key] for pk, key in keys.items()}
    tables = []
    for table in snapshot.tables:
        moves = [
            (n, moved[field.related_model])
            for n, field in enumerate(table.fields)
            if field.is_relation and field.related_model in moved
        ]
        rows = table.rows
        for n, ids in moves:
            rows = tuple((*row[:n], ids.get(row[n], row[n]), *row[n + 1 :]) for row in rows)
        tables.append(TableRows(table.model, table.fields, rows))
    references = {
        model: {moved[model][pk]: key for pk, key in keys.items()}
        for model, keys in snapshot.references.items()
    }
    return DemoSnapshot(baseline=before, tables=tuple(tables), references=references)


# Where the workers of one xdist run share their snapshots (None: each process its own).
_RUN = os.environ.get("PYTEST_XDIST_TESTRUNUID")
SHARED_DIR: Path | None = (
    Path(tempfile.gettempdir()) / "boardwalk-demo-rows" / _RUN if _RUN else None
)
# Runs older than this leave their files to be removed by the next run.
_FORGOTTEN_AFTER_SECONDS = 24 * 3600


def _as_file(snapshot: DemoSnapshot) -> bytes:
    """The snapshot with its models and fields by name, for another process to read."""
    return pickle.dumps(
        (
            {model._meta.label: rows for model, rows in snapshot.baseline.items()},
            [
                (table.model._meta.label, [f.attname for f in table.fields], table.rows)
                for table in snapshot.tables
            ],
            {model._meta.label: keys for model, keys in snapshot.references.items()},
        )
    )


def _from_file(data: bytes) -> DemoSnapshot:
    # Written by this run's own processes: the values exactly as the ORM read them.
    baseline, tables, references = pickle.loads(data)
    read = []
    for label, names, rows in tables:
        model = apps.get_model(label)
        by_name = {field.attname: field for field in model._meta.concrete_fields}
        read.append(TableRows(model, tuple(by_name[name] for name in names), rows))
    return DemoSnapshot(
        baseline={apps.get_model(label): rows for label, rows in baseline.items()},
        tables=tuple(read),
        references={apps.get_model(label): keys for label, keys in references.items()},
    )


def _forget_old_runs(root: Path) -> None:
    """Earlier runs' files (another process of this run may be removing them too)."""
    for run in root.iterdir():
        try:
            if time.time() - run.stat().st_mtime > _FORGOTTEN_AFTER_SECONDS:
                shutil.rmtree(run, ignore_errors=True)
        except FileNotFoundError:
            pass


def _shared(play: bool, before: dict, shared_dir: Path) -> DemoSnapshot:
    """This run's snapshot over these rows: read from the file another process left, or
    taken here and left for the others. A file lock makes the others wait for the one
    building it rather than build it too."""
    baseline_key = hashlib.sha256(
        repr(
            sorted((model._meta.label, sorted(rows.items())) for model, rows in before.items())
        ).encode()
    ).hexdigest()[:16]
    if not shared_dir.exists():
        shared_dir.mkdir(parents=True, exist_ok=True)
        _forget_old_runs(shared_dir.parent)
    kind = "played" if play else "unplayed"
    path = shared_dir / f"{kind}-{baseline_key}.pickle"
    with open(shared_dir / f"{path.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists():
            return _from_file(path.read_bytes())
        for other in sorted(shared_dir.glob(f"{kind}-*.pickle")):
            carried = _carried_over(_from_file(other.read_bytes()), before)
            if carried is not None:
                return carried
        snapshot = _take(play, before)
        written = path.with_suffix(".part")
        written.write_bytes(_as_file(snapshot))
        written.replace(path)
        return snapshot


def demo_snapshot(*, play: bool = True) -> DemoSnapshot:
    """The demo's rows over the rows the database holds now, taken the first time this
    run asks over these rows. The rows put back point at rows that were there (the
    role groups, say), by id: a database flushed since has them again under new ids, and
    gets the snapshot carried over to them (``_carried_over``)."""
    before = _baseline()
    taken = _SNAPSHOTS.setdefault(play, [])
    for snapshot in taken:
        if snapshot.baseline == before:
            return snapshot
    for snapshot in list(taken):
        carried = _carried_over(snapshot, before)
        if carried is not None:
            taken.append(carried)
            return carried
    if SHARED_DIR is None:
        taken.append(_take(play, before))
    else:
        taken.append(_shared(play, before, SHARED_DIR))
    return taken[-1]


@transaction.atomic
def load_demo_rows(*, play: bool = True) -> Event:
    """The demo as ``load_demo_event(play=...)`` makes it, from the snapshot; returns the
    championship. The database must hold no event yet, as for the demo itself."""
    _refuse_a_database_with_a_demo_in_the_way()
    snapshot = demo_snapshot(play=play)
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for table in snapshot.tables:
            columns = ", ".join(quote(field.column) for field in table.fields)
            marks = ", ".join(["%s"] * len(table.fields))
            sql = f"INSERT INTO {quote(table.model._meta.db_table)} ({columns}) VALUES ({marks})"
            cursor.executemany(
                sql,
                [
                    [
                        field.get_db_prep_save(value, connection)
                        for field, value in zip(table.fields, row, strict=True)
                    ]
                    for row in table.rows
                ],
            )
        # PostgreSQL's sequences must pass the ids written here (SQLite's follow by themselves).
        for statement in connection.ops.sequence_reset_sql(
            no_style(), [table.model for table in snapshot.tables]
        ):
            cursor.execute(statement)
    return Event.objects.get(name=DEMO_EVENT_NAME)
