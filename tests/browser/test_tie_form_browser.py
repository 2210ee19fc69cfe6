"""The head judge's tie decision in chromium at 1280 x 900: one place per row, best first,
and a player given a place is greyed out of the other places' lists, so nobody gets two
places. Screenshot in ``artifacts/tie-form/``."""

from __future__ import annotations

import re
from pathlib import Path

from django.contrib.auth.models import Group, User
from playwright.sync_api import expect

from tests.browser.test_page_crawl import _axe_violations
from tests.browser.test_standings_browser import PASSWORD, signed_round_1

ARTIFACTS = Path("artifacts/tie-form")
# Three players level on cash and nothing else: the rules engine leaves their order open.
LEVEL = {"Boot": 2000, "Car": 2000, "Hat": 2000, "Dog": 1000}


def test_a_three_way_tie_is_ordered_one_place_per_row(live_server, browser):
    signed_round_1(LEVEL)
    head_judge = User.objects.create_user("hedda", password=PASSWORD)
    head_judge.groups.add(Group.objects.get(name="Head judge"))
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("hedda")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.get_by_role("link", name="Results, round 1").click()
    page.get_by_role("link", name="Open table 1", exact=True).click()
    # The lists grey out taken players once the page's script has run: act after it has.
    page.wait_for_load_state()
    places = page.locator("[data-tie-places] select")
    assert places.count() == 3
    # One place per row: each list sits below the one before it.
    tops = [places.nth(i).bounding_box()["y"] for i in range(3)]
    assert tops[0] < tops[1] < tops[2]
    places.nth(0).select_option(label="Car")
    expect(places.nth(1).locator("option[disabled]")).to_have_text(["Car"])
    places.nth(1).select_option(label="Boot")
    expect(places.nth(2).locator("option[disabled]")).to_have_text(["Boot", "Car"])
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=ARTIFACTS / "tie-form-1280x900.png", full_page=True)
    assert _axe_violations(page) == []
    places.nth(2).select_option(label="Hat")
    page.get_by_label("Reason").fill("Drew lots before the judges")
    page.get_by_role("button", name=re.compile("decide|save|order", re.I)).first.click()
    page.wait_for_load_state()
    assert "decided" in page.inner_text("main")
    context.close()
