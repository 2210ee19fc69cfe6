"""The banker's sheet on a tablet held upright (768 x 1024): a six-player final's sheet
shows every player's column without scrolling sideways, one player at a time with
"Player 3 of 6" above the table and the row labels kept, and the totals bar takes at most
120 px. At 1024 x 768 (landscape) the four-player sheet stays a table of all players.
Screenshots in ``artifacts/portrait-sheet/``."""

from __future__ import annotations

from pathlib import Path

from banker.links import banker_link_issue
from scoring.selectors import banker_table_players
from tests.banker.banker_setup import finished_tables

ARTIFACTS = Path("artifacts/portrait-sheet")
UPRIGHT = {"width": 768, "height": 1024}


def _open(browser, live_server, table, viewport):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(15_000)
    link = banker_link_issue(table=table, by=None)
    page.goto(f"{live_server.url}/bank/k/{link.key}/")
    page.wait_for_selector("#sheet-form")
    return context, page


def _sideways(page) -> int:
    return page.evaluate(
        "() => { const box = document.querySelector('.sheet-players').closest('[data-scroll-box]');"
        " return box.scrollWidth - box.clientWidth; }"
    )


def test_a_six_player_final_sheet_upright_one_player_at_a_time(browser, live_server):
    (table,) = finished_tables(players=6, table_size=6)
    players = banker_table_players(table=table)
    context, page = _open(browser, live_server, table, UPRIGHT)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pager = page.locator("[data-sheet-pager]")
    assert pager.is_visible()
    assert _sideways(page) <= 1
    label = page.locator("[data-pager-label]")
    assert label.inner_text().startswith("Player 1 of 6: " + players[0].alias)
    # Every player's column is reached by the pager; each shows its own cash field.
    for index, player in enumerate(players):
        cash = page.locator(f"input[name=cash_{player.pk}]")
        assert cash.is_visible(), player.alias
        assert page.locator("th", has_text="Or counted total").first.is_visible()
        cash.fill(str(1000 + 100 * index))
        if index == 2:
            page.screenshot(path=ARTIFACTS / "six-players-upright-player-3.png", full_page=False)
        if index < len(players) - 1:
            page.get_by_role("button", name="Next player").click()
            assert label.inner_text().startswith(f"Player {index + 2} of 6")
        assert _sideways(page) <= 1
    bar = page.locator(".sheet-bar").bounding_box()
    assert bar["height"] <= 120, bar
    # The totals bar shows every player's net worth, typed in other columns too.
    first_worth = f"[data-worth='{players[0].pk}'] [data-net-worth]"
    page.wait_for_function(
        "(s) => document.querySelector(s).textContent.includes('1,000')", arg=first_worth
    )
    page.screenshot(path=ARTIFACTS / "six-players-upright.png", full_page=True)
    context.close()


def test_a_table_of_four_in_landscape_keeps_every_column(browser, live_server):
    table = finished_tables(players=4)[0]
    context, page = _open(browser, live_server, table, {"width": 1024, "height": 768})
    assert not page.locator("[data-sheet-pager]").is_visible()
    for player in banker_table_players(table=table):
        assert page.locator(f"input[name=cash_{player.pk}]").is_visible()
    page.screenshot(path=ARTIFACTS / "four-players-landscape.png", full_page=False)
    context.close()
