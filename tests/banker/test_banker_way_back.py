"""Bankers never get lost: "My tables" in the header of every banker page, and /bank/ in
the order a banker needs it (the game in play, the sheets to finish, the finished folded).

Tables are seated, played and signed through the services (banker_setup, scoring_helpers),
as a tournament day makes them.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from banker.desk import banker_desk
from banker.links import banker_link_issue
from clock.services import clock_start
from scoring.selectors import banker_table_players
from tests.banker.banker_setup import BANKER, JUDGE, ORGANIZER, finished_tables, user_with
from tests.scoring.scoring_helpers import play
from tournament.models import Event, Round, Table

DESK = reverse("banker:banker_tables")


def _home_links(body: str) -> list[tuple[str, str]]:
    """The header's way back: (address, words) of each ``data-banker-home`` link."""
    header = body.split("</header>", 1)[0]
    return re.findall(r'<a href="([^"]+)" data-banker-home[^>]*>([^<]+)</a>', header)


def _signed(table: Table) -> None:
    """Cash only, everyone signs: the table is done for its banker."""
    players = banker_table_players(table=table)
    play(table, {p: 1000 + 100 * i for i, p in enumerate(players)})


@pytest.fixture
def banker(db):
    return user_with(BANKER, "banker")


@pytest.fixture
def season(banker):
    """A banker's season: three signed tables and one sheet not finished at a later event,
    and, at today's event (dated before it), a game whose clock is running.

    The later event's finished tables came first in every list before: the table in play
    was lost among them.
    """
    later = []
    for month in (6, 5):
        tables = finished_tables(players=8)
        Event.objects.filter(pk=tables[0].round.event_id).update(date=datetime.date(2031, month, 1))
        later += tables
    for table in later:
        Table.objects.filter(pk=table.pk).update(banker=banker)
    for table in later[:3]:
        _signed(table)
    today = finished_tables(players=8)
    Event.objects.filter(pk=today[0].round.event_id).update(date=datetime.date(2031, 1, 1))
    round_2 = Round.objects.get(event_id=today[0].round.event_id, number=2)
    live = Table.objects.filter(round=round_2).order_by("number").first()
    Table.objects.filter(pk=live.pk).update(banker=banker)
    clock_start(wave=live.wave)
    return {"live": live, "waiting": later[3], "signed": later[:3]}


# --- /bank/: in play, then the sheets to finish, then the finished folded ---------------------


def test_the_game_in_play_comes_first_then_the_sheet_to_finish_then_the_finished(banker, season):
    desk = banker_desk(user=banker)
    assert desk.current.table == season["live"]
    assert [v.table for v in desk.waiting] == [season["waiting"]]
    assert desk.playing == []
    assert desk.finished_count == 3
    assert {v.table.pk for v in desk.finished} == {t.pk for t in season["signed"]}


def test_the_page_shows_them_in_that_order_and_folds_the_finished_under_a_button(
    client, banker, season
):
    client.force_login(banker)
    body = client.get(DESK).content.decode()
    live = reverse("banker:banker_table", kwargs={"table_pk": season["live"].pk})
    waiting = reverse("banker:banker_sheet", kwargs={"table_pk": season["waiting"].pk})
    current = body.index('class="banker-current"')
    sheets = body.index('data-desk="waiting"')
    folded = body.index('<details class="banker-finished"')
    assert current < body.index(live) < sheets < body.index(waiting) < folded
    # The fold looks like a control and says what it holds: a button with the count.
    summary = re.search(r"<summary([^>]*)>(.*?)</summary>", body[folded:], re.S)
    assert 'class="button' in summary.group(1)
    assert "Finished tables (3)" in summary.group(2) and "▸" in summary.group(2)
    # Every finished table is inside the fold, none above it.
    for table in season["signed"]:
        address = reverse("banker:banker_table", kwargs={"table_pk": table.pk})
        assert body.index(address) > folded


def test_a_banker_whose_tables_are_all_done_is_told_so_and_finds_them_folded(client, banker):
    tables = finished_tables(players=8)
    for table in tables:
        Table.objects.filter(pk=table.pk).update(banker=banker)
        _signed(table)
    desk = banker_desk(user=banker)
    assert desk.current is None and desk.finished_count == 2
    client.force_login(banker)
    body = client.get(DESK).content.decode()
    assert "No table needs you now" in body
    assert "Finished tables (2)" in body and "banker-current" not in body


def test_a_game_not_started_yet_waits_behind_a_sheet_to_finish(banker):
    """Round 2 is seated but its clock has not started: the round 1 sheet comes first."""
    tables = finished_tables(players=8)
    Table.objects.filter(pk=tables[0].pk).update(banker=banker)
    round_2 = Round.objects.get(event_id=tables[0].round.event_id, number=2)
    upcoming = Table.objects.filter(round=round_2).order_by("number").first()
    Table.objects.filter(pk=upcoming.pk).update(banker=banker)
    desk = banker_desk(user=banker)
    assert desk.current.table == tables[0]
    assert [v.table for v in desk.playing] == [upcoming]


# --- "My tables" in the header ---------------------------------------------------------------


def _banker_pages(table: Table) -> list[str]:
    kwargs = {"table_pk": table.pk}
    return [
        reverse("banker:banker_table", kwargs=kwargs),
        reverse("banker:bankruptcy_record", kwargs=kwargs),
        reverse("banker:banker_sheet", kwargs=kwargs),
        DESK,
    ]


def test_every_banker_page_has_my_tables_in_its_header(client, banker):
    table = finished_tables(players=4)[0]
    Table.objects.filter(pk=table.pk).update(banker=banker)
    client.force_login(banker)
    for page in _banker_pages(table):
        response = client.get(page)
        assert response.status_code == 200, page
        assert _home_links(response.content.decode()) == [(DESK, "My tables")], page
    # On /bank/ itself it says it is the page you are on.
    assert 'data-banker-home aria-current="page"' in client.get(DESK).content.decode()


def test_a_tablet_on_a_private_link_goes_back_to_its_table(client, db):
    table = finished_tables(players=4)[0]
    link = banker_link_issue(table=table, by=None)
    client.get(reverse("banker:banker_link_open", kwargs={"key": link.key}))
    table_page = reverse("banker:banker_table", kwargs={"table_pk": table.pk})
    for page in _banker_pages(table)[:3]:
        body = client.get(page).content.decode()
        assert _home_links(body) == [(table_page, "My table")], page


def test_officials_who_bank_nothing_and_visitors_see_no_such_link(client, db):
    table = finished_tables(players=4)[0]
    assert _home_links(client.get("/").content.decode()) == []
    judge = user_with(JUDGE, "judge")
    client.force_login(judge)
    sheet = reverse("banker:banker_sheet", kwargs={"table_pk": table.pk})
    assert _home_links(client.get(sheet).content.decode()) == []


def test_an_organizer_given_the_final_to_bank_finds_it_under_my_tables(client, db):
    table = finished_tables(players=4)[0]
    organizer = user_with(ORGANIZER, "organizer")
    Table.objects.filter(pk=table.pk).update(banker=organizer)
    client.force_login(organizer)
    assert _home_links(client.get("/").content.decode()) == [(DESK, "My tables")]
