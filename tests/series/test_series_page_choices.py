"""The series page: the finals are chosen on it, and confirming says what is short.

A Finals that registered 4 players where the format needs at least 8 was confirmed
without a word, and choosing a junior final needed the admin."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from series.selectors import confirm_warnings
from series.services import series_add_event, series_create, series_finals_set
from tests.builders import an_event, user_with
from tournament.formats import event_minimum_players
from tournament.roles import ORGANIZER


@pytest.fixture
def series(db):
    return series_create(name="Season", season="2027")


def test_a_final_is_chosen_and_cleared_on_the_page(client, series):
    junior = an_event(name="Junior Finals", fmt="junior")
    client.force_login(user_with(ORGANIZER, "olga"))
    url = reverse("series:finals", kwargs={"series_pk": series.pk, "division": "junior"})
    detail = client.get(reverse("series:detail", kwargs={"series_pk": series.pk}))
    assert url in detail.content.decode() and "Junior Finals" in detail.content.decode()
    client.post(url, {"event": junior.pk})
    series.refresh_from_db()
    assert series.junior_finals == junior
    client.post(url, {"event": ""})
    series.refresh_from_db()
    assert series.junior_finals is None


def test_a_final_must_be_of_its_format_and_not_a_regional(series):
    championship = an_event(name="Open", fmt="championship")
    with pytest.raises(ValidationError, match="is not a junior event"):
        series_finals_set(series=series, division="junior", event=championship)
    series_add_event(series=series, event=championship)
    with pytest.raises(ValidationError, match="a final cannot be a regional"):
        series_finals_set(series=series, division="senior", event=championship)


def test_the_page_refuses_an_event_it_does_not_offer(client, series):
    client.force_login(user_with(ORGANIZER, "olga"))
    url = reverse("series:finals", kwargs={"series_pk": series.pk, "division": "senior"})
    response = client.post(url, {"event": "999999"}, follow=True)
    assert response.status_code == 200
    assert "Choose one of the events offered." in response.content.decode()


def test_fewer_accepted_than_the_format_needs_is_a_warning_to_agree_to(series):
    finals = an_event(name="The Finals", fmt="championship")
    series_finals_set(series=series, division="senior", event=finals)
    series.refresh_from_db()
    (warning,) = confirm_warnings(series=series, division="senior")
    needed = event_minimum_players(event=finals)
    assert f"Only 0 entrants have accepted: The Finals needs at least {needed} players." == warning
