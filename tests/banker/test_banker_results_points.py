"""The locked sheet's result shows points where the format scores them (Championship Rules:
19-10-5-3 for a table of four in a championship) and no column of dashes in a club knockout, whose
tables send their winner on and score no points (Tournament Kit)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.selectors import banker_table_players
from tests.banker.banker_setup import BANKER, finished_tables, user_with
from tests.scoring.scoring_helpers import play
from tournament.models import Event, Table


def _result_table(format_key: str) -> str:
    table = finished_tables(players=4)[0]
    Event.objects.filter(pk=table.round.event_id).update(format=format_key)
    banker = user_with(BANKER, "banker")
    Table.objects.filter(pk=table.pk).update(banker=banker)
    players = banker_table_players(table=table)
    # Seat order richest first: places 1 to 4.
    play(table, {p: 4000 - 1000 * i for i, p in enumerate(players)})
    client = Client()
    client.force_login(banker)
    body = client.get(reverse("banker:banker_sheet", kwargs={"table_pk": table.pk})).content
    found = re.search(r'<table class="data-table sheet-results">(.*?)</table>', body.decode(), re.S)
    assert found
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


@pytest.mark.django_db
def test_a_championship_sheet_shows_the_rule_books_points():
    text = _result_table("championship")
    assert text.startswith("Place Player Net worth Points")
    assert text.endswith("$1,000 3")
    assert "$4,000 19" in text and "$3,000 10" in text and "$2,000 5" in text


@pytest.mark.django_db
def test_a_club_knockout_sheet_has_no_points_column():
    text = _result_table("club")
    assert text.startswith("Place Player Net worth 1 ")
    assert "Points" not in text and "–" not in text
