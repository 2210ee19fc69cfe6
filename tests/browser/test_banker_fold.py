"""The banker's table page on a 1024x768 tablet: "Last turn", "Game over" and
"Enter the score sheet" need no scroll, and the order of play is on screen, at a table of
six (the largest, so the longest order of play)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from clock.services import clock_start, table_mark_finished
from players.services import Registration, player_register
from seating.services import preseat_event
from tournament.models import Player, Round, Table
from tournament.play_order import table_roll_play_order
from tournament.roles import BANKER
from tournament.services import event_create

FOLD = 768


def _table_of_six() -> Table:
    event = event_create(
        name="Tablet Cup",
        organization="Club",
        venue="Hall",
        date=datetime.date(2031, 3, 1),
        start_time=datetime.time(10, 0),
        expected_players=6,
        table_size_min=6,
        table_size_max=6,
    )
    for index in range(6):
        player = player_register(
            event=event,
            registration=Registration(
                first_name=f"Real{index}",
                last_name="Name",
                date_of_birth=datetime.date(1990, 1, 1),
                signature="x",
                eligibility_declared=True,
                citizenship_declared=True,
            ),
            source=Player.Source.ON_THE_DAY,
        )
        Player.objects.filter(pk=player.pk).update(alias=f"Long Alias Number {index}")
    preseat_event(event=event, only_checked_in=False)
    table = Table.objects.get(round=Round.objects.get(event=event, number=1))
    table_roll_play_order(table=table, seed=3)
    return table


def _bottom(page, selector: str) -> float:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["y"] + box["height"]


@pytest.mark.django_db(transaction=True)
def test_the_table_page_fits_the_tablet_in_every_state(live_server, browser):
    table = _table_of_six()
    banker = User.objects.create_user("tablet-banker", password="pw")
    banker.groups.add(Group.objects.get(name=BANKER))
    Table.objects.filter(pk=table.pk).update(banker=banker)
    client = Client()
    client.force_login(banker)
    context = browser.new_context(viewport={"width": 1024, "height": FOLD})
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    page = context.new_page()
    url = f"{live_server.url}/bank/tables/{table.pk}/"
    try:
        clock_start(wave=table.wave)
        page.goto(url)
        last_turn = page.get_by_role("button", name="Last turn")
        # Game over opens its confirmation step: the summary is what the banker
        # reaches first; the "Yes, the game is over" submit is inside it.
        game_over = page.locator("#game-over > summary")
        assert last_turn.count() == 1 and game_over.count() == 1
        assert game_over.inner_text().startswith("Game over")
        for button in (last_turn, game_over):
            box = button.bounding_box()
            assert box["y"] + box["height"] <= FOLD, box
        # The order of play, all six, starter first, is on screen too.
        assert page.locator(".play-order-list li").count() == 6
        assert _bottom(page, ".play-order-list li:last-child") <= FOLD
        assert page.evaluate("document.documentElement.scrollWidth") <= 1024
        # Opened, its confirmation is on screen too.
        game_over.click()
        box = page.get_by_role("button", name="Yes, the game is over").bounding_box()
        assert box is not None and box["y"] + box["height"] <= FOLD, box

        table_mark_finished(table=Table.objects.get(pk=table.pk))
        page.goto(url)
        sheet = page.get_by_role("link", name="Enter the score sheet")
        box = sheet.bounding_box()
        assert box["y"] + box["height"] <= FOLD, box

        # The landing page opens on this table, its next step above the fold.
        page.goto(f"{live_server.url}/bank/")
        assert page.locator("[data-primary-action]").inner_text() == "Enter the score sheet"
        assert _bottom(page, "[data-primary-action]") <= FOLD
    finally:
        context.close()
