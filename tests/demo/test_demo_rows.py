"""The demo put back from its snapshot (tests/demo_rows.py) is the demo its build made.

The build the snapshot is taken from is watched: at its end, still inside its transaction,
every row of every table is read. After the rollback, ``load_demo_rows`` must give back
exactly those rows, ids, references and times included, and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from django.contrib.auth.models import Group, User
from django.db import transaction

from demo.event import load_demo_event
from tests import demo_rows
from tests.demo_rows import _stored_models, load_demo_rows
from tournament.models import Event
from tournament.roles import ensure_roles


def _everything() -> dict[str, list[tuple]]:
    rows = {}
    for model in _stored_models():
        names = [field.attname for field in model._meta.concrete_fields]
        rows[model._meta.db_table] = list(model._base_manager.order_by("pk").values_list(*names))
    return rows


def _officials_roles() -> dict[str, list[str]]:
    return {
        user.username: sorted(group.name for group in user.groups.all())
        for user in User.objects.prefetch_related("groups").order_by("username")
    }


@dataclass
class Watched:
    """What the watched build left at its end, still inside its transaction."""

    built: dict = field(default_factory=dict)  # every table's rows
    roles: dict = field(default_factory=dict)  # each user's role groups
    builds: list = field(default_factory=list)  # one entry per build


@pytest.fixture
def watched(monkeypatch, tmp_path) -> Watched:
    """A snapshot of this test's own, so that its build is the one watched, shared through
    a run directory of its own as the xdist workers share theirs."""
    watch = Watched()

    def build_and_read(**kwargs):
        event = load_demo_event(**kwargs)
        watch.built.update(_everything())
        watch.roles.update(_officials_roles())
        watch.builds.append(kwargs)
        return event

    monkeypatch.setattr(demo_rows, "_SNAPSHOTS", {})
    monkeypatch.setattr(demo_rows, "load_demo_event", build_and_read)
    monkeypatch.setattr(demo_rows, "SHARED_DIR", tmp_path / "run")
    return watch


def _put_back(play: bool, kept: str, monkeypatch) -> tuple[dict, dict]:
    """Every table's rows and the officials' roles with the demo put back, then rolled
    back; "in-a-file" stands for another test process of the run: nothing in its memory."""
    if kept == "in-a-file":
        monkeypatch.setattr(demo_rows, "_SNAPSHOTS", {})
    with transaction.atomic():
        load_demo_rows(play=play)
        loaded, roles = _everything(), _officials_roles()
        transaction.set_rollback(True)
    return loaded, roles


@pytest.mark.django_db
@pytest.mark.parametrize("play", [True, False], ids=["played", "unplayed"])
def test_the_demo_put_back_is_the_demo_built(play, watched, monkeypatch):
    """One watched build, put back twice: from the memory of the process that built it, and
    in another test process of the run (nothing in its memory) from the file it left."""
    demo_rows.demo_snapshot(play=play)
    assert watched.built and not Event.objects.exists()  # built, then rolled back
    for kept in ("in-process", "in-a-file"):
        loaded, _roles = _put_back(play, kept, monkeypatch)
        assert len(watched.builds) == 1, kept
        for table, rows in watched.built.items():
            assert loaded[table] == rows, (kept, table)


@pytest.mark.django_db
def test_a_process_alone_keeps_its_snapshot_in_memory(monkeypatch):
    """Outside an xdist run (no run to share with) the snapshot is taken in the process and
    kept there: taken once, whatever the number of asks."""
    taken = []

    def take(play, before):
        taken.append(play)
        return demo_rows.DemoSnapshot(baseline=before, tables=(), references={})

    monkeypatch.setattr(demo_rows, "_SNAPSHOTS", {})
    monkeypatch.setattr(demo_rows, "SHARED_DIR", None)
    monkeypatch.setattr(demo_rows, "_take", take)
    first = demo_rows.demo_snapshot(play=True)
    assert demo_rows.demo_snapshot(play=True) is first
    assert demo_rows.demo_snapshot(play=False) is not first
    assert taken == [True, False]


@pytest.mark.django_db
def test_after_a_flush_the_demo_comes_back_over_the_role_groups_made_again(watched, monkeypatch):
    """A transactional test's flush makes the role groups again under new ids; the demo
    put back there is the one built, its officials in the same roles, without a new build."""
    demo_rows.demo_snapshot(play=True)
    assert any(watched.roles.values())  # the officials have their roles
    # What the flush does to the groups: emptied, then made again by the migrations' signal.
    old_ids = set(Group.objects.values_list("pk", flat=True))
    Group.objects.all().delete()
    ensure_roles(None)
    assert old_ids.isdisjoint(Group.objects.values_list("pk", flat=True))
    for kept in ("in-process", "in-a-file"):
        loaded, roles = _put_back(True, kept, monkeypatch)
        assert len(watched.builds) == 1, kept
        assert roles == watched.roles, kept
        for table, rows in watched.built.items():
            if table not in ("auth_user_groups", "auth_group", "auth_group_permissions"):
                assert loaded[table] == rows, (kept, table)


@pytest.mark.django_db
def test_a_database_with_a_row_more_gets_the_demo_built_over_it(watched, monkeypatch):
    """Carried over only onto the same rows under other ids: a row more is not that."""
    demo_rows.demo_snapshot(play=False)
    Group.objects.create(name="Scorekeepers")
    monkeypatch.setattr(demo_rows, "_SNAPSHOTS", {})
    load_demo_rows(play=False)
    assert len(watched.builds) == 2
