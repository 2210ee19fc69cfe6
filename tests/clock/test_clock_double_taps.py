"""A clock control or an announcement sent twice is applied once; no removal goes below zero.

The head judge's card carries the clock's version it was drawn with. A control against an
older version that would repeat a change made since (a second tap, a second official
pressing the same button) answers "already done" and records nothing; a different change
is still applied. Removing more than is left removes what is left and no more.
"""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError

from clock import services
from clock.selectors import clock_facts
from clock.timing import Status, clock_state
from tests.clock import test_clock
from tests.clock.test_clock import MIN, at, fresh
from tournament.models import Announcement, Clock, ClockAction

# The clock tests' round of two tables and their head judge.
wave = test_clock.wave
judge = test_clock.judge


def kinds() -> list[tuple[str, int]]:
    return list(ClockAction.objects.order_by("pk").values_list("kind", "seconds"))


def version() -> int:
    return Clock.objects.get().version


def test_a_removal_of_more_than_is_left_removes_what_is_left(wave, judge):
    services.clock_start(wave=wave, by=judge, now=at(0))
    # 90-minute round, 30 s short of minute 2: 88 min 30 s are left; 100 minutes asked.
    action = services.clock_adjust(
        wave=wave, seconds=-100 * MIN, reason="Wrong round", by=judge, now=at(1.5)
    )
    assert action.seconds == -(88 * MIN + 30)
    s = clock_state(clock_facts(wave=fresh(wave)), now=at(1.5))
    assert (s.status, s.remaining_s) == (Status.TIME_UP, 0)
    # The time played so far and what is allotted are equal: not a second below zero.
    assert s.allotted_s - s.elapsed_s == 0
    with pytest.raises(ValidationError, match="no time left to remove"):
        services.clock_adjust(wave=wave, seconds=-MIN, reason="Again", by=judge, now=at(1.6))
    assert kinds() == [("start", 0), ("adjust", -(88 * MIN + 30))]


def test_a_removal_in_the_middle_of_a_second_stops_the_clock_at_once(wave, judge):
    services.clock_start(wave=wave, by=judge, now=at(0))
    # 90.4 s played: 5309.6 s left; the whole 5310 go, and the round lasted 90 s.
    when = at(1.5) + datetime.timedelta(seconds=0.4)
    action = services.clock_adjust(wave=wave, seconds=-95 * MIN, reason="x", by=judge, now=when)
    assert action.seconds == -5310
    s = clock_state(clock_facts(wave=fresh(wave)), now=when)
    assert (s.status, s.remaining_s, s.allotted_s) == (Status.TIME_UP, 0, 90)


def test_three_removals_past_zero_stop_at_zero(wave, judge):
    services.clock_start(wave=wave, by=judge, now=at(0))
    # At minute 10, 80 minutes left: 30 + 30 removed, then only 20 of the next 30.
    for seconds in (-30 * MIN, -30 * MIN, -30 * MIN):
        services.clock_adjust(wave=wave, seconds=seconds, reason="Cut", by=judge, now=at(10))
    assert [s for _k, s in kinds()[1:]] == [-30 * MIN, -30 * MIN, -20 * MIN]
    s = clock_state(clock_facts(wave=fresh(wave)), now=at(10))
    assert (s.status, s.allotted_s - s.elapsed_s) == (Status.TIME_UP, 0)


def test_the_same_adjustment_against_the_same_version_is_applied_once(wave, judge):
    services.clock_start(wave=wave, by=judge, now=at(0))
    shown = version()
    services.clock_adjust(
        wave=wave, seconds=5 * MIN, reason="Late", by=judge, now=at(1), shown_version=shown
    )
    for _tap in range(5):
        with pytest.raises(services.ClockAlreadyDone, match="Already done"):
            services.clock_adjust(
                wave=wave, seconds=5 * MIN, reason="Late", by=judge, now=at(1), shown_version=shown
            )
    # Another change against the same page is not a repeat: it is applied.
    services.clock_adjust(
        wave=wave, seconds=-2 * MIN, reason="Fix", by=judge, now=at(2), shown_version=shown
    )
    # And the same change against the page drawn after the first is a new one.
    services.clock_adjust(
        wave=wave, seconds=5 * MIN, reason="More", by=judge, now=at(3), shown_version=version()
    )
    assert kinds() == [("start", 0), ("adjust", 300), ("adjust", -120), ("adjust", 300)]
    s = clock_state(clock_facts(wave=fresh(wave)), now=at(3))
    assert s.allotted_s == 98 * MIN


def test_pause_resume_end_and_start_twice_from_one_page_are_already_done(wave, judge):
    with pytest.raises(ValidationError, match="already started"):
        services.clock_start(wave=wave, by=judge, now=at(0))
        services.clock_start(wave=fresh(wave), by=judge, now=at(0))
    assert ClockAction.objects.count() == 1
    with pytest.raises(services.ClockAlreadyDone):
        services.clock_start(wave=fresh(wave), by=judge, now=at(0), shown_version=0)
    shown = version()
    services.clock_pause(wave=wave, reason="Dispute", by=judge, now=at(5), shown_version=shown)
    with pytest.raises(services.ClockAlreadyDone):
        services.clock_pause(wave=wave, reason="Dispute", by=judge, now=at(5), shown_version=shown)
    shown = version()
    services.clock_resume(wave=wave, by=judge, now=at(6), shown_version=shown)
    with pytest.raises(services.ClockAlreadyDone):
        services.clock_resume(wave=wave, by=judge, now=at(6), shown_version=shown)
    shown = version()
    services.clock_end(wave=wave, by=judge, now=at(80), shown_version=shown)
    with pytest.raises(services.ClockAlreadyDone):
        services.clock_end(wave=wave, by=judge, now=at(80), shown_version=shown)
    # Without the version a second end is the plain refusal it always was.
    with pytest.raises(ValidationError, match="ended"):
        services.clock_end(wave=wave, by=judge, now=at(81))
    assert [k for k, _s in kinds()] == ["start", "pause", "resume", "end"]


def test_a_pause_against_an_older_version_after_a_resume_is_a_pause_again(wave, judge):
    """Pause, resume, then a pause drawn before both: a pause is among the changes since,
    so it is "already done" rather than a second pause the judge never saw the need for."""
    services.clock_start(wave=wave, by=judge, now=at(0))
    shown = version()
    services.clock_pause(wave=wave, reason="Dispute", by=judge, now=at(5), shown_version=shown)
    services.clock_resume(wave=wave, by=judge, now=at(6))
    with pytest.raises(services.ClockAlreadyDone):
        services.clock_pause(wave=wave, reason="Dispute", by=judge, now=at(7), shown_version=shown)
    assert [k for k, _s in kinds()] == ["start", "pause", "resume"]


def test_an_announcement_added_twice_is_added_once(wave, judge):
    round_ = wave.round
    services.announcement_add(round_=round_, at_remaining_seconds=45 * MIN, text="Raffle", by=judge)
    with pytest.raises(services.AnnouncementExists):
        services.announcement_add(
            round_=round_, at_remaining_seconds=45 * MIN, text=" Raffle ", by=judge
        )
    # Another text, or another moment, is another announcement.
    services.announcement_add(round_=round_, at_remaining_seconds=45 * MIN, text="Lunch", by=judge)
    services.announcement_add(round_=round_, at_remaining_seconds=40 * MIN, text="Raffle", by=judge)
    assert Announcement.objects.count() == 3
    first = Announcement.objects.get(text="Raffle", at_remaining_seconds=45 * MIN)
    assert services.announcement_delete(announcement=first) is True
    assert services.announcement_delete(announcement=first) is False
    assert Announcement.objects.count() == 2
