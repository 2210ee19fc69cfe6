"""The banker's sheet never contradicts itself, in chromium on a tablet.

- The tablet's script applies the server's submission rule: the cases written by hand in
  tests/scoring/sheet_readiness_cases.json, which the server is held to as well.
- Before game over the page never says "ready to submit"; once the game is marked over the
  same entries are ready and the server takes them.
- After a reconnection, with the entries put back from the tablet, the totals bar adds up
  what is in the fields. The sums are worked by hand from the Championship Rules' valuation: cash; a
  deed at its printed price, half when mortgaged; a house at its price.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.utils import translation

from banker.links import banker_link_issue
from gameplay import load_edition
from scoring.models import TableSheet
from scoring.selectors import banker_table_players
from tests.banker.banker_setup import finished_tables
from tests.banker.offline_helpers import playing_table
from tests.browser.test_offline_tablet_browser import Tablet, game_over
from tournament.models import Event
from tournament.money import money

CASES = json.loads(
    (Path(__file__).parents[1] / "scoring" / "sheet_readiness_cases.json").read_text()
)["cases"]
READY = "No problems: ready to submit."
BOARDWALK, PARK_PLACE, READING = 39, 37, 5


def verdict(page) -> str:
    return page.evaluate(
        "() => { const t = document.querySelector('#sheet-report [data-verdict-text]');"
        " return t && !t.hidden ? t.textContent.trim() : ''; }"
    )


def wait_verdict(page, text: str) -> None:
    page.wait_for_function(
        "(t) => { const n = document.querySelector('#sheet-report [data-verdict-text]');"
        " return n && !n.hidden && n.textContent.trim() === t; }",
        arg=text,
    )


def test_the_tablet_applies_the_servers_rule_to_the_same_cases(live_server, browser):
    table = finished_tables(players=4)[0]
    # The rupee edition groups its digits the Indian way: the tablet writes amounts as the
    # server does.
    Event.objects.filter(pk=table.round.event_id).update(edition="india-rupee")
    tablet = Tablet(browser)
    try:
        link = banker_link_issue(table=table, by=None)
        tablet.page.goto(f"{live_server.url}/bank/k/{link.key}/")
        tablet.page.wait_for_selector("#sheet-form")
        got = tablet.page.evaluate(
            "(cases) => cases.map((c) => window.BoardwalkSheet.blockers(c.facts))", CASES
        )
        assert got == [case["blockers"] for case in CASES]
        amounts = [0, 7, 1500, 150000, 12345678]
        written = tablet.page.evaluate("(a) => a.map(window.BoardwalkSheet.money)", amounts)
        with translation.override("en"):
            edition = load_edition("india-rupee")
            assert written == [money(amount, edition=edition) for amount in amounts]
        assert written[3] == "₹1,50,000"
    finally:
        tablet.context.close()


def test_before_game_over_the_sheet_is_never_ready_and_after_it_is(live_server, browser):
    table = playing_table()
    tablet = Tablet(browser)
    page = tablet.page
    try:
        link = banker_link_issue(table=table, by=None)
        page.goto(f"{live_server.url}/bank/k/{link.key}/")
        page.wait_for_selector("[data-clock]")
        page.goto(f"{live_server.url}/bank/tables/{table.pk}/sheet/")
        page.wait_for_selector("#sheet-form")
        players = banker_table_players(table=table)
        for player, cash in zip(players, (3000, 2000, 1500, 1000), strict=True):
            page.fill(f"input[name=cash_{player.pk}]", str(cash))
        # The engine finds nothing wrong; the game is not over, and the page says so.
        wait_verdict(page, "No problems found. Submit once the game is marked over.")
        assert "ready to submit" not in page.inner_text("#sheet-report")
        assert page.locator("#sheet-submit").is_disabled()

        page.click("text=Back to the table’s clock")
        game_over(page)
        page.wait_for_selector("a[href$='/sheet/'][data-primary-action]")
        page.goto(f"{live_server.url}/bank/tables/{table.pk}/sheet/")
        page.wait_for_selector("#sheet-form")
        # The same entries, kept on the tablet and saved as the draft, are ready now.
        wait_verdict(page, READY)
        page.click("#sheet-submit:not([disabled])")
        page.wait_for_selector(".sign-list")
        assert TableSheet.objects.get(table=table).status == TableSheet.Status.SUBMITTED
        assert tablet.complaints == []
    finally:
        tablet.context.close()


def totals(page, players) -> list[tuple[str, str]]:
    """Each player's net worth in the bar and in the players' table."""
    return [
        (
            page.inner_text(f"[data-worth='{p.pk}'] [data-net-worth]").strip(),
            page.inner_text(f"#player-worth-{p.pk}").strip(),
        )
        for p in players
    ]


def supply(page) -> tuple[str, str]:
    return (
        page.inner_text("[data-supply='houses'] [data-supply-count]").strip(),
        page.inner_text("[data-supply='hotels'] [data-supply-count]").strip(),
    )


def enter(page, players) -> None:
    boot, car, hat, dog = players
    for _ in range(2):
        page.click(f"input[name=bills_{boot.pk}_500] ~ button[data-step='1']")
    for _ in range(3):
        page.click(f"input[name=bills_{boot.pk}_100] ~ button[data-step='1']")
    page.select_option(f"select[name=owner_{BOARDWALK}]", str(boot.pk))
    page.select_option(f"select[name=owner_{PARK_PLACE}]", str(boot.pk))
    page.select_option(f"select[name=buildings_{BOARDWALK}]", "1")
    page.select_option(f"select[name=buildings_{PARK_PLACE}]", "1")
    page.fill(f"input[name=cash_{car.pk}]", "1500")
    page.select_option(f"select[name=owner_{READING}]", str(car.pk))
    page.check(f"input[name=mortgaged_{READING}]")
    page.fill(f"input[name=cash_{hat.pk}]", "1000")
    page.check(f"input[name=bankrupt_{dog.pk}]")
    page.fill(f"input[name=out_order_{dog.pk}]", "1")


# Worked by hand. Boot: 2 x $500 + 3 x $100 = $1,300; Boardwalk $400 and Park Place $350,
# a house on each at $200: $2,450. Car: $1,500 counted, Reading Railroad mortgaged at half
# its $200: $1,600. Hat: $1,000. Dog went bankrupt with nothing. Two houses, no hotel.
EXPECTED = [("$2,450",) * 2, ("$1,600",) * 2, ("$1,000",) * 2, ("$0",) * 2]


def test_after_a_reconnection_the_totals_add_up_the_fields_put_back(live_server, browser):
    table = finished_tables(players=4)[0]
    players = banker_table_players(table=table)
    tablet = Tablet(browser)
    try:
        link = banker_link_issue(table=table, by=None)
        tablet.page.goto(f"{live_server.url}/bank/k/{link.key}/")
        tablet.page.wait_for_selector("#sheet-form")
        tablet.ready_offline(table)

        # The Wi-Fi goes: the entries are typed with nobody to check them.
        tablet.offline(True)
        enter(tablet.page, players)
        tablet.page.wait_for_selector("[data-tablet-rules-later]")
        assert totals(tablet.page, players) == EXPECTED

        # The tablet is reloaded, still offline: the page is the one kept from before the
        # entries; they are put back from the tablet, and the bar adds them up at once.
        page = tablet.reopen()
        page.goto(f"{live_server.url}/bank/tables/{table.pk}/sheet/")
        page.wait_for_selector("#sheet-form")
        page.wait_for_selector("[data-tablet-rules-later]")
        assert page.input_value(f"input[name=cash_{players[1].pk}]") == "1500"
        assert totals(page, players) == EXPECTED
        assert supply(page) == ("2", "0")
        # Not "ready": the rules check has not run. The sheet may go into the queue.
        assert "ready to submit" not in verdict(page)
        assert page.locator("#sheet-submit").is_enabled()

        # Back online: the engine's verdict arrives, and the bar still adds up the fields.
        tablet.offline(False)
        wait_verdict(page, READY)
        assert totals(page, players) == EXPECTED
        assert supply(page) == ("2", "0")
        assert tablet.complaints == []
    finally:
        tablet.context.close()
