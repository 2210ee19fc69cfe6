"""The organizer confirms the Finals entrants from the series page, in a real browser.

The requirement: "a browser test of the organizer confirming the Finals entrants from the series
page". Championship Rules: "From each event the 4 players with the highest Point scores (not net
worth) will progress through to the MONOPOLY Championship Finals".
"""

import re
from pathlib import Path

from django.contrib.auth.models import Group, User

from series import services
from series.models import Entrant
from tests.series.series_helpers import enter, play_round, regional, three_tables
from tournament.models import Player

PASSWORD = "a long Boardwalk passphrase"
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "series"


def _played_series():
    finals = regional("Browser Finals", day=28)
    series = services.series_create(name="Browser Series", season="2030", finals=finals)
    north = regional("Browser North", day=10)
    services.series_add_event(series=series, event=north)
    players = enter(north, "ABCDEFGHIJKL")
    play_round(north, three_tables(players))
    return series, players


def _log_in(page, live_server):
    organizer = User.objects.create_user("olive", password=PASSWORD)
    organizer.groups.add(Group.objects.get(name="Organizer"))
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_load_state()


def test_the_organizer_confirms_the_finals_entrants_from_the_series_page(
    live_server, browser, page
):
    series, p = _played_series()
    _log_in(page, live_server)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/organizer/series/{series.pk}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    rows = page.locator("#senior table.entrants-table tbody tr")
    # I, E, A and B qualified (B ahead of F and J on net worth at fourth).
    assert [rows.nth(i).get_attribute("data-entrant") for i in range(4)] == [
        p[k].alias for k in "IEAB"
    ]
    # The answer is a state apart from the actions that record one.
    first = page.locator(f'tr[data-entrant="{p["I"].alias}"]')
    assert first.locator("[data-answer]").inner_text() == "Waiting for an answer"
    # While they have not answered, the page says what confirming waits for.
    assert "have not answered yet" in page.locator("#senior [data-confirm-missing]").inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "series-1280-waiting.png"), full_page=True)
    # Each qualifier's answer is recorded from the page.
    for letter in "IEAB":
        row = page.locator(f'tr[data-entrant="{p[letter].alias}"]')
        row.get_by_role("button", name=f"Record that {p[letter].alias} accepted").click()
        page.wait_for_load_state()
        assert row.locator("[data-answer]").inner_text() == "Accepted"
    assert set(Entrant.objects.values_list("response", flat=True)) == {"accepted"}
    assert page.locator("#senior [data-confirm-missing]").count() == 0

    page.locator("#senior").get_by_role("link", name="Confirm the entrants").click()
    page.wait_for_url(f"**/organizer/series/{series.pk}/senior/confirm/")
    assert "This cannot be undone here." in page.inner_text("main")
    assert page.locator("ol.confirm-places li").count() == 4
    # Four is fewer than a championship needs: said, and asked before going on.
    short = page.locator("[data-confirm-short]").inner_text()
    assert "Only 4 entrants have accepted" in short and "needs at least" in short
    page.get_by_label("I have checked the list").check()
    page.get_by_role("button", name="Confirm and register").click()
    assert series.finals.players.count() == 0  # not without the second tick
    page.get_by_label("I have checked the list").check()
    page.get_by_label("Confirm anyway: I have read what is short above").check()
    page.get_by_role("button", name="Confirm and register").click()
    page.wait_for_url(re.compile(rf"/organizer/series/{series.pk}/#senior$"))
    assert "The entrants are confirmed: 4 registered in Browser Finals." in page.inner_text("main")
    assert sorted(
        series.finals.players.filter(status=Player.Status.PLAYER).values_list(
            "first_name", flat=True
        )
    ) == sorted(p[k].first_name for k in "IEAB")
    # Confirmed: no more answers or confirmation on the page.
    assert page.locator("#senior").get_by_role("link", name="Confirm the entrants").count() == 0


def test_the_series_page_fits_a_phone(live_server, browser):
    series, _p = _played_series()
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    phone = context.new_page()
    _log_in(phone, live_server)
    phone.goto(f"{live_server.url}/organizer/series/{series.pk}/")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    phone.screenshot(path=str(SHOTS / "series-390.png"), full_page=True)
    assert phone.get_by_role("link", name="Confirm the entrants").first.is_visible()
    context.close()
