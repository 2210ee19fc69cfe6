"""The official clock: arithmetic over stored facts, the head judge's controls, the calls.

Every time here is injected, so each test replays a round second by second without
waiting. Expected announcement lists are worked out by hand from the rule text
(Tournament Kit, Timekeeping; Championship Rules, TIMING), not from the code.
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from clock import services
from clock.selectors import clock_facts, hall_wave, wave_clock
from clock.timing import (
    AnnouncementKind,
    ClockEvent,
    ClockFacts,
    EventKind,
    Status,
    announcement_schedule,
    clock_state,
    format_remaining,
    next_announcement,
)
from tournament.models import Clock, ClockAction, Player, Round, Seat, Table, Wave

T0 = datetime.datetime(2030, 4, 20, 10, 0, tzinfo=datetime.UTC)
MIN = 60


def at(minutes: float) -> datetime.datetime:
    return T0 + datetime.timedelta(minutes=minutes)


def state(facts: ClockFacts, minutes: float):
    return clock_state(facts, now=at(minutes))


# --- Pure arithmetic ------------------------------------------------------------------------


def test_a_clock_that_has_not_started_shows_the_full_round():
    s = state(ClockFacts(duration_s=90 * MIN), 5)
    assert (s.status, s.remaining_s, s.elapsed_s) == (Status.NOT_STARTED, 90 * MIN, 0)


def test_a_running_clock_counts_wall_time_since_the_start():
    facts = ClockFacts(duration_s=90 * MIN, started_at=T0)
    s = state(facts, 10)
    assert (s.status, s.remaining_s, s.elapsed_s) == (Status.RUNNING, 80 * MIN, 10 * MIN)
    assert state(facts, 89.5).remaining_s == 30


def test_pauses_do_not_count_and_a_paused_clock_is_frozen():
    facts = ClockFacts(
        duration_s=90 * MIN,
        started_at=T0,
        events=(ClockEvent(EventKind.PAUSE, at(10)),),
    )
    for minutes in (10, 12, 45):
        s = state(facts, minutes)
        assert (s.status, s.remaining_s) == (Status.PAUSED, 80 * MIN)
        assert s.paused_since == at(10)
    resumed = ClockFacts(
        duration_s=90 * MIN,
        started_at=T0,
        events=(
            ClockEvent(EventKind.PAUSE, at(10)),
            ClockEvent(EventKind.RESUME, at(15)),
            ClockEvent(EventKind.PAUSE, at(30)),
            ClockEvent(EventKind.RESUME, at(32)),
        ),
    )
    # 40 minutes of wall time, 7 of them paused: 33 played, 57 left.
    s = state(resumed, 40)
    assert (s.status, s.elapsed_s, s.remaining_s) == (Status.RUNNING, 33 * MIN, 57 * MIN)


def test_time_added_and_removed_changes_the_allotted_time():
    facts = ClockFacts(
        duration_s=90 * MIN,
        started_at=T0,
        events=(
            ClockEvent(EventKind.ADJUST, at(5), 10 * MIN),
            ClockEvent(EventKind.ADJUST, at(6), -3 * MIN),
        ),
    )
    assert state(facts, 4).remaining_s == 86 * MIN  # not yet added
    s = state(facts, 20)
    assert (s.allotted_s, s.remaining_s) == (97 * MIN, 77 * MIN)
    assert state(facts, 97).status == Status.TIME_UP


def test_time_runs_out_and_stays_at_zero_until_the_head_judge_ends_play():
    facts = ClockFacts(duration_s=90 * MIN, started_at=T0)
    s = state(facts, 90)
    assert (s.status, s.remaining_s) == (Status.TIME_UP, 0)
    assert s.time_is_called
    assert state(facts, 130).remaining_s == 0


def test_an_ended_clock_keeps_the_time_it_ended_with():
    facts = ClockFacts(
        duration_s=90 * MIN,
        started_at=T0,
        ended_at=at(50),
        events=(ClockEvent(EventKind.PAUSE, at(40)),),
    )
    s = state(facts, 70)
    assert (s.status, s.remaining_s, s.elapsed_s) == (Status.ENDED, 50 * MIN, 40 * MIN)
    assert s.time_is_called
    # Asked about the past, the clock answers as it did then.
    assert state(facts, 45).status == Status.PAUSED
    assert state(facts, 20).status == Status.RUNNING


def test_format_remaining_rounds_up_to_the_second():
    assert format_remaining(90 * MIN) == "1:30:00"
    assert format_remaining(59 * MIN + 59.2) == "1:00:00"
    assert format_remaining(0.4) == "00:01"
    assert format_remaining(0) == "00:00"
    assert format_remaining(15 * MIN) == "15:00"


# --- Announcements, worked out by hand from Tournament Kit, Timekeeping
# -----------------------------------


def minutes_of(schedule) -> list[int]:
    return [a.at_remaining_s // MIN for a in schedule]


def test_a_90_minute_preliminary_calls_60_30_15_then_time():
    schedule = announcement_schedule(duration_s=90 * MIN, is_final=False)
    assert minutes_of(schedule) == [60, 30, 15, 0]
    assert schedule[-1].kind == AnnouncementKind.TIME


def test_a_120_minute_international_round_calls_90_60_30_15_then_time():
    schedule = announcement_schedule(duration_s=120 * MIN, is_final=False)
    assert minutes_of(schedule) == [90, 60, 30, 15, 0]


def test_a_90_minute_final_calls_every_five_minutes_in_the_last_fifteen():
    schedule = announcement_schedule(duration_s=90 * MIN, is_final=True)
    assert minutes_of(schedule) == [60, 30, 15, 10, 5, 0]


def test_a_120_minute_final():
    schedule = announcement_schedule(duration_s=120 * MIN, is_final=True)
    assert minutes_of(schedule) == [90, 60, 30, 15, 10, 5, 0]


def test_custom_announcements_take_their_place_after_a_rule_call_at_the_same_moment():
    schedule = announcement_schedule(
        duration_s=90 * MIN,
        is_final=False,
        custom=[(30 * MIN, "Lunch is served after this round"), (45 * MIN, "Raffle at 12")],
    )
    assert minutes_of(schedule) == [60, 45, 30, 30, 15, 0]
    assert [a.kind for a in schedule][2:4] == [AnnouncementKind.REMAINING, AnnouncementKind.CUSTOM]
    assert schedule[1].message == "Raffle at 12"
    assert schedule[0].message == "60 minutes remaining"


def test_without_a_last_turn_time_called_stops_the_game():
    # Tournament Kit, End of Round: "When time is called, the game must stop. Any player who has
    # thrown the dice completes that move and any transaction that may result."
    schedule = announcement_schedule(duration_s=90 * MIN, is_final=False, last_turn=False)
    assert minutes_of(schedule) == [60, 30, 15, 0]
    assert schedule[-1].kind == AnnouncementKind.STOP
    assert "completes that move" in schedule[-1].message
    assert "last turn" not in schedule[-1].message


def test_next_announcement_follows_the_time_left():
    schedule = announcement_schedule(duration_s=90 * MIN, is_final=False)
    assert next_announcement(schedule, remaining_s=90 * MIN).at_remaining_s == 60 * MIN
    assert next_announcement(schedule, remaining_s=60 * MIN).at_remaining_s == 30 * MIN
    assert next_announcement(schedule, remaining_s=10).at_remaining_s == 0
    assert next_announcement(schedule, remaining_s=0) is None


# --- Stored facts and the head judge's controls ------------------------------------------------


@pytest.fixture
def wave(event) -> Wave:
    """Round 1 of the event: one wave, two tables of four."""
    round_ = Round.objects.create(event=event, number=1)
    wave = Wave.objects.create(round=round_, number=1, scheduled_start=at(0))
    for number in (1, 2):
        table = Table.objects.create(round=round_, wave=wave, number=number)
        for position in range(1, 5):
            player = Player.objects.create(
                event=event,
                first_name=f"First{number}{position}",
                last_name="Player",
                date_of_birth=datetime.date(1990, 1, 1),
                signature="Signed",
                signed_at=T0,
                alias=f"Token {number}-{position}",
            )
            Seat.objects.create(round=round_, table=table, player=player, position=position)
    return wave


@pytest.fixture
def judge(db) -> User:
    return User.objects.create_user("hj", password="pw")


def fresh(wave: Wave) -> Wave:
    """The wave as another process would load it: nothing cached from this one."""
    return Wave.objects.get(pk=wave.pk)


def test_start_freezes_the_round_and_copies_the_events_length(wave, judge, event):
    event.round_minutes = 120
    event.save()
    clock = services.clock_start(wave=wave, by=judge, now=at(0))
    assert clock.duration_seconds == 120 * MIN
    round_ = Round.objects.get(pk=wave.round_id)
    assert round_.started_at == at(0)
    action = ClockAction.objects.get()
    assert (action.kind, action.by, action.at) == ("start", judge, at(0))
    # Editing the event afterwards does not move a running clock.
    event.round_minutes = 90
    event.save()
    assert clock_state(clock_facts(wave=fresh(wave)), now=at(30)).remaining_s == 90 * MIN


def test_starting_twice_is_refused_and_changes_nothing(wave, judge):
    services.clock_start(wave=wave, by=judge, now=at(0))
    with pytest.raises(ValidationError, match="already started"):
        services.clock_start(wave=fresh(wave), by=judge, now=at(1))
    assert Clock.objects.get().started_at == at(0)
    assert ClockAction.objects.count() == 1


def test_a_round_already_started_from_the_seating_page_is_left_alone(wave, judge):
    round_ = wave.round
    round_.started_at = at(-2)
    round_.save()
    services.clock_start(wave=wave, by=judge, now=at(0))
    round_.refresh_from_db()
    assert round_.started_at == at(-2)


def test_nothing_can_be_done_to_a_clock_that_has_not_started(wave, judge):
    calls = [
        lambda: services.clock_pause(wave=wave, reason="Dispute", by=judge, now=at(1)),
        lambda: services.clock_resume(wave=wave, by=judge, now=at(1)),
        lambda: services.clock_adjust(wave=wave, seconds=60, reason="x", by=judge, now=at(1)),
        lambda: services.clock_end(wave=wave, by=judge, now=at(1)),
    ]
    for call in calls:
        with pytest.raises(ValidationError, match="not started"):
            call()
    assert not ClockAction.objects.exists()


def test_pause_and_resume_with_reasons_and_the_illegal_moves(wave, judge):
    services.clock_start(wave=wave, by=judge, now=at(0))
    with pytest.raises(ValidationError, match="not paused"):
        services.clock_resume(wave=wave, by=judge, now=at(5))
    with pytest.raises(ValidationError, match="reason"):
        services.clock_pause(wave=wave, reason="  ", by=judge, now=at(10))
    services.clock_pause(wave=wave, reason="Rules dispute at table 2", by=judge, now=at(10))
    with pytest.raises(ValidationError, match="already paused"):
        services.clock_pause(wave=wave, reason="Again", by=judge, now=at(11))
    services.clock_resume(wave=wave, reason="Settled", by=judge, now=at(14))
    kinds = list(ClockAction.objects.values_list("kind", "reason", "at"))
    assert kinds == [
        ("start", "", at(0)),
        ("pause", "Rules dispute at table 2", at(10)),
        ("resume", "Settled", at(14)),
    ]
    s = clock_state(clock_facts(wave=fresh(wave)), now=at(20))
    assert (s.status, s.remaining_s) == (Status.RUNNING, 74 * MIN)


def test_adjusting_time(wave, judge):
    services.clock_start(wave=wave, by=judge, now=at(0))
    with pytest.raises(ValidationError, match="minutes"):
        services.clock_adjust(wave=wave, seconds=0, reason="x", by=judge, now=at(1))
    with pytest.raises(ValidationError, match="reason"):
        services.clock_adjust(wave=wave, seconds=300, reason="", by=judge, now=at(1))
    services.clock_adjust(wave=wave, seconds=5 * MIN, reason="Late start", by=judge, now=at(2))
    services.clock_adjust(wave=wave, seconds=-2 * MIN, reason="Fix", by=judge, now=at(3))
    s = clock_state(clock_facts(wave=fresh(wave)), now=at(10))
    assert (s.allotted_s, s.remaining_s) == (93 * MIN, 83 * MIN)
    # Time may be added while paused too.
    services.clock_pause(wave=wave, reason="Dispute", by=judge, now=at(10))
    services.clock_adjust(wave=wave, seconds=MIN, reason="Sorry", by=judge, now=at(11))
    s = clock_state(clock_facts(wave=fresh(wave)), now=at(12))
    assert (s.status, s.remaining_s) == (Status.PAUSED, 84 * MIN)


def test_time_up_cannot_be_paused_but_can_be_ended(wave, judge):
    services.clock_start(wave=wave, by=judge, now=at(0))
    with pytest.raises(ValidationError, match="Time is already up"):
        services.clock_pause(wave=wave, reason="x", by=judge, now=at(91))
    services.clock_end(wave=wave, by=judge, now=at(95))
    s = clock_state(clock_facts(wave=fresh(wave)), now=at(100))
    assert (s.status, s.remaining_s) == (Status.ENDED, 0)


def test_an_ended_clock_refuses_everything(wave, judge):
    services.clock_start(wave=wave, by=judge, now=at(0))
    services.clock_end(wave=wave, reason="All tables done", by=judge, now=at(60))
    calls = [
        lambda: services.clock_pause(wave=wave, reason="x", by=judge, now=at(61)),
        lambda: services.clock_resume(wave=wave, by=judge, now=at(61)),
        lambda: services.clock_adjust(wave=wave, seconds=60, reason="x", by=judge, now=at(61)),
        lambda: services.clock_end(wave=wave, by=judge, now=at(61)),
    ]
    for call in calls:
        with pytest.raises(ValidationError, match="ended"):
            call()
    assert ClockAction.objects.count() == 2
    assert Clock.objects.get().ended_at == at(60)


def test_a_restart_or_a_second_server_computes_the_same_time(wave, judge):
    """Nothing but the stored facts is needed: reload everything and ask again."""
    services.clock_start(wave=wave, by=judge, now=at(0))
    services.clock_pause(wave=wave, reason="Dispute", by=judge, now=at(20))
    services.clock_resume(wave=wave, by=judge, now=at(23))
    services.clock_adjust(wave=wave, seconds=2 * MIN, reason="Late", by=judge, now=at(30))
    before = clock_state(clock_facts(wave=wave), now=at(50))
    # As a freshly started process would: new objects, straight from the database.
    after = clock_state(clock_facts(wave=fresh(wave)), now=at(50))
    assert before == after
    assert (after.status, after.remaining_s) == (Status.RUNNING, 45 * MIN)
    # And a later look is simply a later "now", not a countdown that had to keep running.
    assert clock_state(clock_facts(wave=fresh(wave)), now=at(94)).remaining_s == MIN


# --- The end of each table's game --------------------------------------------------------------


def test_last_turn_only_once_time_is_up(wave, judge):
    table = wave.tables.get(number=1)
    with pytest.raises(ValidationError, match="not started"):
        services.table_mark_last_turn(table=table, by=judge, now=at(0))
    services.clock_start(wave=wave, by=judge, now=at(0))
    with pytest.raises(ValidationError, match="once time is up"):
        services.table_mark_last_turn(table=table, by=judge, now=at(89))
    table.refresh_from_db()
    assert table.status == "playing"
    table = services.table_mark_last_turn(table=table, by=judge, now=at(90))
    assert (table.status, table.status_changed_at, table.status_changed_by) == (
        "last_turn",
        at(90),
        judge,
    )
    with pytest.raises(ValidationError, match="cannot be marked"):
        services.table_mark_last_turn(table=table, by=judge, now=at(91))
    table = services.table_mark_finished(table=table, by=judge, now=at(96))
    assert table.status == "finished"
    with pytest.raises(ValidationError, match="cannot be marked"):
        services.table_mark_finished(table=table, by=judge, now=at(97))
    with pytest.raises(ValidationError, match="cannot be marked"):
        services.table_mark_last_turn(table=table, by=judge, now=at(97))
    assert services.table_mark_scored(table=table, by=judge, now=at(100)).status == "scored"


def test_last_turn_after_the_head_judge_ended_play_early(wave, judge):
    services.clock_start(wave=wave, by=judge, now=at(0))
    services.clock_end(wave=wave, by=judge, now=at(40))
    table = services.table_mark_last_turn(table=wave.tables.get(number=2), by=judge, now=at(41))
    assert table.status == "last_turn"


def test_a_game_with_one_player_left_finishes_straight_from_playing(wave, judge):
    table = wave.tables.get(number=1)
    with pytest.raises(ValidationError, match="not started"):
        services.table_mark_finished(table=table, by=judge, now=at(0))
    services.clock_start(wave=wave, by=judge, now=at(0))
    assert services.table_mark_finished(table=table, by=judge, now=at(55)).status == "finished"
    with pytest.raises(ValidationError, match="cannot be marked"):
        services.table_mark_scored(table=wave.tables.get(number=2), by=judge, now=at(56))


def test_a_club_table_goes_from_playing_to_finished_when_time_is_called(wave, judge, event):
    # Tournament Kit, End of Round: no last turn; the game stops when time is called.
    event.format = "club"
    event.save(update_fields=["format"])
    table = wave.tables.get(number=1)
    services.clock_start(wave=wave, by=judge, now=at(0))
    with pytest.raises(ValidationError, match="no last turn"):
        services.table_mark_last_turn(table=table, by=judge, now=at(90))
    assert services.table_mark_finished(table=table, by=judge, now=at(91)).status == "finished"
    # The hall and the bankers' tablets announce the stop, not a last turn.
    assert wave_clock(wave=fresh(wave), now=at(90)).schedule[-1].kind == AnnouncementKind.STOP


# --- What the hall follows -----------------------------------------------------------------------


def test_the_hall_follows_the_latest_running_wave_else_the_next_to_start(event, judge):
    round_1 = Round.objects.create(event=event, number=1)
    round_2 = Round.objects.create(event=event, number=2)
    w11 = Wave.objects.create(round=round_1, number=1)
    w12 = Wave.objects.create(round=round_1, number=2)
    w21 = Wave.objects.create(round=round_2, number=1)
    assert hall_wave(event=event) == w11
    services.clock_start(wave=w11, by=judge, now=at(0))
    services.clock_start(wave=w12, by=judge, now=at(5))
    assert hall_wave(event=event) == w12
    services.clock_end(wave=w12, by=judge, now=at(90))
    assert hall_wave(event=event) == w11
    services.clock_end(wave=w11, by=judge, now=at(91))
    assert hall_wave(event=event) == w21
    services.clock_start(wave=w21, by=judge, now=at(120))
    services.clock_end(wave=w21, by=judge, now=at(210))
    assert hall_wave(event=event) == w21


def test_wave_clock_lists_tables_by_alias_and_the_next_call(wave, judge):
    services.clock_start(wave=wave, by=judge, now=at(0))
    clock = wave_clock(wave=fresh(wave), now=at(30.5))
    assert clock.tables[0].aliases == ("Token 1-1", "Token 1-2", "Token 1-3", "Token 1-4")
    assert clock.next_announcement.at_remaining_s == 30 * MIN
    assert clock.current_announcement.at_remaining_s == 60 * MIN
    assert wave_clock(wave=fresh(wave), now=at(33)).current_announcement is None
