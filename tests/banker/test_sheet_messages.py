"""The sheet's validation messages: one message per problem, shown once, at the
colour group when the problem is about the group, and the count says how many there are."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.selectors import banker_table_players
from tests.banker.banker_setup import BANKER, finished_tables, user_with
from tests.banker.test_banker_pages import form_data
from tests.url_names import qualified
from tournament.models import Table

# 000_…txt, HOUSES: "But you must build evenly, i.e., you cannot erect more than one house on
# any one property of any color-group until you have built one house on every property of
# that group." (the engine's uneven-building)
UNEVEN = "group is not built evenly"


@pytest.fixture
def table(db) -> Table:
    table = finished_tables(players=4)[0]
    return table


@pytest.fixture
def banker_client(client, table):
    banker = user_with(BANKER, "banker")
    Table.objects.filter(pk=table.pk).update(banker=banker)
    client.force_login(banker)
    return client


def _url(table: Table, name: str) -> str:
    return reverse(qualified(name), kwargs={"table_pk": table.pk})


def _texts(body: str) -> list[str]:
    """Every message paragraph on the page (deed, group, player and general)."""
    blocks = re.findall(r'class="sheet-msgs[^"]*"[^>]*>(.*?)</div>', body, re.S)
    return [p for block in blocks for p in re.findall(r"<p>(.*?)</p>", block, re.S)]


def test_an_uneven_group_is_one_message_at_the_group_and_counts_once(banker_client, table):
    boot = banker_table_players(table=table)[0]
    # Boot holds both dark blues with a hotel on Boardwalk and nothing on Park Place.
    data = form_data(table, owner_37=boot.pk, owner_39=boot.pk, buildings_39="hotel")
    body = banker_client.post(_url(table, "sheet_validate"), data).content.decode()
    texts = _texts(body)
    assert len([t for t in texts if UNEVEN in t]) == 1
    group = body.split('id="group-msgs-dark-blue"')[1].split("</div>")[0]
    assert UNEVEN in group
    for position in (37, 39):
        assert "<p>" not in body.split(f'id="deed-msgs-{position}"')[1].split("</div>")[0]
    assert "<p>" not in body.split(f'id="player-msgs-{boot.pk}"')[1].split("</div>")[0]
    assert "1 problem to fix." in body
    assert len(texts) == 1


def test_the_refused_page_shows_each_problem_once_and_counts_them(banker_client, table):
    boot, car = banker_table_players(table=table)[:2]
    # Two problems: the uneven dark blues (Boot), a house on a railroad (Car).
    data = form_data(
        table,
        owner_37=boot.pk,
        owner_39=boot.pk,
        buildings_39="hotel",
        owner_5=car.pk,
        mortgaged_5="on",
        owner_1=car.pk,
        buildings_1="1",
    )
    response = banker_client.post(_url(table, "sheet_submit"), data)
    assert response.status_code == 422
    body = response.content.decode()
    texts = _texts(body)
    assert len(texts) == len(set(texts)), texts
    count = int(re.search(r"(\d+) problems? to fix", body)[1])
    assert count == len(texts) >= 2
