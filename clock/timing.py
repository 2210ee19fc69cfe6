"""The official clock as arithmetic over recorded facts; no database, no running process.

The head judge holds the official timepiece (Championship Rules, TIME KEEPING). Boardwalk keeps that
timepiece as facts (when play started, how long the round is, every pause, resume and
correction, when it ended) and works out the time left from those facts and "now". A
server restart, a second server or a reloaded page therefore always shows the same time:
nothing counts down anywhere, everything is recomputed.

Announcements (Tournament Kit, Timekeeping): "Time remaining in the round should be announced each
half hour, and 15 minutes before the end of each game. During the last 15 minutes of the
final round, time should be called after each five-minute period." When time is called
the game stops (Tournament Kit, End of Round), so every round also gets a "time" call at zero.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

# The table's statuses are the model's choices: one vocabulary, one set of labels.
from tournament.models.play import TableStatus

HALF_HOUR_S = 30 * 60
FIFTEEN_MINUTES_S = 15 * 60
FIVE_MINUTES_S = 5 * 60


class Status(StrEnum):
    NOT_STARTED = "not_started"
    RUNNING = "running"
    PAUSED = "paused"
    # The allotted time has run out but the head judge has not ended the round yet:
    # tables are playing their last turn.
    TIME_UP = "time_up"
    ENDED = "ended"


class EventKind(StrEnum):
    PAUSE = "pause"
    RESUME = "resume"
    # ``seconds`` added (positive) or removed (negative).
    ADJUST = "adjust"


@dataclass(frozen=True)
class ClockEvent:
    kind: EventKind
    at: datetime.datetime
    seconds: int = 0


@dataclass(frozen=True)
class ClockFacts:
    """Everything that determines the clock; ``events`` in the order they happened."""

    duration_s: int
    started_at: datetime.datetime | None = None
    ended_at: datetime.datetime | None = None
    events: tuple[ClockEvent, ...] = ()


@dataclass(frozen=True)
class ClockState:
    status: Status
    # Seconds of play left (never below zero) and played so far, pauses excluded.
    remaining_s: float
    elapsed_s: float
    # The round's length with every correction applied.
    allotted_s: int
    paused_since: datetime.datetime | None = None

    @property
    def is_ticking(self) -> bool:
        """Only a running clock changes between two looks at it."""
        return self.status == Status.RUNNING

    @property
    def time_is_called(self) -> bool:
        """Banker may call the last turn: the time ran out or the round was ended."""
        return self.status in (Status.TIME_UP, Status.ENDED)


def clock_state(facts: ClockFacts, *, now: datetime.datetime) -> ClockState:
    """The clock at ``now``: running time is wall time since the start minus the pauses.

    Facts later than ``now`` are ignored, so asking about a moment in the past gives the
    answer the clock gave then.
    """
    events = tuple(e for e in facts.events if e.at <= now)
    allotted = facts.duration_s + sum(e.seconds for e in events if e.kind == EventKind.ADJUST)
    if facts.started_at is None or facts.started_at > now:
        return ClockState(Status.NOT_STARTED, float(max(allotted, 0)), 0.0, allotted)
    ended = facts.ended_at is not None and facts.ended_at <= now
    stop = facts.ended_at if facts.ended_at is not None and ended else now
    paused_s = 0.0
    paused_since: datetime.datetime | None = None
    for event in events:
        if event.kind == EventKind.PAUSE and paused_since is None:
            paused_since = event.at
        elif event.kind == EventKind.RESUME and paused_since is not None:
            paused_s += (event.at - paused_since).total_seconds()
            paused_since = None
    if paused_since is not None:
        paused_s += max((stop - paused_since).total_seconds(), 0.0)
    elapsed = (stop - facts.started_at).total_seconds() - paused_s
    remaining = max(allotted - elapsed, 0.0)
    if ended:
        status = Status.ENDED
    elif paused_since is not None:
        status = Status.PAUSED
    elif remaining <= 0:
        status = Status.TIME_UP
    else:
        status = Status.RUNNING
    return ClockState(
        status,
        remaining,
        elapsed,
        allotted,
        paused_since=paused_since if status == Status.PAUSED else None,
    )


# --- Announcements ---------------------------------------------------------------------


class AnnouncementKind(StrEnum):
    REMAINING = "remaining"
    # Time called where a last turn follows (Championship Rules, TIMING).
    TIME = "time"
    # Time called where the game stops at once (Tournament Kit, End of Round).
    STOP = "stop"
    CUSTOM = "custom"


@dataclass(frozen=True)
class Announcement:
    at_remaining_s: int
    kind: AnnouncementKind
    text: str = ""

    @property
    def message(self) -> str:
        """What the hall hears, in the current language."""
        if self.kind == AnnouncementKind.CUSTOM:
            return self.text
        if self.kind == AnnouncementKind.TIME:
            return _("Time! Bankers, call the last turn.")
        if self.kind == AnnouncementKind.STOP:
            # Tournament Kit, End of Round: "When time is called, the game must stop. Any player who
            # has thrown the dice completes that move and any transaction that may result."
            return _(
                "Time! The game stops: a player who has thrown the dice completes that move "
                "and any transaction that may result."
            )
        minutes = self.at_remaining_s // 60
        return ngettext(
            "%(minutes)s minute remaining", "%(minutes)s minutes remaining", minutes
        ) % {"minutes": minutes}


def announcement_schedule(
    *,
    duration_s: int,
    is_final: bool,
    custom: Iterable[tuple[int, str]] = (),
    last_turn: bool = True,
) -> tuple[Announcement, ...]:
    """The round's announcements, first to last (most time remaining first).

    Half-hour calls are made at whole half hours remaining ("60 minutes remaining"), which
    for the 90- and 120-minute rounds is also every half hour of play. Calls at or beyond
    the round's length would coincide with the start and are left out. Custom
    announcements (remaining seconds, text) come after a rule call at the same moment.
    ``last_turn`` False makes the call at zero the kit's stop instead of the last turn.
    """
    marks = {mark for mark in range(HALF_HOUR_S, duration_s, HALF_HOUR_S)}
    marks.add(FIFTEEN_MINUTES_S)
    if is_final:
        marks.update({2 * FIVE_MINUTES_S, FIVE_MINUTES_S})
    schedule = [
        Announcement(mark, AnnouncementKind.REMAINING) for mark in marks if mark < duration_s
    ]
    schedule.append(Announcement(0, AnnouncementKind.TIME if last_turn else AnnouncementKind.STOP))
    schedule.extend(
        Announcement(int(at), AnnouncementKind.CUSTOM, text)
        for at, text in custom
        if 0 <= at < duration_s
    )
    order = {
        AnnouncementKind.REMAINING: 0,
        AnnouncementKind.TIME: 0,
        AnnouncementKind.STOP: 0,
        AnnouncementKind.CUSTOM: 1,
    }
    return tuple(sorted(schedule, key=lambda a: (-a.at_remaining_s, order[a.kind])))


def next_announcement(
    schedule: Iterable[Announcement], *, remaining_s: float
) -> Announcement | None:
    """The first announcement still to come (strictly less time remaining than now)."""
    return next((a for a in schedule if a.at_remaining_s < remaining_s), None)


def last_announcement(
    schedule: Iterable[Announcement], *, remaining_s: float
) -> Announcement | None:
    """The latest announcement already made (its moment reached), if any."""
    made = [a for a in schedule if a.at_remaining_s >= remaining_s]
    return made[-1] if made else None


# --- Table status ------------------------------------------------------------------------


# From each status, the statuses a table may move to. Finishing straight from "playing"
# is the game ending because only one player remains (Championship Rules, TIME KEEPING).
TABLE_TRANSITIONS: dict[TableStatus, frozenset[TableStatus]] = {
    TableStatus.PLAYING: frozenset({TableStatus.LAST_TURN, TableStatus.FINISHED}),
    TableStatus.LAST_TURN: frozenset({TableStatus.FINISHED}),
    TableStatus.FINISHED: frozenset({TableStatus.SCORED}),
    TableStatus.SCORED: frozenset(),
}


def table_transition_error(
    *, current: TableStatus, target: TableStatus, clock: ClockState, last_turn: bool = True
) -> str | None:
    """Why a table may not move from ``current`` to ``target`` now, or None if it may.

    The last turn is only called once the time is up (or the head judge ended the round),
    and no game finishes before its clock started. Where the event has no last turn
    (``last_turn`` False, the Tournament Kit's End of Round) a table goes from playing to finished:
    when time is called "the game must stop".
    """
    if target == TableStatus.LAST_TURN and not last_turn:
        return _(
            "This event has no last turn: when time is called the game stops, and a player "
            "who has thrown the dice completes that move and any transaction that may result."
        )
    if target not in TABLE_TRANSITIONS[TableStatus(current)]:
        return _("A table marked “%(current)s” cannot be marked “%(target)s”.") % {
            "current": TableStatus(current).label,
            "target": target.label,
        }
    if clock.status == Status.NOT_STARTED:
        return _("This table’s game has not started yet.")
    if target == TableStatus.LAST_TURN and not clock.time_is_called:
        return _("The last turn can only be called once time is up.")
    return None


def format_remaining(seconds: float) -> str:
    """H:MM:SS above an hour, else MM:SS, rounded up so that 0:00 means time is up."""
    whole = int(-(-seconds // 1)) if seconds > 0 else 0
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"
