"""The public pages in a real browser."""

import pytest
from django.core.management import call_command


@pytest.mark.django_db(transaction=True)
def test_home_page_lists_the_demo_event_and_opens_it(live_server, page):
    call_command("load_demo", verbosity=0)
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Boardwalk Demo Open").click()
    page.wait_for_url("**/events/*/")
    assert "Community Hall" in page.content()
