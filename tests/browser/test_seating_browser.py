"""Seating in a real browser at tablet size: price a swap, confirm it, publish round 1, and
see the public table list by alias in a logged-out browser."""

import re

import pytest
from django.contrib.auth.models import Group, User

from tests.demo_rows import load_demo_rows
from tournament.models import Event, Player, Seat

PASSWORD = "a long Boardwalk passphrase"


@pytest.fixture
def organizer(transactional_db):
    user = User.objects.create_user("olive", password=PASSWORD)
    user.groups.add(Group.objects.get(name="Organizer"))
    return user


def log_in(page, live_server):
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url("**/organizer/")


def round_1_seats() -> dict[int, tuple[int, int]]:
    return {
        seat.player_id: (seat.table.number, seat.position)
        for seat in Seat.objects.filter(round__number=1).select_related("table")
    }


def test_an_organizer_swaps_two_players_and_publishes_round_1(
    live_server, browser, page, organizer
):
    load_demo_rows(play=False)  # pre-seated, no round started: seats can still change
    event = Event.objects.get()
    log_in(page, live_server)

    # The organizer's home opens each event on its cockpit, whose tabs hold the seating.
    page.get_by_role("link", name=event.name).first.click()
    page.get_by_role("link", name="Seating").first.click()
    page.wait_for_url(f"**/organizer/events/{event.pk}/seating/")
    assert "Round 3" in page.inner_text("main")
    round_1 = page.locator("#round-1")
    before = round_1_seats()
    a = next(p for p, (table, position) in before.items() if (table, position) == (1, 1))
    b = next(p for p, (table, position) in before.items() if (table, position) == (2, 1))
    assert Player.objects.get(pk=a).full_name in round_1.inner_text()

    round_1.get_by_role("link", name="Change seats").click()
    page.wait_for_url("**/seating/1/change/")
    page.select_option("[name=player]", str(a))
    page.select_option("[name=swap_with]", str(b))
    page.get_by_role("button", name="Show the cost").click()
    page.wait_for_load_state()
    cost = page.locator(".cost").inner_text()
    assert "costs nothing" in cost or "This adds" in cost
    assert round_1_seats() == before  # seen, not yet made

    page.get_by_role("button", name="Confirm").click()
    page.wait_for_url("**/seating/1/change/")
    assert "have swapped seats" in page.inner_text("main")
    after = round_1_seats()
    assert (after[a], after[b]) == (before[b], before[a])

    page.get_by_role("link", name="Back to seating").click()
    page.wait_for_url(re.compile(r"/seating/\?round=1#round-1$"))
    page.get_by_role("button", name="Publish round 1").click()
    page.wait_for_load_state()
    assert "tables are public" in page.inner_text("main")

    # The organizer releases the public event page and the tables page.
    page.goto(f"{live_server.url}/organizer/events/{event.pk}/public/")
    page.check("[name=home]")
    page.check("[name=tables]")
    page.get_by_role("button", name="Save").click()
    page.wait_for_load_state()

    # A visitor with no login sees the tables by alias, and no real name.
    visitor = browser.new_context(viewport={"width": 1024, "height": 768})
    public = visitor.new_page()
    public.goto(f"{live_server.url}/events/{event.pk}/")
    round_1_entry = public.locator(".schedule-round").filter(has_text=re.compile(r"Round 1\b"))
    round_1_entry.get_by_role("link", name="Tables").click()
    public.wait_for_url(f"**/events/{event.pk}/rounds/1/tables/")
    text = public.inner_text("main")
    for player in Player.objects.filter(seats__round__number=1):
        assert player.alias in text
        assert player.full_name not in text
    table_1 = public.locator("#table-1").inner_text()
    assert Player.objects.get(pk=b).alias in table_1  # b now sits where a sat
    visitor.close()
