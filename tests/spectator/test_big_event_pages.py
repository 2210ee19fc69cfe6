"""The public pages of a 2,000-player event stay light for a phone: each answer is at most
60 KiB on the wire to a browser that accepts gzip, long lists come a page at a time with
plain links to every other page, "find an alias" leads to the page and the row holding it,
and polling with ETags still gets 304s. A small event's pages show no pager at all.
"""

from __future__ import annotations

import gzip
import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.services.posting import round_post
from spectator import views
from spectator.services import release_set
from spectator.versioning import bump
from tests.spectator.big_event import PLAYERS, TABLE_SIZE, big_event

LIMIT = 60 * 1024
GZIP = {"accept-encoding": "gzip, deflate, br"}
TABLES = PLAYERS // TABLE_SIZE


def url(name: str, event, **kwargs) -> str:
    return reverse(f"spectator:{name}", kwargs={"pk": event.pk, **kwargs})


@pytest.fixture
def seated(event) -> list[str]:
    """The aliases of the 2,000 players in seat order (table 1's four first)."""
    return big_event(event)


def _text(response) -> str:
    body = response.content
    if response.get("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    return body.decode()


def _next(page: str) -> str | None:
    found = re.search(r'<a href="([^"]+)" rel="next">', page)
    return html.unescape(found.group(1)) if found else None


def test_every_public_page_of_2000_players_is_at_most_60_kib_gzipped(client, event, seated):
    pages = [
        url("event_home", event),
        url("tables", event, number=1),
        url("results", event, number=1),
        url("standings", event),
        url("final", event),
        url("winner", event),
        url("follow", event),
        url("follow", event) + "?alias=" + seated[-1].replace(" ", "+"),
        url("home_live", event),
        url("tables_live", event, number=1),
        url("results_live", event, number=1),
        url("standings_live", event),
        url("final_live", event),
        url("winner_live", event),
        url("follow_live", event) + "?alias=" + seated[-1].replace(" ", "+"),
        url("tables", event, number=1) + "?page=10",
        url("results", event, number=1) + "?page=10",
        url("standings", event) + "?page=20",
    ]
    for address in pages:
        plain = client.get(address)
        zipped = client.get(address, headers=GZIP)
        assert plain.status_code == zipped.status_code == 200, address
        assert len(zipped.content) <= LIMIT, f"{address}: {len(zipped.content)} bytes"
        # The same page, only smaller; anything worth compressing is compressed.
        assert _text(zipped) == plain.content.decode(), address
        if len(plain.content) > 1024:
            assert zipped["Content-Encoding"] == "gzip", address
        assert "Accept-Encoding" in zipped["Vary"], address
    # The long lists are a page at a time: the first 100 places, the first 50 tables.
    standings = _text(client.get(url("standings", event), headers=GZIP))
    assert standings.count('<tr id="standing-') == 100
    results = _text(client.get(url("results", event, number=1), headers=GZIP))
    assert results.count('id="results-table-') == 50
    assert "Tables 1–50 of 500." in results


def test_a_browser_without_gzip_gets_the_plain_page(client, event, seated):
    plain = client.get(url("results", event, number=1), headers={"accept-encoding": "identity"})
    assert plain.status_code == 200 and not plain.has_header("Content-Encoding")
    assert 'id="results-table-1"' in plain.content.decode()


@pytest.mark.parametrize(("name", "anchor"), [("tables", "table"), ("results", "results-table")])
def test_the_next_links_reach_the_last_table_and_every_table_once(
    client, event, seated, name, anchor
):
    address, seen, pages = url(name, event, number=1), [], 0
    while address:
        page = _text(client.get(address, headers=GZIP))
        pages += 1
        seen += [int(n) for n in re.findall(rf'id="{anchor}-(\d+)"', page)]
        address = _next(page)
    assert pages == TABLES // 50
    assert seen == list(range(1, TABLES + 1))
    # Every page is one tap from any other: the first page links the last directly.
    first = _text(client.get(url(name, event, number=1)))
    assert f'href="{url(name, event, number=1)}?page=10"' in first
    assert ">Tables 451–500</a>" in first


def test_the_standings_pages_hold_every_player_once_best_first(client, event, seated):
    address, rows = url("standings", event), []
    while address:
        page = _text(client.get(address, headers=GZIP))
        rows += re.findall(r'<tr id="standing-(\d+)">.*?class="alias">([^<]+)</th>', page, re.S)
        address = _next(page)
    assert [int(position) for position, _alias in rows] == list(range(1, PLAYERS + 1))
    assert sorted(html.unescape(alias) for _position, alias in rows) == sorted(seated)
    # Table 1's first seat won it with the highest net worth of all: 4 points, first place.
    assert html.unescape(rows[0][1]) == seated[0]


def test_find_an_alias_leads_to_the_later_page_and_the_row_holding_it(client, event, seated):
    wanted = seated[-1]  # last seat of the last table: one point, the least net worth
    response = client.get(url("standings", event), {"find": f"  {wanted.upper()} "})
    assert response.status_code == 302
    target = response["Location"]
    found = re.fullmatch(rf"{url('standings', event)}\?page=(\d+)#standing-(\d+)", target)
    assert found, target
    page_number, position = int(found.group(1)), int(found.group(2))
    assert page_number > 1 and (page_number - 1) * 100 < position <= page_number * 100
    page = _text(client.get(target.split("#")[0], headers=GZIP))
    row = re.search(rf'<tr id="standing-{position}">.*?class="alias">([^<]+)</th>', page, re.S)
    assert row and html.unescape(row.group(1)) == wanted
    assert html.escape(wanted) not in _text(client.get(url("standings", event)))

    # Table 437 of 500, 50 a page: page 9 (401-450).
    at_437 = seated[436 * TABLE_SIZE + 2]
    tables = client.get(url("tables", event, number=1), {"find": at_437})
    assert tables["Location"] == f"{url('tables', event, number=1)}?page=9#table-437"
    results = client.get(url("results", event, number=1), {"find": at_437.lower()})
    assert results["Location"] == f"{url('results', event, number=1)}?page=9#results-table-437"
    ninth = _text(client.get(f"{url('tables', event, number=1)}?page=9"))
    assert html.escape(at_437) in ninth

    # Part of an alias finds a row holding it; nothing matching says so, on page 1.
    inner = wanted[2:-1]
    partly = client.get(url("standings", event), {"find": inner})["Location"]
    position = int(partly.rpartition("#standing-")[2])
    page = _text(client.get(partly.split("#")[0]))
    row = re.search(rf'<tr id="standing-{position}">.*?class="alias">([^<]+)</th>', page, re.S)
    assert inner.casefold() in html.unescape(row.group(1)).casefold()
    part = client.get(url("standings", event), {"find": wanted.split()[-1] + "x"})
    assert part.status_code == 200
    assert "No alias on this list matches what you typed." in part.content.decode()


def test_etag_polling_gets_304_with_gzip_and_a_new_page_after_a_change(event, seated):
    phone = Client()
    for address in (
        url("standings", event) + "?page=3",
        url("standings_live", event) + "?page=3",
        url("results_live", event, number=1) + "?page=2",
    ):
        first = phone.get(address, headers=GZIP)
        assert first["Content-Encoding"] == "gzip"
        etag = first["ETag"]
        assert etag.startswith('W/"')
        again = phone.get(address, headers={**GZIP, "if-none-match": etag})
        assert again.status_code == 304 and again.content == b""
        assert again["ETag"] == etag
        # The same tag from a browser that took the plain copy is the same page: 304.
        plain = phone.get(address, headers={"if-none-match": etag})
        assert plain.status_code == 304
    # Another page of the same list is another copy, with its own tag.
    other = phone.get(url("standings_live", event) + "?page=4", headers=GZIP)
    assert other["ETag"] != phone.get(url("standings_live", event) + "?page=3")["ETag"]
    bump(event_pk=event.pk)
    after = phone.get(
        url("standings_live", event) + "?page=3", headers={**GZIP, "if-none-match": etag}
    )
    assert after.status_code == 200 and after["ETag"] != etag


def test_a_poll_that_changed_nothing_never_reads_the_whole_list(event, seated, monkeypatch):
    """2,000 phones poll: a 304 costs a few small cache reads, not the 2,000 rows."""
    phone = Client()
    address = url("standings_live", event) + "?page=3"
    etag = phone.get(address, headers=GZIP)["ETag"]

    def whole_list(*args, **kwargs):
        raise AssertionError("the whole list was read")

    monkeypatch.setattr(views, "_listed", whole_list)
    assert phone.get(address, headers={**GZIP, "if-none-match": etag}).status_code == 304
    # The page itself comes from the cache too, for this phone and the next.
    assert Client().get(address, headers=GZIP).status_code == 200


def test_nonsense_page_numbers_show_the_first_or_the_last_page(client, event, seated):
    for typed, shown in (("x", 1), ("-1", 1), ("0", 1), ("999", 10)):
        page = _text(client.get(url("tables", event, number=1), {"page": typed}))
        assert f'id="table-{(shown - 1) * 50 + 1}"' in page, typed


def test_a_small_event_has_no_pager_and_no_find_form(client, event, round1):
    release_set(event=event, pages={"standings": True, "tables": True, "results": True}, by=None)
    round_post(round_=round1, by=None)
    for address in (
        url("standings", event),
        url("tables", event, number=1),
        url("results", event, number=1),
    ):
        page = client.get(address).content.decode()
        assert "Boot" in page
        assert "spectator-pager" not in page and "find-alias" not in page
        assert "page-status" not in page
