"""Banker pages: "Game over" is a second step that says what will happen, and an
empty sheet is not "ready to submit".

The requirement: "Nothing irreversible on one tap. No-show, eject, withdraw, game over [...]: a
confirmation that says what will happen" and "Disabled means disabled. [...] an empty sheet
is not 'ready to submit'."
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from banker.sheet_report import sheet_is_empty
from clock.services import clock_start
from scoring.models import TableSheet
from scoring.selectors import banker_table_players
from seating.services import preseat_event
from tests.banker.banker_setup import BANKER, finished_tables, user_with
from tests.builders import an_event, registered_players
from tournament.models import Round, Table


def _as_banker(client, table: Table, name: str = "banker"):
    banker = user_with(BANKER, name)
    Table.objects.filter(pk=table.pk).update(banker=banker)
    client.force_login(banker)
    return client


@pytest.fixture
def playing_table(db) -> Table:
    event = an_event(name="Confirm Cup", expected_players=4, table_size_min=4, table_size_max=4)
    registered_players(event, count=4, checked_in=False)
    preseat_event(event=event, only_checked_in=False)
    table = Table.objects.filter(round=Round.objects.get(event=event, number=1)).first()
    clock_start(wave=table.wave)
    return table


def test_game_over_is_a_second_step_that_says_what_happens(client, playing_table):
    client = _as_banker(client, playing_table)
    url = reverse("banker:banker_table", kwargs={"table_pk": playing_table.pk})
    body = client.get(url).content.decode()
    block = body.split('<details class="confirm-step" id="game-over">')[1].split("</details>")[0]
    # The first tap only opens the disclosure: its summary is not a submit button...
    summary = re.search(r"<summary[^>]*>(.*?)</summary>", block, re.S).group(1)
    assert "Game over" in summary and "<button" not in summary
    # ...the real submit sits inside, beside what it does.
    form = block.split("</summary>")[1]
    action = reverse("banker:table_finished", kwargs={"table_pk": playing_table.pk})
    assert f'action="{action}"' in form
    assert "Play stops at this table" in form and "score entry opens" in form
    assert "can be reopened until the score sheet is first saved" in form
    assert 'type="submit"' in form and "Yes, the game is over" in form
    # No inline script: the page keeps the strict CSP.
    assert "onclick" not in body and "<script>" not in body
    client.post(action)
    playing_table.refresh_from_db()
    assert playing_table.status == "finished"


def _sheet_url(table: Table, action: str = "") -> str:
    name = "banker:banker_sheet" if not action else f"banker:sheet_{action}"
    return reverse(name, kwargs={"table_pk": table.pk})


def _submit_button(body: str) -> str:
    return body.split('id="sheet-submit"')[1].split(">")[0]


@pytest.fixture
def finished_table(db) -> Table:
    return finished_tables(players=4)[0]


def test_an_empty_sheet_is_not_ready_and_says_why(client, finished_table):
    client = _as_banker(client, finished_table)
    body = client.get(_sheet_url(finished_table)).content.decode()
    # What the bar says (the page also hands every sentence to sheet.js, in #sheet-rule).
    bar = body.split('id="sheet-report"')[1].split('id="sheet-submit"')[0]
    assert "ready to submit" not in bar
    assert "Nothing entered yet" in bar
    assert 'disabled aria-describedby="sheet-empty"' in _submit_button(body)
    assert 'id="sheet-empty"' in body

    # The untouched form as the tablet posts it to the live check: still nothing entered.
    players = banker_table_players(table=finished_table)
    empty = {"version": "0", **{f"cash_{p.pk}": "" for p in players}}
    body = client.post(_sheet_url(finished_table, "validate"), empty).content.decode()
    assert "Nothing entered yet" in body and "disabled" in _submit_button(body)

    # One player's cash entered: ready, and the button is enabled.
    typed = {**empty, f"cash_{players[0].pk}": "1500"}
    body = client.post(_sheet_url(finished_table, "validate"), typed).content.decode()
    assert "ready to submit" in body and "Nothing entered yet" not in body
    assert "disabled" not in _submit_button(body)


def test_what_counts_as_entered():
    assert sheet_is_empty(data={"players": [{"id": "1", "bankrupt": False}], "properties": []})
    assert sheet_is_empty(data={"players": [{"id": "1", "cash": 0, "bills": {"500": 0}}]})
    assert not sheet_is_empty(data={"players": [{"id": "1", "cash": 20}]})
    assert not sheet_is_empty(data={"players": [{"id": "1", "bills": {"1": 3}}]})
    assert not sheet_is_empty(data={"players": [{"id": "1", "bankrupt": True, "cash": 0}]})
    assert not sheet_is_empty(data={"players": [], "properties": [{"position": 1, "owner": "1"}]})
    assert sheet_is_empty(data={"players": [], "properties": [{"position": 1, "owner": None}]})


def test_an_empty_sheet_posted_anyway_is_refused(client, finished_table):
    client = _as_banker(client, finished_table)
    players = banker_table_players(table=finished_table)
    empty = {"version": "0", **{f"cash_{p.pk}": "" for p in players}}
    response = client.post(_sheet_url(finished_table, "submit"), empty)
    assert response.status_code == 400
    assert "there is nothing to submit" in response.content.decode()
    assert not TableSheet.objects.filter(
        table=finished_table, status=TableSheet.Status.SUBMITTED
    ).exists()
