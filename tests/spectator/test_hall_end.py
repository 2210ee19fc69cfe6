"""The hall display's end state: once the winner is released it shows the winner,
the final's places and the standings, never a clock stuck at "Time is up"."""

import pytest
from django.urls import reverse

from demo.event import DEMO_CLUB_NAME, DEMO_EVENT_NAME
from scoring.selectors import event_winner
from tests.builders import built_once_for_the_module
from tests.demo_rows import load_demo_rows
from tournament.models import Event


@pytest.fixture(scope="module")
def demo_once(django_db_setup, django_db_blocker):
    with built_once_for_the_module(django_db_blocker):
        load_demo_rows()
        yield


@pytest.fixture
def demo(db, demo_once):
    return {
        "championship": Event.objects.get(name=DEMO_EVENT_NAME),
        "club": Event.objects.get(name=DEMO_CLUB_NAME),
    }


def test_after_the_final_the_hall_shows_the_winner_and_the_results(client, demo):
    club = demo["club"]
    winner = event_winner(event=club, with_players=False)
    assert winner is not None  # the demo's club knockout is played to its winner
    page = client.get(reverse("spectator:hall_display", kwargs={"pk": club.pk})).content.decode()
    assert "Winner: " + " · ".join(winner.aliases) in page
    assert 'data-ended="true"' in page and "hall-end" in page
    assert "data-clock-remaining" not in page and "Time is up" not in page
    final = page.split('id="hall-final-title"')[1].split("</ol>")[0]
    assert winner.aliases[0] in final
    # The polled state says so too, so an open hall page reloads into its end state.
    state = client.get(reverse("spectator:hall_state", kwargs={"pk": club.pk})).json()
    assert state["ended"] is True and state["texts"]["winner"]


def test_before_the_final_the_hall_keeps_its_clock(client, demo):
    event = demo["championship"]
    page = client.get(reverse("spectator:hall_display", kwargs={"pk": event.pk})).content.decode()
    assert 'data-ended="false"' in page and "data-clock-remaining" in page
    assert "hall-end" not in page
    state = client.get(reverse("spectator:hall_state", kwargs={"pk": event.pk})).json()
    assert state["ended"] is False
