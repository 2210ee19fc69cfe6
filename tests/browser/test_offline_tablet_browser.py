"""The banker's tablet through a Wi-Fi outage, in chromium at tablet size.

Playwright's offline mode cuts the page and its service worker off the network. One
browser context is one tablet: its pages share the service worker, IndexedDB and
localStorage, so closing a page and opening a new one is the browser closed and reopened.
Every page collects Content-Security-Policy complaints; there must be none.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from banker.links import banker_link_issue
from scoring.models import SheetRevision, SheetSignature, TableSheet
from scoring.selectors import banker_table_players
from tests.banker.banker_setup import finished_tables
from tests.banker.offline_helpers import playing_table
from tournament.models import Table, TabletHeartbeat, TabletWrite

REPORT = """
document.addEventListener('securitypolicyviolation', (e) => {
  console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI);
});
"""
CASH = (3000, 2000, 1500, 1000)


class Tablet:
    """One tablet: a browser context, its open page, and the CSP complaints of its pages."""

    def __init__(self, browser):
        self.context = browser.new_context(viewport={"width": 1024, "height": 768})
        self.context.add_init_script(REPORT)
        self.complaints: list[str] = []
        self.page = self.open()

    def open(self):
        page = self.context.new_page()
        page.set_default_timeout(15_000)
        page.on(
            "console",
            lambda message: (
                self.complaints.append(message.text)
                if "Content Security Policy" in message.text or "CSP violation" in message.text
                else None
            ),
        )
        return page

    def reopen(self):
        """The browser closed and opened again: a new page, the same storage."""
        self.page.close()
        self.page = self.open()
        return self.page

    def offline(self, value: bool) -> None:
        """The tablet loses (or finds) the network: its pages and its service worker alike.
        Playwright's offline emulation leaves the worker's own fetches online
        (microsoft/playwright#2311), so those are aborted here while offline; without it, a
        write the worker sends on could reach the server from an "offline" tablet."""
        self.context.set_offline(value)
        if value:
            self.context.route("**/*", _worker_offline)
        else:
            self.context.unroute("**/*", _worker_offline)

    def ready_offline(self, table: Table) -> None:
        """The service worker runs and has kept the table's clock page and sheet."""
        self.wait_for(
            """async (urls) => {
              if (!navigator.serviceWorker.controller) return false;
              const cache = await caches.open('boardwalk-pages');
              for (const url of urls) if (!(await cache.match(url))) return false;
              return true;
            }""",
            [f"/bank/tables/{table.pk}/", f"/bank/tables/{table.pk}/sheet/"],
        )

    def clock_kept(self) -> None:
        """The clock's last state is kept too, to run on from offline."""
        self.wait_for(
            """async () => {
              const cache = await caches.open('boardwalk-clock-state');
              return (await cache.keys()).length > 0;
            }"""
        )

    def wait_for(self, script: str, arg=None, seconds: float = 15) -> None:
        """Poll an async check from here (wait_for_function does not await a promise)."""
        deadline = time.monotonic() + seconds
        while not self.page.evaluate(script, arg):
            assert time.monotonic() < deadline, script
            time.sleep(0.25)


def _worker_offline(route) -> None:
    if route.request.service_worker is not None:
        route.abort("internetdisconnected")
    else:
        route.fallback()


def fill_sheet(page, table: Table, cash=CASH) -> None:
    for player, amount in zip(banker_table_players(table=table), cash, strict=True):
        page.fill(f"input[name=cash_{player.pk}]", str(amount))


def game_over(page) -> None:
    """Game over, with its confirmation step: open it, then confirm."""
    page.click("#game-over > summary")
    page.get_by_role("button", name="Yes, the game is over").click()


def remaining(page) -> str:
    return page.inner_text("[data-clock-remaining]").strip()


@pytest.fixture
def tablets(browser):
    made: list[Tablet] = []

    def make() -> Tablet:
        made.append(Tablet(browser))
        return made[-1]

    yield make
    for tablet in made:
        tablet.context.close()


def players_sign_offline_then_the_banker_online(tablet, page, players) -> None:
    """Offline again while the players sign: each signature waits its turn in the queue;
    back online, the banker signs last from the form."""
    tablet.offline(True)
    page.wait_for_selector("#tablet-panel[data-state='offline']")
    for player in players:
        page.fill(f"#initials-{player.pk}", player.alias[:2])
        page.click(f"#initials-{player.pk} ~ button")
        page.wait_for_selector(f"#initials-{player.pk}:disabled")
    page.wait_for_selector(f"#tablet-panel[data-waiting='{len(players)}']")
    assert not SheetSignature.objects.exists()
    tablet.offline(False)
    page.wait_for_selector("#initials-banker:not([disabled])", timeout=30_000)
    page.fill("#initials-banker", "BK")
    page.click("#initials-banker ~ button")
    page.wait_for_selector("[data-locked]")


def test_an_offline_tablet_ends_the_game_and_submits_and_everything_arrives_once_in_order(
    live_server, tablets
):
    table = playing_table()
    link = banker_link_issue(table=table, by=None)
    tablet = tablets()
    page = tablet.page
    page.goto(f"{live_server.url}/bank/k/{link.key}/")
    page.wait_for_selector("[data-clock]")
    tablet.ready_offline(table)
    tablet.clock_kept()

    # The network goes before the game is over; the tablet is reloaded.
    tablet.offline(True)
    page.reload()
    page.wait_for_selector("#tablet-panel[data-state='offline']")
    assert "Offline since" in page.inner_text("#tablet-panel")
    assert "The clock runs on from the last synchronisation" in page.inner_text("#tablet-panel")
    # The clock keeps running from the last synchronisation.
    first = remaining(page)
    page.wait_for_function(
        "(t) => document.querySelector('[data-clock-remaining]').textContent.trim() !== t",
        arg=first,
        timeout=5_000,
    )

    game_over(page)
    page.wait_for_selector("#tablet-panel[data-waiting='1']")
    assert "Game over" in page.inner_text("[data-tablet-list='waiting']")
    page.click("[data-tablet-to-sheet]")
    page.wait_for_selector("#sheet-form")
    fill_sheet(page, table)
    page.wait_for_selector("[data-tablet-rules-later]")
    assert "rules check will run when the connection returns" in page.inner_text(
        "[data-tablet-rules-later]"
    )
    page.click("#sheet-submit:not([disabled])")
    page.wait_for_selector("#tablet-panel[data-waiting='2']")
    assert "submitted when the connection returns" in page.inner_text("#sheet-status")
    assert not TabletWrite.objects.filter(table=table).exists()

    # The browser is closed and opened again, still offline: the queue and entries are kept.
    page = tablet.reopen()
    page.goto(f"{live_server.url}/bank/tables/{table.pk}/sheet/")
    page.wait_for_selector("#tablet-panel[data-waiting='2']")
    waiting = page.locator("[data-tablet-list='waiting'] li").all_inner_texts()
    assert "Game over" in waiting[0] and "Score sheet" in waiting[1]
    boot = banker_table_players(table=table)[0]
    assert page.input_value(f"input[name=cash_{boot.pk}]") == str(CASH[0])
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING

    # Back online: game over, then the sheet, and the signatures once it is accepted.
    tablet.offline(False)
    page.wait_for_selector(".sign-list", timeout=30_000)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    players = banker_table_players(table=table)
    players_sign_offline_then_the_banker_online(tablet, page, players)

    writes = list(TabletWrite.objects.filter(table=table).order_by("pk"))
    assert [w.action for w in writes] == [
        "table_finished",
        "sheet_submit",
        # The players' signatures from the queue, then the banker's, online, from its form.
        *["sheet_sign"] * (len(players) + 1),
    ]
    assert all(200 <= w.status_code < 400 for w in writes)
    sheet = TableSheet.objects.get(table=table)
    assert sheet.revisions.filter(kind=SheetRevision.Kind.SUBMISSION).count() == 1
    assert sheet.status == TableSheet.Status.SIGNED
    signed = list(sheet.signatures.order_by("signed_at", "pk"))
    assert [s.player_id for s in signed] == [p.pk for p in players] + [None]
    # The tablet reported in while online: the judges' "last heard" is the server's record.
    assert TabletHeartbeat.objects.filter(table=table).exists()
    assert tablet.complaints == []


def test_two_tablets_one_offline_the_one_reconnecting_second_gets_the_conflict(
    live_server, tablets
):
    table = finished_tables(players=4)[0]
    link = banker_link_issue(table=table, by=None)
    first, second = tablets(), tablets()
    for tablet in (first, second):
        tablet.page.goto(f"{live_server.url}/bank/k/{link.key}/")
        tablet.page.wait_for_selector("#sheet-form")
    first.ready_offline(table)

    first.offline(True)
    fill_sheet(first.page, table)
    first.page.click("#sheet-submit:not([disabled])")
    first.page.wait_for_selector("#tablet-panel[data-waiting='1']")

    # The other tablet, online all along, submits its own numbers first.
    fill_sheet(second.page, table, cash=(2500, 2000, 1500, 1000))
    second.page.click("#sheet-submit:not([disabled])")
    second.page.wait_for_selector(".sign-list")

    first.offline(False)
    conflict = first.page.locator("#sheet-conflict .sheet-conflict")
    conflict.wait_for(timeout=30_000)
    # The conflict and the status line are drawn one after the other: wait for both.
    expect(first.page.locator("#sheet-status")).to_contain_text("Another tablet changed this sheet")
    boot = banker_table_players(table=table)[0]
    # Nothing typed on the offline tablet is lost, and it did not overwrite the other's.
    assert first.page.input_value(f"input[name=cash_{boot.pk}]") == str(CASH[0])
    sheet = TableSheet.objects.get(table=table)
    assert sheet.revisions.filter(kind=SheetRevision.Kind.SUBMISSION).count() == 1
    assert {p["id"]: p["cash"] for p in sheet.data["players"]}[str(boot.pk)] == 2500
    refused = first.page.locator("[data-tablet-list='done'] [data-state='refused']")
    expect(refused).to_have_count(1)
    expect(refused).to_contain_text("Another tablet changed the sheet first")
    assert first.complaints == [] and second.complaints == []


def test_a_sheet_refused_on_reconnection_comes_back_with_the_reasons_beside_the_deeds(
    live_server, tablets
):
    table = finished_tables(players=4)[0]
    link = banker_link_issue(table=table, by=None)
    tablet = tablets()
    page = tablet.page
    page.goto(f"{live_server.url}/bank/k/{link.key}/")
    page.wait_for_selector("#sheet-form")
    tablet.ready_offline(table)

    tablet.offline(True)
    fill_sheet(page, table)
    boot = banker_table_players(table=table)[0]
    # A house on Boardwalk alone breaks the rules, but offline nobody can tell yet.
    page.select_option("select[name=owner_39]", str(boot.pk))
    page.select_option("select[name=buildings_39]", "1")
    page.wait_for_selector("[data-tablet-rules-later]")
    assert page.locator("#deed-msgs-39 p").count() == 0
    page.click("#sheet-submit:not([disabled])")
    page.wait_for_selector("#tablet-panel[data-waiting='1']")

    tablet.offline(False)
    page.wait_for_selector("#deed-msgs-39 p", timeout=30_000)
    # The deeds' reasons and the status line are drawn one after the other: wait for both.
    expect(page.locator("#sheet-status")).to_contain_text("The sheet was not submitted")
    assert page.input_value(f"input[name=cash_{boot.pk}]") == str(CASH[0])
    assert page.input_value("select[name=buildings_39]") == "1"
    expect(page.locator("[data-tablet-list='done'] [data-state='refused']")).to_have_count(1)
    sheet = TableSheet.objects.get(table=table)
    assert sheet.status == TableSheet.Status.DRAFT
    assert not sheet.revisions.filter(kind=SheetRevision.Kind.SUBMISSION).exists()
    assert tablet.complaints == []


def test_a_button_pressed_on_a_wifi_that_reaches_nothing_is_queued_not_lost(live_server, tablets):
    """The tablet believes it is online (the Wi-Fi is up) but the server cannot be reached:
    the game over posted the ordinary way joins the queue and goes through later, once."""
    table = playing_table()
    link = banker_link_issue(table=table, by=None)
    tablet = tablets()
    page = tablet.page
    page.goto(f"{live_server.url}/bank/k/{link.key}/")
    page.wait_for_selector("[data-clock]")
    tablet.ready_offline(table)

    def unreachable(route):
        route.abort("connectionrefused")

    tablet.context.route("**/game-over/", unreachable)
    game_over(page)
    page.wait_for_selector("#tablet-panel[data-waiting='1']")
    assert "Game over" in page.inner_text("[data-tablet-list='waiting']")
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING

    tablet.context.unroute("**/game-over/", unreachable)
    page.wait_for_function(
        "() => document.body.textContent.includes('Score entry is open for this table')",
        timeout=30_000,
    )
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert TabletWrite.objects.filter(table=table, action="table_finished").count() == 1
    assert tablet.complaints == []


def test_last_turn_and_a_bankruptcy_offline_arrive_in_order_and_the_panel_fits_a_phone(
    live_server, tablets
):
    table = playing_table(time_up=True)
    link = banker_link_issue(table=table, by=None)
    tablet = tablets()
    page = tablet.page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/bank/k/{link.key}/")
    page.wait_for_selector("[data-clock]")
    tablet.wait_for(
        """async (url) => {
          if (!navigator.serviceWorker.controller) return false;
          return !!(await (await caches.open('boardwalk-pages')).match(url));
        }""",
        f"/bank/tables/{table.pk}/bankruptcy/",
    )

    tablet.offline(True)
    page.get_by_role("button", name="Last turn").click()
    page.wait_for_selector("#tablet-panel[data-waiting='1']")
    page.click("text=A player went bankrupt")
    page.wait_for_selector("form.bankruptcy-form")
    page.click("fieldset:has(legend:text('Who went bankrupt?')) label:has-text('Dog')")
    page.click("fieldset:has(legend:text('To whom?')) label:has-text('The Bank')")
    page.fill("input[name=initials]", "DG")
    page.click("text=Record and sign")
    page.wait_for_selector("[data-clock]")
    page.wait_for_selector("#tablet-panel[data-waiting='2']")
    waiting = page.locator("[data-tablet-list='waiting'] li").all_inner_texts()
    assert "Last turn" in waiting[0] and "Bankruptcy · Dog" in waiting[1]
    # The panel fits the phone's width: nothing runs off the side.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    tablet.offline(False)
    page.wait_for_selector(".bankruptcy-list", timeout=30_000)
    assert "signed DG" in page.inner_text(".bankruptcy-list")
    table.refresh_from_db()
    assert table.status == Table.Status.LAST_TURN
    actions = list(
        TabletWrite.objects.filter(table=table).order_by("pk").values_list("action", flat=True)
    )
    assert actions == ["table_last_turn", "bankruptcy_record"]
    assert tablet.complaints == []
