"""When a banker's sheet may be submitted: one rule, checked on both sides.

The cases in sheet_readiness_cases.json are the rule written out by hand; this module holds
the server to them, tests/browser/test_sheet_agrees_with_itself.py holds the tablet's
script to the same file. Then, on real tables: the page says "ready to submit" exactly
when the server accepts the submission.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from django.urls import reverse

from scoring.models import TableSheet
from scoring.selectors import banker_table_players
from scoring.sheet_readiness import submit_blockers
from tests.banker.banker_setup import BANKER, finished_tables, user_with
from tests.banker.offline_helpers import playing_table
from tournament.models import Table

CASES = json.loads((Path(__file__).parent / "sheet_readiness_cases.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: ",".join(c["blockers"]) or "ready")
def test_the_server_rule_gives_the_blockers_written_by_hand(case):
    assert submit_blockers(**case["facts"]) == case["blockers"]


def _entries(table: Table, *, cash: str) -> dict[str, str]:
    data = {"version": "0", "submission_key": str(uuid.uuid4())}
    for player in banker_table_players(table=table):
        data[f"cash_{player.pk}"] = cash
    return data


def _says_ready(client, table: Table, entries: dict[str, str]) -> bool:
    """What the page's live check says about ``entries``: ready, and the button enabled."""
    url = reverse("banker:sheet_validate", kwargs={"table_pk": table.pk})
    body = client.post(url, entries).content.decode()
    button = body.split('id="sheet-submit"')[1].split(">")[0]
    ready = "ready to submit" in body
    assert ready == ("disabled" not in button)
    return ready


def _accepted(client, table: Table, entries: dict[str, str]) -> bool:
    url = reverse("banker:sheet_submit", kwargs={"table_pk": table.pk})
    client.post(url, entries)
    return TableSheet.objects.filter(table=table, status=TableSheet.Status.SUBMITTED).exists()


@pytest.mark.parametrize(
    ("game_over", "cash", "ready"),
    [
        (True, "1500", True),
        # The sheet is right but the game is not over: not ready, and refused.
        (False, "1500", False),
        # Nothing entered.
        (True, "", False),
        # A count the form cannot take.
        (True, "-5", False),
    ],
)
def test_the_page_says_ready_exactly_when_the_server_accepts(client, db, game_over, cash, ready):
    table = finished_tables(players=4)[0] if game_over else playing_table()
    banker = user_with(BANKER, "banker")
    Table.objects.filter(pk=table.pk).update(banker=banker)
    client.force_login(banker)
    entries = _entries(table, cash=cash)
    assert _says_ready(client, table, entries) is ready
    assert _accepted(client, table, entries) is ready


def test_before_game_over_the_sheet_page_says_what_waits(client, db):
    table = playing_table()
    banker = user_with(BANKER, "banker")
    Table.objects.filter(pk=table.pk).update(banker=banker)
    client.force_login(banker)
    url = reverse("banker:sheet_validate", kwargs={"table_pk": table.pk})
    body = client.post(url, _entries(table, cash="1500")).content.decode()
    assert "No problems found. Submit once the game is marked over." in body
    assert 'disabled aria-describedby="sheet-game-not-over"' in body
