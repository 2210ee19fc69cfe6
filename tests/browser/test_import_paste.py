"""A paste too large to send stays in its box, in a real browser."""

import re

import pytest
from django.contrib.auth.models import Group, User

from tournament.services import event_create

PASSWORD = "a long Boardwalk passphrase"


@pytest.fixture
def event(transactional_db):
    import datetime

    user = User.objects.create_user("olive", password=PASSWORD)
    user.groups.add(Group.objects.get(name="Organizer"))
    return event_create(
        name="Paste Cup",
        organization="Club",
        venue="Hall",
        date=datetime.date(2031, 5, 1),
        start_time=datetime.time(9, 30),
    )


def test_a_three_megabyte_paste_is_refused_before_sending_and_kept(live_server, page, event):
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url("**/organizer/")
    url = f"{live_server.url}/organizer/events/{event.pk}/players/import/"
    page.goto(url)
    text = "first_name,last_name,date_of_birth\n" + "Ada,Lovelace,1990-12-10\n" * 131_072
    box = page.locator("textarea")
    # As a paste puts it there: typing 3 MB key by key would take the test minutes. (A
    # function, not an expression: the page's Content-Security-Policy refuses eval.)
    box.evaluate("(element, value) => { element.value = value; }", text)
    # Laying out 3 MB of text is slow on a busy 2-core machine: a longer wait for the click.
    page.get_by_role("button", name="Import").click(timeout=30_000)
    alert = page.locator("[data-import-refused]")
    alert.wait_for(state="visible")
    assert "your text is still in the box" in alert.inner_text()
    assert page.url == url  # nothing was sent
    assert len(box.input_value()) == len(text)
