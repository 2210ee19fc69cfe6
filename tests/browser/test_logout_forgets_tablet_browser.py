"""Signing out on a banker's tablet sends what waits (or asks), then forgets it all offline.

A banker signed in on a shared tablet has its table's pages, the clock's state and maybe a
queue of actions kept for the times without a network. Signing out first tries to send
what is waiting; while it cannot, it asks, and "no" keeps the banker signed in with the
queue intact. Once sent, the sign-out goes ahead and the pages, the clock's state and the
queue are gone from the browser: the next person finds none of it offline.
"""

from __future__ import annotations

from tests.banker.banker_setup import BANKER, user_with
from tests.banker.offline_helpers import playing_table
from tests.browser import test_offline_tablet_browser
from tests.browser.test_offline_tablet_browser import game_over
from tournament.models import Table, TabletWrite

# One browser context per tablet, closed after the test.
tablets = test_offline_tablet_browser.tablets

KEPT = """async () => {
  const pages = await caches.has('boardwalk-pages') &&
    (await (await caches.open('boardwalk-pages')).keys()).length;
  const state = await caches.has('boardwalk-clock-state') &&
    (await (await caches.open('boardwalk-clock-state')).keys()).length;
  const queue = await new Promise((resolve) => {
    const request = indexedDB.open('boardwalk-tablet');
    request.onsuccess = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains('actions')) { db.close(); return resolve(0); }
      const all = db.transaction('actions').objectStore('actions').getAll();
      all.onsuccess = () => { db.close(); resolve(all.result.length); };
    };
    request.onerror = () => resolve(-1);
  });
  const notes = Object.keys(localStorage).filter((k) => k.startsWith('boardwalk.tablet.'));
  return {pages: pages || 0, state: state || 0, queue, notes: notes.length};
}"""


def _refuse_game_over(route) -> None:
    route.abort("connectionrefused")


def test_logout_sends_what_waits_asks_while_it_cannot_then_forgets_the_tablet(live_server, tablets):
    table = playing_table()
    banker = user_with(BANKER, "tabletbanker")
    Table.objects.filter(pk=table.pk).update(banker=banker)
    tablet = tablets()
    page = tablet.page
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "tabletbanker")
    page.fill("#id_password", "pw")
    page.click("main button[type=submit]")
    page.goto(f"{live_server.url}/bank/tables/{table.pk}/")
    page.wait_for_selector("[data-clock]")
    tablet.ready_offline(table)
    tablet.clock_kept()

    # Game over while offline; back online the server cannot be reached for it.
    tablet.offline(True)
    page.reload()
    page.wait_for_selector("#tablet-panel[data-state='offline']")
    game_over(page)
    page.wait_for_selector("#tablet-panel[data-waiting='1']")
    tablet.context.route("**/game-over/", _refuse_game_over)
    tablet.offline(False)

    asked: list[str] = []

    def say_no(dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", say_no)
    page.click("form.logout button")
    page.wait_for_function("() => !document.querySelector('form.logout button').disabled")
    assert asked and "have not reached the server" in asked[0]
    # Still signed in, and nothing forgotten: the action still waits.
    assert page.locator("form.logout").count() == 1
    kept = page.evaluate(KEPT)
    assert kept["pages"] and kept["queue"] == 1
    assert not TabletWrite.objects.filter(table=table).exists()

    # The server can be reached again: signing out sends game over first, asks nothing.
    tablet.context.unroute("**/game-over/", _refuse_game_over)
    page.on("dialog", lambda dialog: asked.append(dialog.message) or dialog.dismiss())
    page.click("form.logout button")
    page.wait_for_selector("a[href*='/accounts/login/']")
    assert len(asked) == 1
    assert TabletWrite.objects.filter(table=table, action="table_finished").count() == 1
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert page.evaluate(KEPT) == {"pages": 0, "state": 0, "queue": 0, "notes": 0}
    # Offline, the table's page is not there for the next person.
    tablet.offline(True)
    response = None
    try:
        response = page.goto(f"{live_server.url}/bank/tables/{table.pk}/")
    except Exception:
        response = None
    assert response is None or response.status >= 400 or "Boot" not in page.content()
    assert tablet.complaints == []
