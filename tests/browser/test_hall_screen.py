"""The hall display on a 1920x1080 projector: tiles readable from the back of the
hall, no chime button on the picture, and the day's end shown as the winner."""

import pytest

from demo.event import DEMO_CLUB_NAME, DEMO_EVENT_NAME
from tests.demo_rows import load_demo_rows
from tournament.models import Event

# Readable from the back of a hall: the aliases at least 24 px, the table names 32 px.
ALIAS_PX = 24
TABLE_PX = 32


@pytest.mark.django_db(transaction=True)
def test_the_projected_hall_is_readable_without_a_chime_button(live_server, browser):
    load_demo_rows()
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    try:
        event = Event.objects.get(name=DEMO_EVENT_NAME)
        page.goto(f"{live_server.url}/events/{event.pk}/hall/")
        tiles = page.locator(".hall-table")
        assert tiles.count() >= 1
        size = "e => parseFloat(getComputedStyle(e).fontSize)"
        assert page.locator(".hall-aliases").first.evaluate(size) >= ALIAS_PX
        assert page.locator(".hall-table-name").first.evaluate(size) >= TABLE_PX
        chime = page.locator("[data-chime-toggle]")
        page.wait_for_function("() => !document.querySelector('[data-chime-toggle]').hidden")
        assert chime.bounding_box()["width"] <= 1  # not on the picture
        page.keyboard.press("Tab")
        assert chime.evaluate("e => e === document.activeElement")
        assert chime.bounding_box()["width"] > 40  # the operator sees it while it has focus

        club = Event.objects.get(name=DEMO_CLUB_NAME)
        page.goto(f"{live_server.url}/events/{club.pk}/hall/")
        winner = page.locator(".hall-end-winner")
        assert winner.inner_text().startswith("Winner: ")
        assert winner.evaluate(size) >= 48
        assert page.locator("[data-clock-remaining]").count() == 0
        assert "Time is up" not in page.inner_text("body")
        # The next poll of the clock's state keeps the end state (no reload loop, nothing
        # replaced by a clock): wait for that answer itself rather than for some time.
        with page.expect_response(lambda r: "/hall/state/" in r.url, timeout=15_000):
            pass
        page.wait_for_load_state()
        assert page.locator(".hall-end-winner").count() == 1
        assert page.locator("[data-clock-remaining]").count() == 0
    finally:
        context.close()
