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
from tournament.models import Round


def read(path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


@pytest.mark.django_db
def test_every_result_line_and_the_standings_are_exported(tmp_path):
    event = event_simulate(players=16, seed=3).event
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
