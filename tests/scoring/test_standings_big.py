"""The organizer's standings at 2,000 players: a page of places at a time, a search by alias
or name that leads to the page and row, the head judge's tie decisions on the page holding
the tied rows, and the CSV file still holding everyone.

The event (tests/spectator/big_event.py): one posted round at 500 tables of four, points 4,
3, 2, 1 by seat, net worths 10,000 down by one in seat order, so the standings are the
4-pointers (seat 1 of every table, table order), then the 3-pointers, and so on: place
1,500 is the last 2-pointer, table 500's seat 3.
"""

from __future__ import annotations

import csv
import io
import re

import pytest

from scoring import standings_views
from scoring.models import ResultLine
from tests.scoring.results_pages import login, messages_of, url
from tests.spectator.big_event import PLAYERS, big_event
from tournament.models import Player
from tournament.roles import HEAD_JUDGE, ORGANIZER

SIZE = standings_views.STANDINGS_PAGE_SIZE
PAGES = -(-PLAYERS // SIZE)


@pytest.fixture
def seated(event) -> list[str]:
    return big_event(event)


def _row_ids(body: str) -> list[str]:
    return re.findall(r'<tr id="standing-(\d+)">', body)


def test_the_page_lists_one_page_of_places_and_links_to_the_last(client, event, seated):
    client = login(client, ORGANIZER)
    first = client.get(url("standings", event))
    body = first.content.decode()
    assert len(_row_ids(body)) == SIZE
    assert [r["row"].rank for r in first.context["rows"]] == list(range(1, SIZE + 1))
    # Place 1: table 1's seat 1, the highest net worth among the 4-pointers.
    assert first.context["rows"][0]["row"].alias == seated[0]
    assert 'rel="next"' in body and 'name="q"' in body

    last = client.get(url("standings", event), {"page": PAGES})
    rows = last.context["rows"]
    assert len(rows) == PLAYERS - (PAGES - 1) * SIZE
    # The last place: table 500's seat 4, the lowest net worth of all.
    assert (rows[-1]["row"].rank, rows[-1]["row"].alias) == (PLAYERS, seated[-1])
    assert rows[-1]["row"].player.full_name == f"First{PLAYERS - 1} Last{PLAYERS - 1}"


def test_finding_an_alias_or_a_name_goes_to_its_page_and_row(client, event, seated):
    client = login(client, ORGANIZER)
    last = Player.objects.get(event=event, alias=seated[-1])
    where = f"{url('standings', event)}?page={PAGES}#standing-{last.pk}"
    assert client.get(url("standings", event), {"q": seated[-1].upper()}).url == where
    by_name = client.get(url("standings", event), {"q": f"first{PLAYERS - 1} last{PLAYERS - 1}"})
    assert by_name.url == where

    missing = client.get(url("standings", event), {"q": "Nobody Here 12345"})
    assert missing.status_code == 200
    assert "No player in the standings matches what you typed." in missing.content.decode()


def test_a_tie_far_down_is_decided_on_its_own_page(client, event, seated):
    """Table 500's and table 499's seat 3 made level (the same net worth): they share place
    1,499, the last two 2-pointers, on page 30."""
    low = Player.objects.get(event=event, alias=seated[-2])  # table 500, seat 3
    high = Player.objects.get(event=event, alias=seated[-6])  # table 499, seat 3
    worth = ResultLine.objects.get(player=high).net_worth
    ResultLine.objects.filter(player=low).update(net_worth=worth)
    page = (1499 - 1) // SIZE + 1

    client = login(client, HEAD_JUDGE)
    top = client.get(url("standings", event))
    assert top.context["tie_forms"] == []
    assert top.context["ties_elsewhere"] == [{"ranks": 1499, "page": page}]
    assert f"?page={page}#standings-ties" in top.content.decode()

    theirs = client.get(url("standings", event), {"page": page})
    [tie] = theirs.context["tie_forms"]
    assert {r.player_id for r in tie["rows"]} == {low.pk, high.pk}
    decided = client.post(
        url("standings_tie", event),
        {
            "players": f"{high.pk},{low.pk}",
            "place_1": str(low.pk),
            "place_2": str(high.pk),
            "reason": "Coin toss",
            "page": str(page),
        },
    )
    assert decided.url == f"{url('standings', event)}?page={page}"
    after = client.get(decided.url)
    assert "Standings tie decided." in messages_of(after)
    ranks = {r["row"].player_id: (r["row"].rank, r["row"].tied) for r in after.context["rows"]}
    assert ranks[low.pk] == (1499, False) and ranks[high.pk] == (1500, False)


def test_the_csv_file_keeps_every_player(client, event, seated):
    client = login(client, ORGANIZER)
    response = client.get(url("standings_csv", event))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert len(rows) == PLAYERS + 1


def test_a_tie_across_two_pages_is_decided_on_either(client, event, seated):
    """Table 50's and table 51's seat 1 made level: places 50 and 51 become a shared 50th,
    the last row of page 1 and the first of page 2."""
    upper = Player.objects.get(event=event, alias=seated[49 * 4])  # table 50, seat 1
    lower = Player.objects.get(event=event, alias=seated[50 * 4])  # table 51, seat 1
    worth = ResultLine.objects.get(player=upper).net_worth
    ResultLine.objects.filter(player=lower).update(net_worth=worth)
    assert SIZE == 50  # the pages' boundary this tie sits on

    client = login(client, HEAD_JUDGE)
    for page in (1, 2):
        response = client.get(url("standings", event), {"page": page})
        [tie] = response.context["tie_forms"]
        assert {r.player_id for r in tie["rows"]} == {upper.pk, lower.pk}
        assert response.context["ties_elsewhere"] == []
