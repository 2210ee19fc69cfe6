"""The tablet's "Judge, please" and its rules, in chromium at portrait tablet size (768x1024).

Championship Rules, JUDGES: "If a judge is required the contestant must flag this to the Banker who
will raise their arm"; Championship Rules, BANKERS: "They will also have a copy of the rules". The
call is a banker write, so an offline tablet keeps it and sends it once when the network returns;
the rules page is kept by the service worker and searched on the tablet itself.
"""

from __future__ import annotations

import pytest

from banker.links import banker_link_issue
from tests.banker.offline_helpers import playing_table
from tests.browser.test_offline_tablet_browser import REPORT, Tablet
from tournament.models import JudgeCall

# Screenshots of the tablet with a call and the rules page (Playwright makes the folder).
SHOTS = "artifacts/judge-and-rules"


class PortraitTablet(Tablet):
    def __init__(self, browser):
        self.context = browser.new_context(viewport={"width": 768, "height": 1024})
        self.context.add_init_script(REPORT)
        self.complaints = []
        self.page = self.open()


@pytest.fixture
def tablet(browser):
    made = PortraitTablet(browser)
    yield made
    made.context.close()


def test_judge_please_offline_arrives_once_and_the_rules_work_offline(live_server, tablet):
    table = playing_table()
    link = banker_link_issue(table=table, by=None)
    page = tablet.page
    page.goto(f"{live_server.url}/bank/k/{link.key}/")
    page.wait_for_selector("[data-clock]")
    tablet.wait_for(
        """async (urls) => {
          if (!navigator.serviceWorker.controller) return false;
          const cache = await caches.open('boardwalk-pages');
          for (const url of urls) if (!(await cache.match(url))) return false;
          return true;
        }""",
        [f"/bank/tables/{table.pk}/", f"/bank/tables/{table.pk}/rules/"],
    )
    page.screenshot(path=f"{SHOTS}/banker-table.png", full_page=True)

    # Offline, the banker taps "Judge, please": kept on the tablet, sent once back online.
    tablet.offline(True)
    page.get_by_role("button", name="Judge, please").click()
    page.wait_for_selector("#tablet-panel[data-waiting='1']")
    assert "Judge, please" in page.inner_text("[data-tablet-list='waiting']")
    assert not JudgeCall.objects.exists()
    tablet.offline(False)
    tablet.wait_for("() => document.querySelector('#tablet-panel').dataset.waiting === '0'")
    assert JudgeCall.objects.filter(table=table).count() == 1
    page.goto(f"{live_server.url}/bank/tables/{table.pk}/")
    page.wait_for_selector("[data-judge-called]")
    assert "Waiting for a judge." in page.inner_text("#judge")
    page.screenshot(path=f"{SHOTS}/banker-table-called.png", full_page=True)

    # The rules, offline: the kept copy opens, and the search filters it on the tablet.
    tablet.offline(True)
    page.goto(f"{live_server.url}/bank/tables/{table.pk}/rules/")
    page.wait_for_selector("[data-rules-search]")
    page.fill("[data-rules-search]", "jail doubles")
    visible = page.locator("[data-rule]:visible").all_inner_texts()
    assert visible and all("doubles" in text.lower() for text in visible)
    assert page.locator("#rule-go").is_hidden()
    assert "Paragraphs shown:" in page.inner_text("[data-rules-count]")
    page.screenshot(path=f"{SHOTS}/rules-search.png", full_page=True)
    page.fill("[data-rules-search]", "")
    assert page.locator("#rule-go").is_visible()
    page.screenshot(path=f"{SHOTS}/rules.png")
    tablet.offline(False)
    assert tablet.complaints == []
