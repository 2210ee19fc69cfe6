"""The public pages in a real browser."""

import pytest

from tests.demo_rows import load_demo_rows


@pytest.mark.django_db(transaction=True)
def test_home_page_lists_the_demo_event_and_opens_it(live_server, page):
    load_demo_rows()
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Boardwalk Demo Open").click()
    page.wait_for_url("**/events/*/")
    assert "Community Hall" in page.content()


@pytest.mark.django_db(transaction=True)
def test_the_event_home_draws_the_official_clock_from_the_hall_state(live_server, page):
    """clock.js fills in the time on the cached page; the page itself never holds it."""
    from demo.event import DEMO_EVENT_NAME
    from spectator.services import release_set
    from tournament.models import Event

    load_demo_rows()
    event = Event.objects.get(name=DEMO_EVENT_NAME)
    release_set(event=event, pages={"home": True}, by=None)
    page.goto(f"{live_server.url}/events/{event.pk}/")
    remaining = page.locator("[data-clock-remaining]")
    assert remaining.inner_text() in ("--:--", "") or ":" in remaining.inner_text()
    # A function, not an expression: Playwright evaluates a polled expression with eval(),
    # which the page's Content-Security-Policy rightly refuses.
    page.wait_for_function(
        "() => document.querySelector('[data-clock-remaining]').textContent.trim() !== '--:--'"
    )
    assert ":" in remaining.inner_text()
    assert page.locator("[data-clock-status]").inner_text().strip() != ""
