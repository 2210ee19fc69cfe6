"""The demo's rows, built once per test process and put back wherever a module needs them.

Building the played demo (``demo.event.load_demo_event``: a championship day, a knockout, a
junior event and a series, every sheet through the services) costs seconds, and a dozen
modules read it: built in each, it was a tenth of the suite's time. ``load_demo_rows`` builds
it once in a transaction that is rolled back, keeps every row it added, and writes those rows
back into the database when asked, in a fraction of the time. What comes back is what the
build made, row for row (``tests/demo/test_demo_rows.py`` compares them), with one change: every
date and time is moved on by the time since the build, so a clock that was running, a
deadline or a "minutes ago" reads as it did the moment the demo was built.

Rows that existed before the build (the role groups, content types and permissions) stay
as they are; a build that changed one of them would not come back, so taking the snapshot
refuses it.
"""

from __future__ import annotations

from dataclasses import dataclass

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
        transaction.set_rollback(True)
    return DemoSnapshot(baseline=before, tables=tuple(tables))


def demo_snapshot(*, play: bool = True) -> DemoSnapshot:
    """The demo's rows over the rows the database holds now, taken the first time this
    process asks over these rows. The rows put back point at rows that were there (the
    role groups, say), by id: a database flushed since has them again under new ids, and
    gets a snapshot of its own."""
    before = _baseline()
    taken = _SNAPSHOTS.setdefault(play, [])
    for snapshot in taken:
        if snapshot.baseline == before:
            return snapshot
    taken.append(_take(play, before))
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
