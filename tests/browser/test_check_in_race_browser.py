"""The check-in desk: a slow search answer never undoes a check-in shown on screen.

The search is held in the browser (Playwright's routing) after the server answered it, as
a slow network would hold it; meanwhile the judge checks someone in. When the old answer
finally arrives it would show that person as not checked in: the desk drops it and asks
again.
"""

import datetime
import re

import pytest
from django.contrib.auth.models import Group, User

from players.services import Registration, player_register
from tournament.models import Player
from tournament.services import event_create

PASSWORD = "a long Boardwalk passphrase"


@pytest.fixture
def event(transactional_db):
    user = User.objects.create_user("jules", password=PASSWORD)
    user.groups.add(Group.objects.get(name="Judge"))
    event = event_create(
        name="Desk Cup",
        organization="Club",
        venue="Hall",
        date=datetime.date(2031, 5, 1),
        start_time=datetime.time(9, 30),
        expected_players=8,
    )
    for i in range(3):
        player_register(
            event=event,
            registration=Registration(
                first_name=f"Deskname{i}",
                last_name=f"Surname{i}",
                date_of_birth=datetime.date(1990, 1, 1),
                signature=f"Deskname{i} Surname{i}",
                eligibility_declared=True,
                citizenship_declared=True,
            ),
            source=Player.Source.ON_THE_DAY,
        )
    return event


def test_a_slow_search_answer_does_not_undo_a_check_in(live_server, page, event):
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("jules")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/organizer/events/{event.pk}/check-in/")
    ada = Player.objects.get(event=event, first_name="Deskname0")
    row = page.locator(f"#check-in-{ada.pk}")
    assert row.get_by_role("button", name="Check in").is_visible()

    held = []  # the first search: answered by the server now, delivered later

    def hold_first_search(route):
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))

    page.route(re.compile(r".*/check-in/\?q=.*"), hold_first_search)
    page.get_by_label("Name or alias").fill("Deskname")
    for _ in range(50):  # Playwright calls the route's handler while the page is waited on
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the search was sent"
    assert Player.objects.get(pk=ada.pk).checked_in_at is None  # the held answer says so

    row.get_by_role("button", name="Check in").click()
    row.get_by_role("button", name="Undo").wait_for()
    assert Player.objects.get(pk=ada.pk).checked_in_at is not None

    route, response = held[0]
    with page.expect_response(re.compile(r".*/check-in/\?q=.*")):
        route.fulfill(response=response)  # the stale answer arrives; a new search follows
    # Both answers swapped in and settled: htmx marks an element while it asks or swaps.
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )
    row = page.locator(f"#check-in-{ada.pk}")
    assert row.get_by_role("button", name="Undo").is_visible()
    assert row.get_by_role("button", name="Check in").count() == 0
    assert "is-checked-in" in row.get_attribute("class")
