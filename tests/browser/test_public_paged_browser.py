"""A 2,000-player event's long public pages on a phone (390x844) in chromium: a page of
standings, tables or results fits the width and passes axe (WCAG 2 A and AA) with its
pager and "Find an alias" form, and typing an alias lands on the row holding it."""

from __future__ import annotations

import datetime
from pathlib import Path

from django.urls import reverse

from tests.browser.test_page_crawl import PHONE, _axe_violations
from tests.spectator.big_event import big_event
from tournament.services import event_create

SHOTS = Path("artifacts/public-paged")


def test_paged_public_pages_fit_a_phone_pass_axe_and_find_an_alias(live_server, browser):
    event = event_create(
        name="Big Boardwalk Open",
        organization="Club",
        venue="Hall",
        date=datetime.date(2030, 4, 20),
        start_time=datetime.time(9, 30),
    )
    seated = big_event(event)
    context = browser.new_context(viewport=PHONE)
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    SHOTS.mkdir(parents=True, exist_ok=True)
    try:
        for name, kwargs in (
            ("standings", {}),
            ("tables", {"number": 1}),
            ("results", {"number": 1}),
        ):
            address = reverse(f"spectator:{name}", kwargs={"pk": event.pk, **kwargs})
            tab.goto(live_server.url + address + "?page=2")
            assert tab.locator(".spectator-pager a[aria-current=page]").count() == 1
            width = tab.evaluate("() => document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"{name} is {width}px wide"
            assert _axe_violations(tab) == [], name
            tab.screenshot(path=str(SHOTS / f"{name}-page-2.png"))

        standings = reverse("spectator:standings", kwargs={"pk": event.pk})
        tab.goto(live_server.url + standings)
        tab.get_by_label("Find an alias").fill(seated[-1])
        tab.get_by_role("button", name="Find").click()
        tab.wait_for_url("**#standing-*")
        row = tab.locator("tr:target")
        assert row.locator("th.alias").inner_text() == seated[-1]
        assert "page=" in tab.url
        tab.screenshot(path=str(SHOTS / "standings-found.png"))
    finally:
        context.close()
