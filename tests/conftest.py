"""Shared pytest fixtures for Boardwalk's tests."""

import datetime

import pytest

from tournament.models import Event
from tournament.services import event_create


@pytest.fixture
def event(db) -> Event:
    """A valid event created the way the app creates them: through the service."""
    return event_create(
        name="Spring Championship",
        organization="Atlantic Avenue Club",
        venue="Library Annex",
        date=datetime.date(2030, 4, 20),
        start_time=datetime.time(9, 30),
    )
