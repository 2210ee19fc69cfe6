"""Personal data stays out of caches, and the hall shows only what is released."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse
from django.utils import timezone

from clock import services as clock_services
from spectator.services import release_set
from tests.url_names import qualified
from tournament.models import Player, Round, Seat, Table, Wave
from tournament.roles import ORGANIZER


def ada(event) -> Player:
    """A registered player: her name, email and birth date are what must stay private."""
    return Player.objects.create(
        event=event,
        first_name="Ada",
        last_name="Realname",
        email="ada@example.org",
        date_of_birth=datetime.date(1990, 1, 1),
        signature="Ada",
        signed_at=timezone.now(),
        alias="Lucky Thimble",
    )


@pytest.fixture
def organizer_client(client, event):
    user = User.objects.create_user("org", password="pw")
    user.groups.add(Group.objects.get(name=ORGANIZER))
    client.force_login(user)
    ada(event)
    return client


@pytest.mark.parametrize("name", ["player_list", "player_export", "check_in", "player_import"])
def test_pages_with_names_and_birth_dates_are_never_stored(organizer_client, event, name):
    response = organizer_client.get(reverse(qualified(name), kwargs={"pk": event.pk}))
    assert response.status_code == 200
    directives = {part.strip() for part in response["Cache-Control"].split(",")}
    assert {"private", "no-store"} <= directives


def test_the_player_list_really_holds_them(organizer_client, event):
    """The pages above are the ones the issue means: they show the registered name."""
    body = organizer_client.get(reverse("players:player_list", kwargs={"pk": event.pk}))
    assert "Realname" in body.content.decode()


# --- The hall display ----------------------------------------------------------------------


@pytest.fixture
def wave(event) -> Wave:
    round_ = Round.objects.create(event=event, number=1)
    wave = Wave.objects.create(round=round_, number=1)
    table = Table.objects.create(round=round_, wave=wave, number=1)
    Seat.objects.create(round=round_, table=table, player=ada(event), position=1)
    clock_services.clock_start(wave=wave, now=timezone.now() - datetime.timedelta(minutes=10))
    return wave


def hall(client, wave):
    pk = wave.round.event_id
    state = client.get(reverse("spectator:hall_state", kwargs={"pk": pk})).json()
    page = client.get(reverse("spectator:hall_display", kwargs={"pk": pk})).content.decode()
    return state, page


def test_the_hall_shows_nothing_before_the_event_home_is_released(client, wave):
    state, page = hall(client, wave)
    assert state["wave"] is None and "tables" not in state
    assert "Lucky Thimble" not in page and "data-clock-remaining" not in page
    assert "once the organizer releases the event" in page


def test_the_hall_shows_the_clock_but_no_tables_until_they_are_released(client, wave):
    event = wave.round.event
    release_set(event=event, pages={"home": True}, by=None)
    state, page = hall(client, wave)
    assert state["wave"] == wave.pk and state["status"] == "running"
    assert state["tables"] == []
    assert "Lucky Thimble" not in page and "data-clock-remaining" in page
    # Released, but the round's assignments not published: still no tables.
    release_set(event=event, pages={"tables": True}, by=None)
    state, page = hall(client, wave)
    assert state["tables"] == [] and "Lucky Thimble" not in page
    Round.objects.filter(pk=wave.round_id).update(assignments_published=True)
    state, page = hall(client, wave)
    assert [table["number"] for table in state["tables"]] == [1]
    assert "Lucky Thimble" in page and "Realname" not in page
