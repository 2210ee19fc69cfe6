"""The two undos in a real browser: a game over tapped by mistake on the banker's
tablet (1024x768), and a re-seat of all rounds on the organizer's seating page (on a phone).
Screenshots of both go to artifacts/undo/ for a person to look at."""

from __future__ import annotations

import re
from pathlib import Path

from django.contrib.auth.models import Group, User

from banker.links import banker_link_issue
from seating.services import preseat_event, seats_swap
from tests.banker.offline_helpers import playing_table
from tests.builders import event_with_players
from tournament.models import Seat, Table

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "undo"
PASSWORD = "a long Boardwalk passphrase"


def test_a_banker_reopens_a_game_over_tapped_by_mistake(live_server, browser):
    table = playing_table()
    link = banker_link_issue(table=table, by=None)
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/bank/k/{link.key}/")
        page.wait_for_selector("[data-clock]")
        page.click("#game-over > summary")
        page.get_by_role("button", name="Yes, the game is over").click()
        page.get_by_role("link", name="Enter the score sheet").wait_for()
        table.refresh_from_db()
        assert table.status == Table.Status.FINISHED

        reopen = page.locator("#reopen > summary")
        assert reopen.inner_text() == "Game over by mistake? Reopen the game"
        box = reopen.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 768  # no scroll to the undo
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "banker-game-over-undo-1024x768.png"))
        reopen.click()
        page.get_by_role("button", name="Yes, reopen the game").click()
        page.locator(".messages", has_text="the game is open again").wait_for()
        table.refresh_from_db()
        assert table.status == Table.Status.PLAYING
        # Play goes on: the game over step is there again, the undo is gone.
        assert page.locator("#game-over > summary").count() == 1
        assert page.locator("#reopen").count() == 0
    finally:
        context.close()


def test_an_organizer_undoes_a_re_seat_on_a_phone(live_server, browser):
    event = event_with_players(players=16, name="Undo Cup")
    preseat_event(event=event, seed=1, time_limit=2)
    # A judge's move: the seating is not the engine's, so a re-seat changes it.
    seat_a, seat_b = Seat.objects.filter(round__event=event, round__number=2, position=1).order_by(
        "table__number"
    )[:2]
    seats_swap(seat_a=seat_a, seat_b=seat_b)
    before = _who_sits_with_whom(event)
    user = User.objects.create_user("olive", password=PASSWORD)
    user.groups.add(Group.objects.get(name="Organizer"))
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(live_server.url + "/accounts/login/")
        page.get_by_label("Username").fill("olive")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name=re.compile("log in", re.I)).click()
        page.wait_for_url("**/organizer/")
        page.goto(f"{live_server.url}/organizer/events/{event.pk}/seating/")
        page.click("#reseat > summary")
        page.get_by_role("button", name="Seat all rounds again now").click()
        page.locator(".messages", has_text="players seated").wait_for()
        assert _who_sits_with_whom(event) != before

        page.click("#reseat-undo > summary")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "seating-reseat-undo-390x844.png"), full_page=True)
        page.get_by_role("button", name="Yes, put the tables from before back").click()
        page.locator(".messages", has_text="The re-seat is undone").wait_for()
        assert _who_sits_with_whom(event) == before
        assert page.locator("#reseat-undo").count() == 0
    finally:
        context.close()


def _who_sits_with_whom(event) -> list[tuple[int, int, int, int]]:
    """(round, table, seat, player) for every seat: the tables are rebuilt, not their order."""
    return sorted(
        Seat.objects.filter(round__event=event).values_list(
            "round__number", "table__number", "position", "player_id"
        )
    )
