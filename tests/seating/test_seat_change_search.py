"""The seat-change page at a 2,000-player round: a search, not a select of everyone.

The round is written in bulk (big_round.py): table N holds the players N*4-3 to N*4 in
pk order, so who sits where is known without reading the page. The page is asked for
as a judge would use it: search, follow the links that choose, price, confirm.
"""

from __future__ import annotations

import html as html_lib
import re

import pytest

from seating.change_views import FIND_LIMIT
from tests.builders import an_event
from tests.seating.big_round import big_round
from tests.seating.test_seating_pages import log_in, seats_of, url
from tournament.models import Player
from tournament.roles import JUDGE


@pytest.fixture
def big(db):
    event = an_event(name="Harbour Championship")
    big_round(event)
    return event, list(Player.objects.filter(event=event).order_by("pk"))


def _rows(page: str) -> list[str]:
    return re.findall(r'<tr class="seat-found">(.*?)</tr>', page, re.S)


def _link(row: str, label: str) -> str:
    match = re.search(r'href="([^"]*)">' + re.escape(label) + "<", row)
    assert match, f"no {label!r} link in {row!r}"
    return html_lib.unescape(match.group(1))


def test_the_page_does_not_list_two_thousand_players(client, big):
    event, people = big
    page = log_in(client, JUDGE).get(url("seating_change", event, round_number=1))
    body = page.content.decode()
    assert page.status_code == 200
    assert len(page.content) < 50_000  # the select of everyone was over 800 KB
    assert body.count("<option") < 20  # the language menu's, not 2,000 players'
    assert _rows(body) == []
    assert people[0].alias not in body and people[-1].alias not in body
    assert 'name="find"' in body and 'method="get"' in body


def test_a_search_finds_a_player_by_alias_and_a_table_by_number(client, big):
    event, people = big
    client = log_in(client, JUDGE)
    change = url("seating_change", event, round_number=1)
    wanted = people[1234]  # the 1,235th player: table 309, seat 3
    rows = _rows(client.get(change, {"find": wanted.alias.upper()}).content.decode())
    assert 1 <= len(rows) <= FIND_LIMIT
    mine = [row for row in rows if f">{wanted.alias}<" in row]
    assert len(mine) == 1 and "<td>309</td>" in mine[0]

    rows = _rows(client.get(change, {"find": "137"}).content.decode())
    at_137 = [row for row in rows if "<td>137</td>" in row]
    # Table 137 holds players 545 to 548 (pk order, from 1); aliases with 137 may match too.
    assert len(at_137) == 4
    assert all(f">{p.alias}<" in row for p, row in zip(people[544:548], at_137, strict=True))
    for row in rows:
        if "<td>137</td>" not in row:
            assert "137" in re.search(r'class="alias">(.*?)<', row).group(1)


def test_a_common_word_shows_one_page_and_says_how_many_match(client, big):
    event, people = big
    client = log_in(client, JUDGE)
    body = client.get(url("seating_change", event, round_number=1), {"find": "a"}).content
    body = body.decode()
    total = sum("a" in p.alias.lower() for p in people)
    assert total > FIND_LIMIT
    assert len(_rows(body)) == FIND_LIMIT
    assert f"{total} seats match." in body
    assert "type more of the alias" in body


def test_a_swap_chosen_through_the_search_is_priced_then_made(client, big):
    event, people = big
    client = log_in(client, JUDGE)
    change = url("seating_change", event, round_number=1)
    a, b = people[5], people[1998]  # table 2 and table 500
    before = seats_of(event, 1)
    assert (before[a.pk][0], before[b.pk][0]) == (2, 500)

    (row,) = [
        r for r in _rows(client.get(change, {"find": a.alias}).content.decode()) if a.alias in r
    ]
    chosen = client.get(_link(row, "Choose as the player")).content.decode()
    assert f'name="player" value="{a.pk}"' in chosen  # carried in the search form
    # Search again for the second player: the first stays chosen.
    again = client.get(change, {"find": b.alias, "player": a.pk}).content.decode()
    row = next(r for r in _rows(again) if b.alias in r)
    both = client.get(_link(row, "Swap with this player")).content.decode()
    form = both[both.index('class="stacked-form narrow seat-change"') :]
    form = form[: form.index("</form>")]
    assert f'name="player" value="{a.pk}"' in form
    assert f'name="swap_with" value="{b.pk}"' in form
    assert 'name="idempotency_key"' in form

    preview = client.post(change, {"player": a.pk, "swap_with": b.pk}).content.decode()
    assert 'name="confirm" value="1"' in preview
    assert f"{a.alias} ({a.full_name}) goes from table 2 to table 500." in html_lib.unescape(
        preview
    )
    assert seats_of(event, 1) == before  # priced, not made

    done = client.post(
        change, {"player": a.pk, "swap_with": b.pk, "confirm": "1", "from_table": "2"}
    )
    assert done.status_code == 302
    after = seats_of(event, 1)
    assert (after[a.pk], after[b.pk]) == (before[b.pk], before[a.pk])
    assert "have swapped seats" in client.get(done.url).content.decode()


def test_a_move_to_a_typed_table_is_checked_by_the_service(client, big):
    event, people = big
    client = log_in(client, JUDGE)
    change = url("seating_change", event, round_number=1)
    mover = people[0]
    body = client.post(change, {"player": mover.pk, "to_table": 9999}).content.decode()
    assert "There is no table 9999." in body
    assert f'name="player" value="{mover.pk}"' in body  # the choice is kept
    assert seats_of(event, 1)[mover.pk][0] == 1
