"""The public schedule (spectator.selectors.schedule), and the posted rounds the public
standings count: every round with its waves' start
times, which of its pages are public, and the wave the hall follows, worked by hand.

Round 1 plays in two waves: wave 1 was scheduled at 10:00, started 10:02 and is over; wave 2
was scheduled at 12:00 and started 12:01. Round 2 is the final, not yet published, with no
wave yet. The hall follows the clock that runs: round 1, wave 2, started 12:01.
"""

from __future__ import annotations

import datetime

import pytest

from scoring.models import RoundPosting
from spectator.selectors import PublicWave, Release, schedule
from spectator.selectors import standings as public_standings
from tests.builders import an_event
from tournament.models import Clock, Round, Wave

pytestmark = pytest.mark.django_db

DAY = datetime.datetime(2031, 6, 7, tzinfo=datetime.UTC)


def at(hour: int, minute: int = 0) -> datetime.datetime:
    return DAY.replace(hour=hour, minute=minute)


@pytest.fixture
def event():
    event = an_event(name="Schedule Open")
    first = Round.objects.create(event=event, number=1, assignments_published=True)
    wave_1 = Wave.objects.create(round=first, number=1, scheduled_start=at(10))
    Clock.objects.create(
        wave=wave_1, duration_seconds=90 * 60, started_at=at(10, 2), ended_at=at(11, 40)
    )
    wave_2 = Wave.objects.create(round=first, number=2, scheduled_start=at(12))
    Clock.objects.create(wave=wave_2, duration_seconds=90 * 60, started_at=at(12, 1))
    Round.objects.create(event=event, number=2, kind=Round.Kind.FINAL)
    return event


def test_each_round_lists_its_waves_and_kind_and_the_hall_follows_the_running_wave(event):
    public = schedule(event_pk=event.pk, release=Release())
    first, final = public.rounds
    assert (first.number, first.kind, first.kind_label) == (1, "preliminary", "Preliminary")
    assert first.waves == (
        PublicWave(number=1, scheduled_start=at(10), started_at=at(10, 2)),
        PublicWave(number=2, scheduled_start=at(12), started_at=at(12, 1)),
    )
    assert (final.number, final.kind, final.kind_label, final.waves) == (2, "final", "Final", ())
    assert (public.current_round, public.current_wave, public.wave_count) == (1, 2, 2)
    assert public.current_started_at == at(12, 1)  # wave 2's start, not wave 1's


def test_a_rounds_pages_are_public_only_when_released_and_ready(event):
    held = schedule(event_pk=event.pk, release=Release())
    # Round 1's tables are published, but the organizer has not released the tables page;
    # nothing is posted, so released results show nothing either.
    assert [(r.tables_public, r.results_public) for r in held.rounds] == [
        (False, False),
        (False, False),
    ]
    released = schedule(event_pk=event.pk, release=Release(tables=True, results=True))
    assert [(r.tables_public, r.results_public) for r in released.rounds] == [
        (True, False),
        (False, False),
    ]


def test_an_event_without_waves_has_no_current_round():
    event = an_event(name="Nothing Scheduled")
    Round.objects.create(event=event, number=1)
    public = schedule(event_pk=event.pk, release=Release(tables=True))
    assert (public.current_round, public.current_wave, public.wave_count) == (None, None, 0)
    assert public.current_started_at is None
    assert [r.waves for r in public.rounds] == [()]


def _posted(event, number: int, kind: str = Round.Kind.PRELIMINARY) -> None:
    round_ = Round.objects.create(event=event, number=number, kind=kind)
    RoundPosting.objects.create(round=round_, posted_at=at(18))


@pytest.mark.parametrize("fmt", ["championship", "club"])
def test_the_public_standings_name_the_posted_preliminary_rounds_of_this_event_in_order(fmt):
    """Championship Rules, POSTING SCORES: "Point scores (not net worth) will be posted at
    the end of each round". The standings say which rounds they count. Round 3 posted
    before round 1, round 2 not yet, the final posted (it is no preliminary), and another
    event's round 2 posted: rounds 1 and 3 count."""
    event = an_event(name="Posting Open", fmt=fmt)
    _posted(event, 3)
    _posted(event, 1)
    Round.objects.create(event=event, number=2)
    _posted(event, 4, kind=Round.Kind.FINAL)
    _posted(an_event(name="Another Open"), 2)
    public = public_standings(event_pk=event.pk, release=Release(standings=True))
    assert public is not None
    assert tuple(public.posted_rounds) == (1, 3)
