"""The demo put back from its snapshot (tests/demo_rows.py) is the demo its build made.

The build the snapshot is taken from is watched: at its end, still inside its transaction,
every row of every table is read. After the rollback, ``load_demo_rows`` must give back
exactly those rows, ids, references and times included, and nothing else.
"""

from __future__ import annotations

import pytest

from demo.event import load_demo_event
from tests import demo_rows
from tests.demo_rows import _stored_models, load_demo_rows
from tournament.models import Event


def _everything() -> dict[str, list[tuple]]:
    rows = {}
    for model in _stored_models():
        names = [field.attname for field in model._meta.concrete_fields]
        rows[model._meta.db_table] = list(model._base_manager.order_by("pk").values_list(*names))
    return rows


@pytest.mark.django_db
@pytest.mark.parametrize("play", [True, False], ids=["played", "unplayed"])
@pytest.mark.parametrize("kept", ["in-process", "in-a-file"])
def test_the_demo_put_back_is_the_demo_built(play, kept, monkeypatch, tmp_path):
    built = {}
    builds = []

    def build_and_read(**kwargs):
        event = load_demo_event(**kwargs)
        built.update(_everything())
        builds.append(kwargs)
        return event

    # A snapshot of this test's own, so that its build is the one watched.
    monkeypatch.setattr(demo_rows, "_SNAPSHOTS", {})
    monkeypatch.setattr(demo_rows, "load_demo_event", build_and_read)
    monkeypatch.setattr(demo_rows, "SHARED_DIR", tmp_path / "run" if kept == "in-a-file" else None)
    demo_rows.demo_snapshot(play=play)
    assert built and not Event.objects.exists()  # built, then rolled back
    if kept == "in-a-file":
        # Another test process of the run: nothing in its memory, the file there.
        monkeypatch.setattr(demo_rows, "_SNAPSHOTS", {})

    load_demo_rows(play=play)
    assert len(builds) == 1
    loaded = _everything()
    for table, rows in built.items():
        assert loaded[table] == rows, table
