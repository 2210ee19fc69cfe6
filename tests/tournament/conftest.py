"""Fixtures of the organizer's page tests (test_organizer.py, test_organizer_players.py).

A test module's own fixture of the same name wins over these.
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User

from tests.builders import an_event, user_with
from tests.tournament.organizer_pages import register
from tournament.models import Event
from tournament.roles import JUDGE, ORGANIZER


@pytest.fixture
def organizer(db) -> User:
    return user_with(ORGANIZER, "olive")


@pytest.fixture
def org_client(client, organizer):
    client.force_login(organizer)
    return client


@pytest.fixture
def judge_client(client, db):
    client.force_login(user_with(JUDGE, "jules"))
    return client


@pytest.fixture
def small_event(db) -> Event:
    """Two seats, so the third registrant onward waits as an alternate."""
    return an_event(
        name="Small Cup",
        date=datetime.date(2030, 4, 20),
        start_time=datetime.time(9, 30),
        expected_players=2,
    )


@pytest.fixture
def full_house(small_event):
    """Two seated players and three alternates, in registration order."""
    names = [
        ("Ada", "Lovelace", "Lucky Thimble"),
        ("Alan", "Turing", "Golden Top Hat"),
        ("Grace", "Hopper", "Swift Boot"),
        ("Edsger", "Dijkstra", "Brave Cat"),
        ("Barbara", "Liskov", "Quiet Iron"),
    ]
    return [register(small_event, first, last, alias=alias) for first, last, alias in names]
