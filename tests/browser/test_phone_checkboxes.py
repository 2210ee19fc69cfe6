"""Checkboxes sit beside their labels on a phone: the registration declarations and
the organizer's public-release switches, at 390x844."""

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from tournament.roles import ORGANIZER
from tournament.services import event_create

BESIDE = """(box) => {
  const label = document.querySelector(`label[for="${box.id}"]`);
  const b = box.getBoundingClientRect(), l = label.getBoundingClientRect();
  return {besideRight: l.left >= b.right - 1, sameLine: l.top < b.bottom && b.top < l.bottom,
          labelRight: l.right, width: document.documentElement.clientWidth};
}"""


def _check_all(page, selector: str) -> int:
    boxes = page.locator(selector)
    for index in range(boxes.count()):
        box = boxes.nth(index)
        if not box.get_attribute("id"):
            continue
        where = box.evaluate(BESIDE)
        assert where["besideRight"] and where["sameLine"], (box.get_attribute("id"), where)
        assert where["labelRight"] <= where["width"], where
    return boxes.count()


@pytest.mark.django_db(transaction=True)
def test_checkbox_labels_stay_beside_their_boxes_on_a_phone(live_server, browser):
    event = event_create(
        name="Phone Cup",
        organization="Club",
        venue="Hall",
        date=datetime.date.today() + datetime.timedelta(days=30),
        start_time=datetime.time(10, 0),
        citizenship_declaration=True,
    )
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/events/{event.pk}/register/")
        assert _check_all(page, "form input[type=checkbox]") >= 2
        user = User.objects.create_user("org", password="pw")
        user.groups.add(Group.objects.get(name=ORGANIZER))
        client = Client()
        client.force_login(user)
        session = client.cookies["sessionid"].value
        context.add_cookies([{"name": "sessionid", "value": session, "url": live_server.url}])
        page.goto(f"{live_server.url}/organizer/events/{event.pk}/public/")
        assert _check_all(page, "form input[type=checkbox]") >= 5
    finally:
        context.close()
