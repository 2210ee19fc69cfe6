"""The officials' start pages with a season of events, in chromium.

The organizer's home once measured 2,279 px and 115 links for the demo's nine events. With
a dozen events (today's, upcoming, past) it is now one row per event: at 1280 x 900 it
fits in little more than a screen and a half, axe finds nothing, and the judges' desk
puts today's event first. Screenshots in ``artifacts/officials-home/``.
"""

from __future__ import annotations

import datetime
from pathlib import Path

from django.utils import timezone

from tests.browser.test_page_crawl import _axe_violations
from tests.builders import an_event, registered_players, user_with
from tournament.roles import JUDGE, ORGANIZER

ARTIFACTS = Path("artifacts/officials-home")
DAY = datetime.timedelta(days=1)


def _season() -> None:
    today = timezone.localdate()
    registered_players(an_event(name="Boardwalk Open", date=today), count=6)
    for n in range(1, 4):
        an_event(name=f"Regional {n}", date=today + 14 * n * DAY)
    for n in range(1, 9):
        an_event(name=f"Club night {n}", date=today - 7 * n * DAY)


def _open(browser, live_server, username: str, viewport: dict, path: str):
    context = browser.new_context(viewport=viewport)
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    tab.goto(live_server.url + "/accounts/login/")
    tab.get_by_label("Username").fill(username)
    tab.get_by_label("Password").fill("pw")
    tab.get_by_role("button", name="Log in").click()
    tab.wait_for_url(lambda url: "/accounts/login/" not in url)
    tab.goto(live_server.url + path)
    return context, tab


def test_a_dozen_events_on_the_organizers_home_and_the_judges_desk(browser, live_server):
    _season()
    user_with(ORGANIZER, "olga")
    user_with(JUDGE, "jules")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    context, tab = _open(
        browser, live_server, "olga", {"width": 1280, "height": 900}, "/organizer/"
    )
    tab.screenshot(path=ARTIFACTS / "organizer-1280x900.png", full_page=True)
    height = tab.evaluate("() => document.documentElement.scrollHeight")
    # A dozen events in one row each, the past folded: not the 2,279 px of nine events.
    assert height < 1600, height
    assert _axe_violations(tab) == []
    # The past unfolds on a tap; each row opens its cockpit.
    tab.get_by_text("Past: 8 events").click()
    assert tab.get_by_role("link", name="Club night 8").is_visible()
    tab.get_by_role("link", name="Boardwalk Open").click()
    tab.wait_for_url("**/organizer/events/*/")
    assert tab.get_by_role("heading", name="Boardwalk Open").is_visible()
    context.close()

    for name, viewport in (
        ("1024x768", {"width": 1024, "height": 768}),
        ("390x844", {"width": 390, "height": 844}),
    ):
        context, tab = _open(browser, live_server, "jules", viewport, "/organizer/judging/")
        tab.screenshot(path=ARTIFACTS / f"judges-desk-{name}.png", full_page=True)
        first_card = tab.locator(".event-list .card").first
        assert "Boardwalk Open" in first_card.inner_text()
        assert first_card.get_by_role("link", name="Check-in").is_visible()
        assert tab.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
        assert _axe_violations(tab) == []
        context.close()
