"""The demo put back from its snapshot (tests/demo_rows.py) is the demo a build makes.

A fresh ``load_demo_event()`` and ``load_demo_rows()`` are compared row by row in every
table: the same number of rows, the same values, the references between rows the same (the
ids themselves may differ: each database numbers rows its own way), and every date and time
as far from the moment the snapshot was taken as the build's are from the moment it began.
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX as UNUSABLE
from django.contrib.auth.models import User
from django.db import models, transaction
from django.utils import timezone

from demo.event import load_demo_event
from tests import demo_rows
from tests.demo_rows import _stored_models, load_demo_rows
from tournament.models import Event

# The two builds are seconds apart, and the demo rounds some of its times from "now" (to the
# minute, a start to the quarter hour): a time may fall one step of its rounding later in
# one build than in the other, a date a day later at midnight.
CLOCK_SLACK = datetime.timedelta(minutes=2)
START_SLACK = datetime.timedelta(minutes=15)
DATE_SLACK = datetime.timedelta(days=1)


def _minutes(value: datetime.time) -> datetime.timedelta:
    return datetime.timedelta(hours=value.hour, minutes=value.minute, seconds=value.second)


def _without_run_time(value):
    """A seating report records how long its search ran, which no two builds share."""
    if isinstance(value, dict):
        return {key: item for key, item in value.items() if key != "seconds"}
    return value


def _everything() -> dict[type[models.Model], list[tuple]]:
    rows = {}
    for model in _stored_models():
        names = [field.attname for field in model._meta.concrete_fields]
        rows[model] = list(model._base_manager.order_by("pk").values_list(*names))
    return rows


def _made(play: bool, load, started: datetime.datetime | None = None):
    started = started or timezone.now()
    load(play=play)
    return started, _everything()


def _assert_same(built, loaded) -> None:
    (built_at, built_rows), (loaded_at, loaded_rows) = built, loaded
    ids = {}
    for model, rows in built_rows.items():
        assert len(loaded_rows[model]) == len(rows), model._meta.db_table
        pk = [f.attname for f in model._meta.concrete_fields].index(model._meta.pk.attname)
        ids[model] = {a[pk]: b[pk] for a, b in zip(rows, loaded_rows[model], strict=True)}
    for model, rows in built_rows.items():
        for a, b in zip(rows, loaded_rows[model], strict=True):
            for field, x, y in zip(model._meta.concrete_fields, a, b, strict=True):
                where = f"{model._meta.db_table}.{field.column}"
                if x is None or y is None:
                    assert x is y, where
                elif field.primary_key:
                    continue
                elif field.is_relation:
                    target = field.related_model._meta.concrete_model
                    assert ids[target].get(x, x) == y, where
                elif isinstance(field, models.DateTimeField):
                    assert abs((x - built_at) - (y - loaded_at)) <= CLOCK_SLACK, where
                elif isinstance(field, models.DateField):
                    assert abs(x - y) <= DATE_SLACK, where
                elif isinstance(field, models.TimeField):
                    assert abs(_minutes(x) - _minutes(y)) <= START_SLACK, where
                elif (model, field.attname) == (User, "password") and x.startswith(UNUSABLE):
                    # An unusable password is random: unusable in both is the same.
                    assert y.startswith(UNUSABLE), where
                elif field.column == "seating_report":
                    assert _without_run_time(x) == _without_run_time(y), where
                else:
                    assert x == y, where


@pytest.mark.django_db
@pytest.mark.parametrize("play", [True, False], ids=["played", "unplayed"])
def test_the_demo_put_back_is_the_demo_built(play, monkeypatch):
    # A snapshot of its own, taken now: one another test took minutes ago holds times
    # minutes older than this build's.
    monkeypatch.setattr(demo_rows, "_SNAPSHOTS", {})
    snapshot_taken = timezone.now()
    demo_rows.demo_snapshot(play=play)
    with transaction.atomic():
        built = _made(play, load_demo_event)
        assert Event.objects.exists()
        transaction.set_rollback(True)
    assert not Event.objects.exists()
    loaded = _made(play, load_demo_rows, started=snapshot_taken)
    _assert_same(built, loaded)
