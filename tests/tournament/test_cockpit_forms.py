"""The event form and confirmations: every error in one pass, required fields
marked, no date in the past, no negative money; posting asks to confirm and a button that
cannot act is disabled with its reason beside it."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.players.organizer_pages import browser_data
from tournament.models import Event
from tournament.services import event_create, event_update


@pytest.fixture
def organizer_client(client, db):
    user = User.objects.create_user("olive")
    user.groups.add(Group.objects.get(name="Organizer"))
    client.force_login(user)
    return client


def post_new_event(client, **overrides):
    url = reverse("tournament:event_create") + "?format=championship"
    page = client.get(url)
    data = {
        **browser_data(page),
        "name": "Pier Cup",
        "organization": "Pier Club",
        "venue": "Pier Hall",
        "date": "2031-06-07",
        "start_time": "10:00",
        **overrides,
    }
    return client.post(url, data)


def test_field_and_cross_field_errors_come_in_one_pass(organizer_client):
    response = post_new_event(
        organizer_client,
        name="",  # a missing required field...
        venue="",
        table_size_min="6",  # ...and a check across fields...
        table_size_max="4",
        money_raised="-5",  # ...and negative money...
        date="2001-01-01",  # ...and a date in the past: all at once.
    )
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert set(errors) >= {"name", "venue", "table_size_min", "money_raised", "date"}
    assert "The smallest table cannot be larger than the largest." in errors["table_size_min"]
    assert "Money raised cannot be negative." in errors["money_raised"]
    assert "This date is in the past." in errors["date"]
    html = response.content.decode()
    # One summary names each field with a link to it.
    assert 'id="form-errors"' in html and 'href="#id_money_raised"' in html
    assert not Event.objects.exists()


def test_required_fields_are_marked_and_the_browser_does_not_stop_at_the_first(
    organizer_client,
):
    html = organizer_client.get(reverse("tournament:event_create")).content.decode()
    assert '<label for="id_name" class="required">' in html
    assert '<label for="id_charity">' in html  # optional, unmarked
    assert "novalidate" in html


def test_a_valid_event_is_created(organizer_client):
    response = post_new_event(organizer_client)
    assert response.status_code == 302
    assert Event.objects.get().name == "Pier Cup"


def test_editing_an_event_already_past_does_not_refuse_its_own_date(organizer_client, db):
    event = event_create(
        name="Old Cup",
        organization="Club",
        venue="Hall",
        date=datetime.date(2020, 1, 1),
        start_time=datetime.time(10, 0),
    )
    url = reverse("tournament:event_edit", kwargs={"pk": event.pk})
    data = {**browser_data(organizer_client.get(url)), "venue": "New Hall"}
    response = organizer_client.post(url, data)
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.venue == "New Hall"


def test_the_service_refuses_negative_money_too(db):
    event = event_create(
        name="Cup", organization="Club", venue="Hall",
        date=datetime.date(2031, 1, 1), start_time=datetime.time(10, 0),
    )  # fmt: skip
    with pytest.raises(ValidationError) as refused:
        event_update(event=event, money_raised=-1, table_size_min=6, table_size_max=4)
    assert set(refused.value.message_dict) == {"money_raised", "table_size_min"}


def test_seating_all_rounds_again_asks_a_second_tap(organizer_client, db):
    from django.utils import timezone

    from demo.simulation import event_build, people_generate

    event = event_build(
        name="Seated Cup",
        people=people_generate(count=19, seed=1),
        places=16,
        start=timezone.now() + datetime.timedelta(days=1),
        seed=1,
    )
    html = organizer_client.get(reverse("seating:seating", kwargs={"pk": event.pk}))
    body = html.content.decode()
    # Already pre-seated: the button sits behind a summary that says what it replaces.
    assert 'id="reseat"' in body and "table cards already printed no longer match" in body
    assert "Seat all rounds again now" in body
