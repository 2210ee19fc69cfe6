"""The Content-Security-Policy in a real browser: the main pages load and work with it.

Chromium reports every refused script, style or frame as a ``securitypolicyviolation``
event and a console error; both are collected for the whole test. A control at the start
proves the collector sees a violation when there is one.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from banker.links import banker_link_issue
from scoring.selectors import banker_table_players
from tests.banker.banker_setup import finished_tables
from tournament.models import Table

REPORT = """
document.addEventListener('securitypolicyviolation', (e) => {
  console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI);
});
"""


@pytest.fixture
def table(transactional_db) -> Table:
    return finished_tables(players=4)[0]


@pytest.fixture
def watched(browser):
    """A page, and the CSP complaints it collects across navigations."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.add_init_script(REPORT)
    complaints: list[str] = []
    page.on(
        "console",
        lambda message: (
            complaints.append(message.text)
            if "Content Security Policy" in message.text or "CSP violation" in message.text
            else None
        ),
    )
    yield page, complaints
    context.close()


def log_in(page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "pw")
    page.click("form.stacked-form [type=submit]")
    page.wait_for_load_state()


def user(username: str, role: str) -> User:
    person = User.objects.create_user(username, password="pw")
    person.groups.add(Group.objects.get(name=role))
    return person


def test_the_collector_sees_a_violation(live_server, watched, table):
    page, complaints = watched
    page.goto(f"{live_server.url}/")
    directive = page.evaluate(
        """() => new Promise((resolve) => {
          document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective));
          document.body.insertAdjacentHTML('beforeend', '<p style="color: red">x</p>');
        })"""
    )
    assert directive.startswith("style-src")
    assert any("style-src" in text for text in complaints), complaints


def test_the_main_pages_run_under_the_policy(live_server, watched, table):
    page, complaints = watched
    event = table.round.event

    # Registration: the public form.
    page.goto(f"{live_server.url}/events/{event.pk}/register/")
    assert page.locator("form").count() >= 1
    # The hall display: clock.js draws the clock from the polled state, once released.
    from spectator.services import release_set

    release_set(event=event, pages={"home": True}, by=None)
    page.goto(f"{live_server.url}/events/{event.pk}/hall/")
    page.wait_for_selector("[data-clock-remaining]")

    # The organizer's dashboard and the check-in desk's live search (htmx).
    user("org", "Organizer")
    log_in(page, live_server, "org")
    assert page.url.endswith("/organizer/")
    page.goto(f"{live_server.url}/organizer/events/{event.pk}/check-in/")
    search = page.locator("input[hx-get]")
    with page.expect_response(lambda r: "/check-in/" in r.url and r.request.method == "GET"):
        search.fill("Car")
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/organizer/tables/{table.pk}/banker-link/")
    page.goto(f"{live_server.url}/admin/login/")
    page.context.clear_cookies()

    # The banker's sheet through the table card's link: live validation is htmx.
    link = banker_link_issue(table=table, by=None)
    page.goto(f"{live_server.url}/bank/k/{link.key}/")
    page.wait_for_selector("#sheet-form")
    players = banker_table_players(table=table)
    with page.expect_response(lambda r: r.url.endswith("/validate/")):
        for player in players:
            page.fill(f"input[name=cash_{player.pk}]", "1500")
        page.select_option("select[name=owner_39]", str(players[0].pk))
    # A house on Boardwalk alone breaks the rules; htmx puts the message beside the deed.
    page.select_option("select[name=buildings_39]", "1")
    page.wait_for_selector("#deed-msgs-39 p")
    # The logged-in banker's table page (clock.js) too.
    banker = user("bea", "Banker")
    Table.objects.filter(pk=table.pk).update(banker=banker)
    log_in(page, live_server, "bea")
    page.goto(f"{live_server.url}/bank/tables/{table.pk}/")
    page.wait_for_selector("[data-clock-remaining]")

    assert complaints == []
