"""The tournament app's migrations 0001-0022 squashed into one (0001_squashed_0022_tournament).

A database migrated on the tree before the squash upgrades with ``migrate`` and keeps its
rows; a database stopped partway goes on through the old files, data fixes included; a new
database migrates through the squash alone and ends with the old chain's models, tables
and roles. Each test runs on SQLite and on PostgreSQL (DATABASE_URL).
"""

from __future__ import annotations

import datetime
from io import StringIO

import pytest
from django.apps import apps as django_apps
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

from scoring.models import TableSheet
from tournament.models import Clock, Event, Player, Round, Seat, Table

SQUASH = ("tournament", "0001_squashed_0022_tournament")
OLD_LEAF = ("tournament", "0022_idempotency_bound_to_action_and_official_writes")
AT = datetime.datetime(2030, 6, 1, 9, 30, tzinfo=datetime.UTC)
ALIASES = ["Boot", "Iron", "Thimble", "Racecar"]


def old_tree() -> MigrationExecutor:
    """An executor that sees the migrations as the tree before the squash did: the old
    files only, and no squash to record once they are all applied."""
    executor = MigrationExecutor(connection)
    loader = MigrationLoader(connection, replace_migrations=False)
    squash = loader.replacements.pop(SQUASH)
    loader.graph.remove_replacement_node(SQUASH, squash.replaces)
    executor.loader = loader
    return executor


def migrate_to_latest() -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    return MigrationExecutor(connection)


def unapply_tournament() -> None:
    """No tournament table left, nor any of the apps depending on them."""
    MigrationExecutor(connection).migrate([("tournament", None)])


def fill(apps) -> None:
    """An event as the old tree stored it: four players seated at one table of round 1,
    the table's score sheet and a wave's clock with two logged actions."""
    user = apps.get_model("auth", "User").objects.create(username="olive")
    event = apps.get_model("tournament", "Event").objects.create(
        name="Boardwalk Open",
        organization="Atlantic Avenue Club",
        venue="Library Annex",
        date=datetime.date(2030, 6, 1),
        start_time=datetime.time(9, 30),
        format="club",
    )
    Player = apps.get_model("tournament", "Player")
    players = [
        Player.objects.create(
            event=event,
            first_name=alias,
            last_name="Player",
            date_of_birth=datetime.date(1990, 1, 1),
            signature=f"{alias} Player",
            signed_at=AT,
            alias=alias,
        )
        for alias in ALIASES
    ]
    round_ = apps.get_model("tournament", "Round").objects.create(event=event, number=1)
    wave = apps.get_model("tournament", "Wave").objects.create(round=round_, number=1)
    table = apps.get_model("tournament", "Table").objects.create(
        round=round_, wave=wave, number=1, banker=user
    )
    Seat = apps.get_model("tournament", "Seat")
    for position, player in enumerate(players, start=1):
        Seat.objects.create(round=round_, table=table, player=player, position=position)
    apps.get_model("scoring", "TableSheet").objects.create(table=table, data={"net": [1500]})
    clock = apps.get_model("tournament", "Clock").objects.create(
        wave=wave, duration_seconds=5400, started_at=AT
    )
    ClockAction = apps.get_model("tournament", "ClockAction")
    ClockAction.objects.create(clock=clock, kind="start", at=AT)
    ClockAction.objects.create(clock=clock, kind="pause", at=AT + datetime.timedelta(minutes=5))


def assert_the_event_is_there() -> None:
    """Read back with today's models: every column they select exists, every row is kept."""
    event = Event.objects.get()
    assert event.name == "Boardwalk Open"
    assert sorted(Player.objects.filter(event=event).values_list("alias", flat=True)) == sorted(
        ALIASES
    )
    table = Table.objects.get(round=Round.objects.get(event=event, number=1), number=1)
    seated = Seat.objects.filter(table=table).order_by("position")
    assert [seat.player.alias for seat in seated] == ALIASES
    assert table.banker.username == "olive"
    assert TableSheet.objects.get(table=table).data == {"net": [1500]}
    assert Clock.objects.get().actions.count() == 2


def upgrade_from_the_old_tree() -> None:
    """Migrate on the old tree, store an event, then migrate on this one: the rows stay."""
    old = old_tree()
    old_leaves = old.loader.graph.leaf_nodes()
    old.migrate(old_leaves)
    fill(old.loader.project_state(old_leaves).apps)
    recorder = MigrationRecorder(connection)
    assert OLD_LEAF in recorder.applied_migrations()
    assert SQUASH not in recorder.applied_migrations()

    new = MigrationExecutor(connection)
    # Every migration it replaces is applied, so the squash counts as applied and nothing
    # is left to run; the other apps' dependencies on replaced migrations (scoring on
    # 0004_clock, series on 0010_series_ends_with_qualifiers) now lead to it.
    assert SQUASH in new.loader.applied_migrations
    # What is left to run came after the squash (its own successors), never a replaced one.
    left = [(m.app_label, m.name) for m, _ in new.migration_plan(new.loader.graph.leaf_nodes())]
    assert all(SQUASH in new.loader.graph.forwards_plan(step) for step in left)
    for child in [("scoring", "0001_initial"), ("series", "0001_initial")]:
        assert SQUASH in {parent.key for parent in new.loader.graph.node_map[child].parents}
    new.migrate(new.loader.graph.leaf_nodes())

    assert SQUASH in recorder.applied_migrations()
    MigrationLoader(connection).check_consistent_history(connection)
    shown = StringIO()
    call_command("showmigrations", "tournament", stdout=shown)
    lines = shown.getvalue().split("\n")[1:]
    # The squash stands for the 27 files it replaces; what came after it is applied too.
    assert lines[0] == " [X] 0001_squashed_0022_tournament (27 squashed migrations)"
    assert all(line.startswith(" [X] 00") for line in lines[1:] if line)
    assert_the_event_is_there()


@pytest.mark.django_db(transaction=True)
def test_a_database_stopped_partway_goes_on_through_the_old_files_and_their_data_fixes():
    try:
        unapply_tournament()
        old = old_tree()
        partway = [
            ("tournament", "0014_undo_game_over_and_reseat"),
            ("scoring", "0002_banker_link"),
        ]
        old.migrate(partway)
        fill(old.loader.project_state(partway).apps)

        new = MigrationExecutor(connection)
        # Partly applied: the squash cannot be used and the old files run instead.
        assert SQUASH not in new.loader.graph.nodes
        steps = [(m.app_label, m.name) for m, _ in new.migration_plan([OLD_LEAF])]
        assert steps[0] == ("tournament", "0015_clock_version") and steps[-1] == OLD_LEAF
        migrate_to_latest()

        assert SQUASH in MigrationRecorder(connection).applied_migrations()
        assert_the_event_is_there()
        # The old files' data fixes, elided from the squash only, still ran here: the
        # clock's version is its two logged actions, the club event posts from signed sheets.
        assert Clock.objects.get().version == 2
        assert Event.objects.get().judge_approves_sheets is False
    finally:
        migrate_to_latest()


def tables() -> dict[str, tuple[set, list]]:
    """The tournament tables as the database describes them: columns and constraints."""
    introspection = connection.introspection
    with connection.cursor() as cursor:
        names = [
            name for name in introspection.table_names(cursor) if name.startswith("tournament_")
        ]
        described = {}
        for name in names:
            description = introspection.get_table_description(cursor, name)
            columns = {tuple(column) for column in description}
            constraints = sorted(
                (
                    # SQLite names its foreign keys by their place; PostgreSQL names them all.
                    key if connection.vendor == "postgresql" else "",
                    tuple(value["columns"]),
                    value["primary_key"],
                    value["unique"],
                    str(value["foreign_key"]),
                    value["check"],
                    value["index"],
                )
                for key, value in introspection.get_constraints(cursor, name).items()
            )
            described[name] = (columns, constraints)
    return described


@pytest.mark.django_db(transaction=True)
def test_a_new_database_migrates_through_the_squash_and_an_old_one_upgrades_with_its_rows():
    try:
        unapply_tournament()
        Group.objects.all().delete()
        new = MigrationExecutor(connection)
        leaves = new.loader.graph.leaf_nodes()
        plan = [(m.app_label, m.name) for m, _ in new.migration_plan(leaves)]
        ours = [step for step in plan if step[0] == "tournament"]
        # The squash first, then only what came after it: none of the replaced files runs.
        assert ours[0] == SQUASH
        assert all(SQUASH in new.loader.graph.forwards_plan(step) for step in ours[1:])
        new.migrate(leaves)
        through_the_squash = tables()
        models = django_apps.get_app_config("tournament").get_models()
        assert set(through_the_squash) == {model._meta.db_table for model in models}
        roles = {
            group.name: set(group.permissions.values_list("codename", flat=True))
            for group in Group.objects.all()
        }
        assert roles == {
            "Organizer": {"manage_event", "head_judge_event", "judge_event"},
            "Head judge": {"head_judge_event", "judge_event"},
            "Judge": {"judge_event"},
            "Banker": {"bank_event"},
        }

        unapply_tournament()
        upgrade_from_the_old_tree()
        assert tables() == through_the_squash
    finally:
        migrate_to_latest()


def test_the_squash_ends_in_the_old_chains_models():
    loader = MigrationLoader(None, replace_migrations=False)
    old = loader.project_state(OLD_LEAF).models
    squashed = loader.project_state(SQUASH).models
    tournament_models = {key for key in old if key[0] == "tournament"}
    assert tournament_models == {key for key in squashed if key[0] == "tournament"}
    for key in sorted(tournament_models):
        assert squashed[key] == old[key], key
