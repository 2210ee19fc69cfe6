"""The public standings in a real phone-sized browser: they update by themselves (htmx
polling the cached fragment) when the head judge posts a round, with no reload."""

from scoring.services.posting import round_post
from spectator.services import release_set
from tests.browser.test_standings_browser import PLAYERS, signed_round_1
from tournament.models import Round


def test_the_standings_appear_without_a_reload_when_round_1_is_posted(
    live_server, browser, settings
):
    # The same polling as in the hall, every second instead of every 15 (no test waits idle).
    settings.BOARDWALK_LIVE_POLL_SECONDS = 1
    event = signed_round_1()
    release_set(event=event, pages={"home": True, "standings": True}, by=None)
    context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
    phone = context.new_page()
    phone.set_default_timeout(40_000)
    phone.goto(f"{live_server.url}/events/{event.pk}/standings/")
    assert "Nothing is posted here yet." in phone.inner_text("main")
    # A marker that a reload would wipe.
    phone.evaluate("window.boardwalkMarker = 'still here'")

    round_post(round_=Round.objects.get(event=event, number=1), by=None)

    rows = phone.locator("table.standings tbody tr")
    rows.first.wait_for()  # the next poll swaps the fragment in
    assert rows.count() == len(PLAYERS)
    assert [rows.nth(i).locator(".alias").inner_text() for i in range(4)] == list(PLAYERS)
    assert phone.evaluate("window.boardwalkMarker") == "still here"
    assert "Realname" not in phone.inner_text("main")
    context.close()
