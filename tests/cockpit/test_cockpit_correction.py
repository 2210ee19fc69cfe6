"""The judge's correction: deeds by colour group in board order, as on the
banker's tablet, and the form hidden while the round is posted."""

from __future__ import annotations

import re

from scoring.services.posting import round_post, round_unpost
from tests.scoring.test_results_pages import login, url
from tests.scoring.test_results_pages import players as players
from tests.scoring.test_results_pages import round1 as round1
from tournament.formats import event_edition
from tournament.roles import JUDGE


def test_the_deeds_come_by_colour_group_in_board_order(client, event, round1):
    body = login(client, JUDGE).get(url("results_correct", event, round_number=1, table_number=1))
    html = body.content.decode()
    edition = event_edition(event=event)
    groups = re.findall(r'<tbody class="deed-group" data-group="([^"]+)">', html)
    assert groups == [key for key, group in edition.groups.items() if group.positions]
    positions = [int(p) for p in re.findall(r'<tr class="deed" data-position="(\d+)">', html)]
    expected = [pos for group in edition.groups.values() for pos in group.positions]
    assert positions == expected


def test_the_correction_is_hidden_until_the_posting_is_withdrawn(client, event, round1):
    client = login(client, JUDGE)
    round_post(round_=round1, by=None)
    correct = url("results_correct", event, round_number=1, table_number=1)
    html = client.get(correct).content.decode()
    assert 'id="correct-posted"' in html and 'id="correction-form"' not in html
    table_page = client.get(url("results_table", event, round_number=1, table_number=1))
    assert 'aria-describedby="correct-why"' in table_page.content.decode()
    round_unpost(round_=round1)
    assert 'id="correction-form"' in client.get(correct).content.decode()
