"""The event home on a phone tells the day's story: before the day, when and where;
during it, the official clock and the round being played first; after it, the winner and
the standings first. The clock's words come in the reader's language."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from clock.pages import STATUS_LABELS
from clock.timing import Status
from demo.simulation import event_simulate
from spectator.services import release_set
from tournament.models import Event, Round, Seat


def home(client, event: Event) -> str:
    return client.get(reverse("spectator:event_home", kwargs={"pk": event.pk})).content.decode()


def at(body: str, *marks: str) -> list[int]:
    return [body.index(mark) for mark in marks]


@pytest.mark.django_db
def test_before_the_day_the_home_opens_on_where_and_when(client, event):
    body = home(client, event)
    assert "Library Annex" in body and "Register for this event" in body
    assert "data-clock" not in body and "About the event" not in body


@pytest.mark.django_db
def test_during_the_day_the_clock_comes_first_and_the_details_fold(client, event, round1):
    release_set(event=event, pages={"home": True}, by=None)
    cache.clear()
    body = home(client, event)
    clock, about, venue = at(body, "data-clock ", "About the event", "Library Annex")
    assert clock < about < venue
    assert body.index('id="now"') < about
    assert body.index("<details") < venue  # the venue is inside the folded details


@pytest.mark.django_db
def test_after_the_day_the_winner_and_the_finals_places_come_first(client):
    played = event_simulate(players=16, seed=5, play_final=True).event
    body = home(client, played)
    winner, final, schedule, about = at(
        body, "The winner</h2>", 'id="results-table-', 'id="schedule"', "About the event"
    )
    assert winner < final < schedule < about
    assert "data-clock " not in body  # nothing is timed any more
    # One place per finalist, the winner in first place.
    finalists = Seat.objects.filter(table__round__event=played, table__round__kind=Round.Kind.FINAL)
    table = body[final : body.index("</table>", final)]
    rows = table.split('<td class="num">')[1:]
    assert len(rows) == finalists.count() >= 4 and rows[0].startswith("1<")
    alias = body[body.index('<strong class="alias">') + 22 : body.index("</strong>", winner)]
    assert alias in rows[0]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["hi", "fr"])
def test_the_phone_asks_the_clock_in_its_own_language(client, event, round1, language):
    release_set(event=event, pages={"home": True}, by=None)
    state = reverse("spectator:hall_state", kwargs={"pk": event.pk})
    with translation.override(language):
        running = str(STATUS_LABELS[Status.RUNNING])
    with translation.override("en"):
        english = str(STATUS_LABELS[Status.RUNNING])
    assert running != english, "the catalog translates the clock's states"
    asked = client.get(f"{state}?lang={language}").json()
    assert asked["status_labels"]["running"] == running
    # The hall display (no lang) keeps the event's language; an unknown one is ignored.
    assert client.get(state).json()["status_labels"]["running"] == english
    assert client.get(f"{state}?lang=xx").json()["status_labels"]["running"] == english
    translation.activate(language)
    cache.clear()
    page = client.get(
        reverse("spectator:event_home", kwargs={"pk": event.pk}), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    translation.deactivate()
    assert f"?lang={language}" in page
