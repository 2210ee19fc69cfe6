"""The judges' round page at a glance: each table's places (alias, net worth, points), its
status and what holds it up, without opening the table.

The truth is worked by hand: net worth by the Championship Rules' valuation (cash; a deed at its
printed price, half when mortgaged), points by the Championship Rules' table for the players still
in the game: 1 left 28; 2 left 25-14; 3 left 22-12-6; 4 left 19-10-5-3; 5 left 16-8-4-2-1; a
bankrupt player scores nothing. Sheets go through the services a tablet uses (submit, sign,
approve).
"""

from __future__ import annotations

import html
import re
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import results_board
from scoring.services.sheets import sheet_approve, sheet_submit
from scoring.services.signatures import sheet_sign
from tests.builders import players_with_aliases
from tests.scoring.results_pages import login, url
from tests.scoring.scoring_helpers import make_round, table_of
from tournament.models import Table
from tournament.roles import JUDGE

BOARDWALK, PARK_PLACE = 39, 37

# (aliases at the table, cash, bankrupt in the order they went out)
TABLES = {
    1: (["Ace", "Bell", "Cone", "Dart", "Echo"], [2000, 2500, 2000, 1500, 1000], []),
    2: (["Fig", "Gem", "Hop", "Ink"], [1800, 1200, 900], ["Ink"]),
    3: (["Jay", "Kit", "Lux", "Moe"], [2000, 2000, 1000, 800], []),
    4: (["Nib", "Oak", "Pip", "Quo"], None, []),
    5: (["Ray", "Sol", "Tor", "Uma"], [3000], ["Sol", "Tor", "Uma"]),
    6: (["Vat", "Wiz", "Yew", "Zed"], [1000, 1400], ["Yew", "Zed"]),
    7: (["Ada", "Bo", "Cy", "Di"], None, []),
}


def _data(people, aliases, cash, out, properties=()):
    players = [
        {"id": str(people[a].pk), "bankrupt": False, "cash": c}
        for a, c in zip(aliases, cash, strict=False)
    ]
    players += [
        {"id": str(people[a].pk), "bankrupt": True, "cash": 0, "out_order": n}
        for n, a in enumerate(out, start=1)
    ]
    return {"edition": "classic-us", "players": players, "properties": list(properties)}


def _submit(table, data):
    return sheet_submit(
        table=table, data=data, expected_version=0, submission_key=uuid.uuid4(), by=None
    )


def _sign_all(sheet, people, aliases, out):
    for alias in aliases:
        if alias not in out:
            sheet_sign(sheet=sheet, player=people[alias], initials=alias, by=None)
    sheet_sign(sheet=sheet, initials="BNK", by=None)


@pytest.fixture
def board_round(event):
    aliases = [a for seated, _cash, _out in TABLES.values() for a in seated]
    people = players_with_aliases(event, aliases=aliases)
    round_ = make_round(event, 1, [[people[a] for a in t[0]] for t in TABLES.values()])
    Table.objects.filter(pk=table_of(round_, 7).pk).update(status=Table.Status.PLAYING)
    # Table 1: Ace holds Boardwalk ($400) and Park Place mortgaged ($350 / 2 = $175).
    seated, cash, out = TABLES[1]
    deeds = [
        {"position": BOARDWALK, "owner": str(people["Ace"].pk), "mortgaged": False},
        {"position": PARK_PLACE, "owner": str(people["Ace"].pk), "mortgaged": True},
    ]
    sheet = _submit(table_of(round_, 1), _data(people, seated, cash, out, deeds))
    _sign_all(sheet, people, seated, out)
    sheet_approve(sheet=sheet, by=None)
    # Table 2: submitted, the players have not signed yet.
    seated, cash, out = TABLES[2]
    _submit(table_of(round_, 2), _data(people, seated, cash, out))
    # Table 3: signed, Jay and Kit level on everything: a tie for the head judge.
    seated, cash, out = TABLES[3]
    _sign_all(_submit(table_of(round_, 3), _data(people, seated, cash, out)), people, seated, out)
    # Tables 5 and 6: signed and approved, with bankruptcies.
    for number in (5, 6):
        seated, cash, out = TABLES[number]
        sheet = _submit(table_of(round_, number), _data(people, seated, cash, out))
        _sign_all(sheet, people, seated, out)
        sheet_approve(sheet=sheet, by=None)
    return round_


def _rows(body: str) -> dict[int, str]:
    return {
        int(n): row for n, row in re.findall(r'<tr id="table-(\d+)"(.*?)</tr>', body, flags=re.S)
    }


def _places(row: str) -> list[tuple[str, str, str, str]]:
    """(place, alias, net worth, points) as the page shows each line."""
    found = re.findall(
        r'<span class="board-place">([^<]*)</span>\s*<span class="alias">([^<]*).*?'
        r'<span class="board-worth">([^<]*)</span>\s*<span class="board-points">([^<]*)</span>',
        row,
        flags=re.S,
    )
    return [tuple(part.strip() for part in line) for line in found]


def _blockers(row: str) -> list[str]:
    found = re.findall(r"<li>([^<]*)</li>", row.split("data-blockers")[1].split("</td>")[0])
    return [html.unescape(b).strip() for b in found]


def test_each_table_shows_its_places_net_worth_and_points_worked_by_hand(client, board_round):
    body = login(client, JUDGE).get(url("results_round", board_round.event, round_number=1))
    rows = _rows(body.content.decode())
    # 5 left: 16-8-4-2-1. Ace: $2,000 + $400 + $175 = $2,575, ahead of Bell's $2,500.
    assert _places(rows[1]) == [
        ("1", "Ace", "$2,575", "16"),
        ("2", "Bell", "$2,500", "8"),
        ("3", "Cone", "$2,000", "4"),
        ("4", "Dart", "$1,500", "2"),
        ("5", "Echo", "$1,000", "1"),
    ]
    # 3 left: 22-12-6; Ink went bankrupt: last, nothing.
    assert _places(rows[2]) == [
        ("1", "Fig", "$1,800", "22"),
        ("2", "Gem", "$1,200", "12"),
        ("3", "Hop", "$900", "6"),
        ("4", "Ink", "$0", "0"),
    ]
    # Jay and Kit share first place, their points wait for the head judge; 4 left: 5 and 3.
    assert _places(rows[3]) == [
        ("1", "Jay", "$2,000", "–"),
        ("1", "Kit", "$2,000", "–"),
        ("3", "Lux", "$1,000", "5"),
        ("4", "Moe", "$800", "3"),
    ]
    # 1 left: 28. The last one out places above the first one out.
    assert _places(rows[5]) == [
        ("1", "Ray", "$3,000", "28"),
        ("2", "Uma", "$0", "0"),
        ("3", "Tor", "$0", "0"),
        ("4", "Sol", "$0", "0"),
    ]
    # 2 left: 25-14.
    assert _places(rows[6])[:2] == [("1", "Wiz", "$1,400", "25"), ("2", "Vat", "$1,000", "14")]
    assert _places(rows[4]) == [] and _places(rows[7]) == []


def test_each_table_says_what_holds_it_up(client, board_round):
    body = login(client, JUDGE).get(url("results_round", board_round.event, round_number=1))
    rows = _rows(body.content.decode())
    assert _blockers(rows[1]) == []
    assert "nothing holds it up" in rows[1]
    # Fig, Gem and Hop sign; Ink signed as they left.
    assert _blockers(rows[2]) == ["needs 3 player signatures"]
    assert "not signed yet" in rows[2]
    assert _blockers(rows[3]) == ["tie to decide", "needs a judge's approval"]
    assert _blockers(rows[4]) == ["waiting for the banker's sheet"]
    assert _blockers(rows[7]) == ["game still being played"]
    assert 'data-status="approved"' in rows[5] and 'data-status="entering"' in rows[2]


def test_still_open_shows_only_the_tables_something_holds_up(client, board_round):
    client = login(client, JUDGE)
    body = client.get(url("results_round", board_round.event, round_number=1) + "?show=open")
    page = body.content.decode()
    assert sorted(_rows(page)) == [2, 3, 4, 7]
    assert "Still open (4)" in page and "All tables (7)" in page


def test_a_page_of_tables_at_a_time_in_as_many_queries_for_many_tables_as_for_few(
    client, event, monkeypatch
):
    """500 tables are 10 pages of 50; here 3 to a page, and a round of 9 tables reads in
    no more queries than a round of 3."""
    monkeypatch.setattr(results_board, "RESULTS_PAGE_SIZE", 3)
    people = players_with_aliases(event, aliases=[f"P{n}" for n in range(48)])
    players = list(people.values())
    small = make_round(event, 1, [players[i : i + 4] for i in range(0, 12, 4)])
    big = make_round(event, 2, [players[i : i + 4] for i in range(12, 48, 4)])
    for round_ in (small, big):
        for table in Table.objects.filter(round=round_):
            seated = [s.player for s in table.seats.select_related("player")]
            sheet = _submit(table, _data(people, [p.alias for p in seated], [1500] * 4, []))
            _sign_all(sheet, people, [p.alias for p in seated], [])
    client = login(client, JUDGE)

    def queries(round_, page=1) -> tuple[int, str]:
        address = url("results_round", event, round_number=round_.number) + f"?page={page}"
        with CaptureQueriesContext(connection) as captured:
            response = client.get(address)
        assert response.status_code == 200
        return len(captured), response.content.decode()

    queries(small)  # warm: the session, the permissions
    few, _page = queries(small)
    many, first = queries(big)
    assert many <= few
    assert sorted(_rows(first)) == [1, 2, 3] and "Page 1 of 3" in first
    _count, last = queries(big, page=3)
    assert sorted(_rows(last)) == [7, 8, 9]
    assert all(_places(row) for row in _rows(last).values())
