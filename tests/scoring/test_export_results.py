"""`manage.py export_results`: the event's results and standings as CSV files on disk.

Checked against the database the simulated day wrote (every result line appears once, with
its points) and against the rule: a player's standings points are the sum of their
preliminary table points.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from demo.simulation import event_simulate
from scoring.models import ResultLine
from tests.builders import built_once_for_the_module
from tournament.models import Event, Player, Round, Table


def read(path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def simulated_once(django_db_setup, django_db_blocker):
    with built_once_for_the_module(django_db_blocker):
        yield event_simulate(players=16, seed=3).event.pk


@pytest.fixture
def simulated(db, simulated_once) -> Event:
    return Event.objects.get(pk=simulated_once)


def test_every_result_line_and_the_standings_are_exported(tmp_path, simulated):
    event = simulated
    out = StringIO()
    call_command("export_results", str(event.pk), "--out", str(tmp_path), stdout=out)

    preliminary = Round.objects.filter(event=event, kind=Round.Kind.PRELIMINARY)
    points_by_alias: dict[str, Decimal] = defaultdict(Decimal)
    for round_ in preliminary:
        rows = read(tmp_path / f"event-{event.pk}-round-{round_.number}-results.csv")
        lines = ResultLine.objects.filter(table__round=round_).select_related("player", "table")
        assert len(rows) == lines.count() > 0
        exported = {(r["Table"], r["Alias"], r["Net worth"], r["Points"]) for r in rows}
        for line in lines:
            assert (
                str(line.table.number),
                line.player.alias,
                str(line.net_worth),
                f"{line.points.normalize():f}",
            ) in exported
        for row in rows:
            points_by_alias[row["Alias"]] += Decimal(row["Points"])

    standings = read(tmp_path / f"event-{event.pk}-standings-all.csv")
    assert {row["Alias"]: Decimal(row["Points"]) for row in standings} == points_by_alias
    assert f"event-{event.pk}-standings-all.csv" in out.getvalue()


@pytest.mark.django_db
def test_an_unknown_event_is_a_clear_error(tmp_path):
    with pytest.raises(CommandError, match="No event with id 999"):
        call_command("export_results", "999", "--out", str(tmp_path))


def test_the_seating_file_names_stage_seat_and_play_order(tmp_path, simulated):
    event = simulated
    out = StringIO()
    call_command("export_results", str(event.pk), "--out", str(tmp_path), stdout=out)
    path = tmp_path / f"event-{event.pk}-seating.csv"
    assert str(path) in out.getvalue()
    with path.open(encoding="utf-8") as handle:
        assert handle.readline().strip() == "Round,Stage,Table,Seat,Alias,Play order"
    rows = read(path)
    assert {(r["Round"], r["Stage"]) for r in rows} == {
        ("1", "preliminary"),
        ("2", "preliminary"),
        ("3", "preliminary"),
        ("4", "final"),
    }
    tables: dict[tuple[str, str], list[dict[str, str]]] = defaultdict(list)
    for row in rows:
        tables[(row["Round"], row["Table"])].append(row)
    rolled = 0
    for (round_number, number), seats in tables.items():
        table = Table.objects.get(round__event=event, round__number=round_number, number=number)
        assert [int(s["Seat"]) for s in seats] == list(range(1, len(seats) + 1))
        if not table.play_order:
            assert {s["Play order"] for s in seats} == {""}
            continue
        rolled += 1
        # Championship Rules: "the highest roller going first, play then continues to the left": the
        # starter's seat k plays 1, seat j plays ((j - k) mod n) + 1.
        starter = Player.objects.get(pk=table.play_order["starter"]).alias
        k = next(int(s["Seat"]) for s in seats if s["Alias"] == starter)
        n = len(seats)
        for s in seats:
            assert int(s["Play order"]) == (int(s["Seat"]) - k) % n + 1
        rolls = table.play_order["order_rolls"]
        first_throw = {pid: values[0] for pid, values in rolls.items()}
        assert first_throw[str(table.play_order["starter"])] == max(first_throw.values())
    assert rolled >= 3


def test_the_results_files_name_each_rows_stage(tmp_path, simulated):
    event = simulated
    call_command("export_results", str(event.pk), "--out", str(tmp_path), stdout=StringIO())
    for round_ in Round.objects.filter(event=event):
        rows = read(tmp_path / f"event-{event.pk}-round-{round_.number}-results.csv")
        assert {row["Stage"] for row in rows} <= {round_.kind}
        if round_.kind == Round.Kind.PRELIMINARY:
            assert rows and {row["Stage"] for row in rows} == {"preliminary"}
