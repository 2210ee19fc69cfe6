"""A held public site in a real browser: the organizer holds it, publishes round 1, is told
the tables are not public yet, taps "Release to the public", and a spectator's phone (left
open, never reloaded) shows the tables at its next poll; "Undo" takes them away again.

Screenshots of the message, the cockpit's public-site step and the public pages' page at
1024x768, 768x1024 and 390x844 go to ``$BROWSER_ARTIFACTS`` (default
``artifacts/browser``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from django.contrib.auth.models import Group, User

from tests.demo_rows import load_demo_rows
from tournament.models import Event, Player

PASSWORD = "a long Boardwalk passphrase"
ARTIFACTS = Path(os.environ.get("BROWSER_ARTIFACTS", "artifacts/browser"))
SIZES = ((1024, 768), (768, 1024), (390, 844))
NOT_YET = "Nothing is posted here yet."


def shoot(page, name: str) -> None:
    """The page at each size, whole; the page comes back to its own size afterwards."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    own = page.viewport_size
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{name} at {width}x{height} is {overflow}px too wide"
        page.screenshot(path=ARTIFACTS / f"public-{name}-{width}x{height}.png", full_page=True)
    page.set_viewport_size(own)


def test_a_held_round_is_released_in_one_tap_and_undone_in_another(
    live_server, browser, page, settings
):
    settings.BOARDWALK_LIVE_POLL_SECONDS = 1
    load_demo_rows(play=False)  # pre-seated, nothing published or released
    event = Event.objects.get()
    user = User.objects.create_user("olive", password=PASSWORD)
    user.groups.add(Group.objects.get(name="Organizer"))
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url("**/organizer/")

    # The cockpit's step before round 1: both addresses and the spectators' QR code.
    page.goto(f"{live_server.url}/organizer/events/{event.pk}/")
    step = page.locator("[data-step=public]")
    assert "Open the public site and the hall display" in step.inner_text()
    assert f"/events/{event.pk}/hall/" in step.inner_text()
    assert step.locator("svg").count() == 1
    step.scroll_into_view_if_needed()
    shoot(page, "cockpit-step")

    # The organizer holds the public site.
    page.goto(f"{live_server.url}/organizer/events/{event.pk}/public/")
    page.get_by_label("Hold the public site").check()
    page.get_by_role("button", name="Save").click()
    page.wait_for_load_state()
    assert "The public site is held" in page.inner_text("main")
    shoot(page, "release-page")

    phone_context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone = phone_context.new_page()
    phone.set_default_timeout(15_000)
    phone.goto(f"{live_server.url}/events/{event.pk}/rounds/1/tables/")
    assert NOT_YET in phone.inner_text("main")
    phone.evaluate("window.stillTheSamePage = true")

    page.goto(f"{live_server.url}/organizer/events/{event.pk}/seating/?round=1")
    page.get_by_role("button", name="Publish round 1").click()
    page.wait_for_load_state()
    message = page.locator(".messages")
    text = message.inner_text()
    assert "Round 1's tables are published; not public yet: event home, table assignments." in text
    assert "The public site is held" in text and "tables are public" not in text
    shoot(page, "held-message")

    message.get_by_role("button", name="Release to the public").click()
    page.wait_for_load_state()
    assert "Released to the public: event home, table assignments." in message.inner_text()
    assert "/seating/" in page.url
    shoot(page, "released-message")
    alias = Player.objects.filter(seats__round__number=1, seats__table__number=1).first().alias
    phone.locator(".spectator-table").first.wait_for()
    assert alias in phone.inner_text("main")
    assert phone.evaluate("window.stillTheSamePage") is True

    message.get_by_role("button", name="Undo").click()
    page.wait_for_load_state()
    assert "Withdrawn from the public: event home, table assignments." in message.inner_text()
    phone.locator(".not-posted").wait_for()
    assert alias not in phone.inner_text("main")
    phone_context.close()
