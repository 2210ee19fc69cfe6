"""The cockpit on a phone (every page useful at 390x844): nothing overflows
sideways, the next action is on the first screen."""

from __future__ import annotations

import re

from django.contrib.auth.models import Group, User

from demo.simulation import event_simulate

PASSWORD = "a long Boardwalk passphrase"


def test_the_cockpit_fits_a_phone(live_server, browser):
    event = event_simulate(players=16, seed=4, final=False).event
    User.objects.create_user("olive", password=PASSWORD).groups.add(
        Group.objects.get(name="Organizer")
    )
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_load_state()
    page.get_by_role("link", name=event.name).click()
    page.wait_for_load_state()
    assert page.locator("#next-action").inner_text() == "Seat the final"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    box = page.locator("#next-action").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844
    page.screenshot(path="artifacts/cockpit-phone.png", full_page=True)
    context.close()
