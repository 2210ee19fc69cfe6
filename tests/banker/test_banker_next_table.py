"""A banker with several tables goes on in one tap: once a sheet is locked, its page offers
the table /bank/ would put first (the next sheet to finish here), and nothing when this was
the banker's last job or when the sheet was opened without signing in (a table card's link).
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.selectors import banker_table_players
from tests.banker.banker_setup import BANKER, finished_tables, user_with
from tests.scoring.scoring_helpers import play
from tournament.models import Table


def _sheet(table: Table) -> str:
    return reverse("banker:banker_sheet", kwargs={"table_pk": table.pk})


def _next_links(body: str) -> list[tuple[str, str]]:
    return [
        (href, " ".join(words.split()))
        for href, words in re.findall(
            r'<a class="[^"]*" data-next-table href="([^"]+)">([^<]+)</a>', body
        )
    ]


def _signed(table: Table) -> None:
    players = banker_table_players(table=table)
    play(table, {p: 1000 + 100 * i for i, p in enumerate(players)})


@pytest.fixture
def two_tables(db):
    """Tables 1 and 2 of a round, both games over, banked by one banker."""
    banker = user_with(BANKER, "banker")
    first, second = finished_tables(players=8)
    Table.objects.filter(pk__in=(first.pk, second.pk)).update(banker=banker)
    client = Client()
    client.force_login(banker)
    return client, first, second


def test_a_locked_sheet_leads_to_the_bankers_next_sheet(two_tables):
    client, first, second = two_tables
    _signed(first)
    body = client.get(_sheet(first)).content.decode()
    assert "data-locked" in body
    assert _next_links(body) == [(_sheet(second), "Your next table: Table 2 · Round 1")]


def test_the_last_locked_sheet_leads_nowhere_but_my_tables(two_tables):
    client, first, second = two_tables
    _signed(first)
    _signed(second)
    body = client.get(_sheet(second)).content.decode()
    assert "data-locked" in body and _next_links(body) == []


def test_a_sheet_still_to_sign_offers_no_next_table(two_tables):
    client, first, _second = two_tables
    assert _next_links(client.get(_sheet(first)).content.decode()) == []
