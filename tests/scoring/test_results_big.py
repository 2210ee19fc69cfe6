"""A round's results page at 2,000 players (500 tables, tests/spectator/big_event.py): one
page of tables at a time, and the last table reached by the page links."""

from __future__ import annotations

import re

import pytest

from scoring import results_board
from tests.scoring.results_pages import login, url
from tests.spectator.big_event import PLAYERS, TABLE_SIZE, big_event
from tournament.roles import JUDGE

TABLES = PLAYERS // TABLE_SIZE
SIZE = results_board.RESULTS_PAGE_SIZE


@pytest.fixture
def seated(event) -> list[str]:
    return big_event(event)


def _tables_listed(body: str) -> list[int]:
    return [int(n) for n in re.findall(r'results/1/tables/(\d+)/"', body)]


def test_one_page_of_tables_and_the_last_one_on_the_last_page(client, event, seated):
    client = login(client, JUDGE)
    first = client.get(url("results_round", event, round_number=1))
    assert first.context["table_count"] == TABLES
    assert [row.number for row in first.context["board"].rows] == list(range(1, SIZE + 1))
    body = first.content.decode()
    assert set(_tables_listed(body)) == set(range(1, SIZE + 1))
    assert 'rel="next"' in body

    pages = -(-TABLES // SIZE)
    last = client.get(url("results_round", event, round_number=1), {"page": pages})
    rows = last.context["board"].rows
    assert rows[-1].number == TABLES
    assert TABLES in _tables_listed(last.content.decode())
