"""Shared pytest fixtures for Boardwalk's tests."""

import datetime
import time

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


class FrozenTime:
    """A clock that stands still until the test moves it."""

    def __init__(self, at: float) -> None:
        self.at = at

    def advance(self, seconds: float) -> None:
        self.at += seconds


@pytest.fixture
def frozen_time(monkeypatch) -> FrozenTime:
    """``time.time()`` standing still (the throttles' clock reads it), at a whole second of
    today, so a test of limits in time does not depend on when it runs."""
    clock = FrozenTime(float(int(time.time())))
    monkeypatch.setattr(time, "time", lambda: clock.at)
    return clock
