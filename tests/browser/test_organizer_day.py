"""The organizer's day, clicked through in a real browser at tablet size.

An organizer creates events of each format, players register themselves and arrive by CSV,
the organizer sees aliases and alternates, checks players in and marks a no-show, and the
first alternate takes the seat.
"""

import datetime
import re

import pytest
from django.contrib.auth.models import Group, User

from tournament.models import Event, Player

PASSWORD = "a long Boardwalk passphrase"


@pytest.fixture
def organizer(transactional_db):
    user = User.objects.create_user("olive", password=PASSWORD)
    user.groups.add(Group.objects.get(name="Organizer"))
    return user


def log_in(page, live_server):
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url("**/organizer/")


def create_event(page, live_server, format_key, name, **numbers):
    page.goto(f"{live_server.url}/organizer/events/new/?format={format_key}")
    page.fill("[name=name]", name)
    page.fill("[name=organization]", "Boardwalk Club")
    page.fill("[name=venue]", "Pier Hall")
    page.fill("[name=date]", "2031-06-07")
    page.fill("[name=start_time]", "10:00")
    for field, value in numbers.items():
        page.fill(f"[name={field}]", str(value))
    page.get_by_role("button", name="Create event").click()
    page.wait_for_url("**/players/")
    return Event.objects.get(name=name)


def register_self(browser, live_server, event, first, last, born):
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.goto(f"{live_server.url}/events/{event.pk}/register/")
    page.fill("[name=first_name]", first)
    page.fill("[name=last_name]", last)
    page.fill("[name=date_of_birth]", born)
    page.fill("[name=email]", f"{first.lower()}@example.org")
    page.check("[name=eligibility_declared]")
    page.fill("[name=signature]", f"{first} {last}")
    page.get_by_role("button", name="Register").click()
    page.wait_for_url("**/register/done/")
    text = page.inner_text("main")
    context.close()
    return text


def test_an_organizers_day(live_server, browser, page, organizer):
    log_in(page, live_server)

    championship = create_event(page, live_server, "championship", "National Heat")
    junior = create_event(page, live_server, "junior", "Junior Cup")
    club = create_event(page, live_server, "club", "Charity Night", expected_players=4)
    assert (championship.minimum_age, championship.preliminary_rounds) == (16, 3)
    assert (junior.maximum_age, junior.preliminary_rounds) == (15, 1)
    assert (club.table_size_min, club.advancing, club.expected_players) == (3, 6, 4)

    # Five people register themselves; the fifth finds the event full.
    people = [("Ann", "Avery"), ("Bob", "Brook"), ("Cat", "Cole"), ("Dan", "Dale"), ("Eve", "Eno")]
    confirmations = [
        register_self(browser, live_server, club, first, last, "1990-02-03")
        for first, last in people
    ]
    ann = Player.objects.get(first_name="Ann")
    assert ann.alias in confirmations[0]
    assert "alternate" in confirmations[4].lower() and "1" in confirmations[4]

    # Two more arrive by CSV and queue behind Eve.
    page.goto(f"{live_server.url}/organizer/events/{club.pk}/players/import/")
    page.fill(
        "[name=text]",
        "first_name,last_name,date_of_birth,email,eligibility_declared\n"
        "Fay,Fox,1985-05-05,fay@example.org,yes\n"
        "Gus,Gray,1979-07-07,gus@example.org,yes\n",
    )
    page.get_by_role("button", name="Import").click()
    page.wait_for_load_state()
    assert "2" in page.inner_text("main")

    page.goto(f"{live_server.url}/organizer/events/{club.pk}/players/")
    listing = page.inner_text("main")
    for player in Player.objects.filter(event=club):
        assert player.alias in page.content()
    alternates = listing[listing.index("Alternates") :]
    assert alternates.index("Eve") < alternates.index("Fay") < alternates.index("Gus")

    # Check-in by alias at the desk.
    page.goto(f"{live_server.url}/organizer/events/{club.pk}/check-in/")
    page.fill("[name=q]", ann.alias.split()[-1])
    page.keyboard.press("Enter")
    row = page.locator(".check-in-row").filter(has_text=ann.alias).first
    row.get_by_role("button", name="Check in").click()
    page.wait_for_load_state("networkidle")
    ann.refresh_from_db()
    assert ann.checked_in_at is not None

    # Bob never shows up: the first alternate, Eve, takes his seat.
    bob = Player.objects.get(first_name="Bob")
    # No-shows only once the start has passed; the day is moved to today, from
    # midnight, on the event's page. The no-show then asks to confirm.
    page.goto(f"{live_server.url}/organizer/events/{club.pk}/edit/")
    page.fill("[name=date]", datetime.date.today().isoformat())
    page.fill("[name=start_time]", "00:00")
    page.get_by_role("button", name="Save").click()
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/organizer/events/{club.pk}/players/")
    page.get_by_role("link", name=f"No-show: {bob.alias}").click()
    assert "takes the seat" in page.inner_text("#no-show-consequence")
    page.locator("#confirm-no-show").click()
    page.wait_for_load_state()
    eve = Player.objects.get(first_name="Eve")
    bob.refresh_from_db()
    assert (bob.status, eve.status, eve.replaces_id) == ("no_show", "player", bob.pk)
    assert eve.alias in page.inner_text("main")
    assert list(
        Player.objects.filter(event=club, status="alternate")
        .order_by("alternate_position")
        .values_list("first_name", "alternate_position")
    ) == [("Fay", 1), ("Gus", 2)]
