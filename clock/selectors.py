"""Reads for the official clock: a wave's facts, its state now, and what the hall shows.

The pure arithmetic lives in ``clock``; these functions only gather the stored facts.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from clock.timing import (
    Announcement,
    ClockEvent,
    ClockFacts,
    ClockState,
    EventKind,
    Status,
    announcement_schedule,
    clock_state,
    last_announcement,
    next_announcement,
)
from tournament.formats import event_has_last_turn
from tournament.models import Clock, ClockAction, Event, Round, Seat, Table, TableStatus, Wave

# An announcement stays on the hall display and the tablets this long after its moment.
SHOW_S = 60

# By the stored kind (a ClockAction.Kind is its str value).
_FACT_KINDS: dict[str, EventKind] = {
    ClockAction.Kind.PAUSE: EventKind.PAUSE,
    ClockAction.Kind.RESUME: EventKind.RESUME,
    ClockAction.Kind.ADJUST: EventKind.ADJUST,
}


def _clock_of(wave: Wave) -> Clock | None:
    try:
        return wave.clock
    except Clock.DoesNotExist:
        return None


def clock_facts(*, wave: Wave) -> ClockFacts:
    """The stored facts of ``wave``'s clock; before its start, the event's round length."""
    clock = _clock_of(wave)
    if clock is None:
        return ClockFacts(duration_s=wave.round.event.round_minutes * 60)
    actions = clock.actions.filter(kind__in=list(_FACT_KINDS)).order_by("at", "pk")
    return ClockFacts(
        duration_s=clock.duration_seconds,
        started_at=clock.started_at,
        ended_at=clock.ended_at,
        events=tuple(ClockEvent(_FACT_KINDS[a.kind], a.at, a.seconds) for a in actions),
    )


def round_announcements(*, round_: Round, duration_s: int) -> tuple[Announcement, ...]:
    custom = round_.announcements.values_list("at_remaining_seconds", "text")
    return announcement_schedule(
        duration_s=duration_s,
        is_final=round_.kind == Round.Kind.FINAL,
        custom=custom,
        last_turn=event_has_last_turn(event=round_.event),
    )


@dataclass(frozen=True)
class TableView:
    """A table as the hall and the banker see it: number, status and aliases, no names."""

    table: Table
    aliases: tuple[str, ...]

    @property
    def status(self) -> TableStatus:
        return TableStatus(self.table.status)


@dataclass(frozen=True)
class WaveClock:
    wave: Wave
    facts: ClockFacts
    state: ClockState
    schedule: tuple[Announcement, ...]
    tables: tuple[TableView, ...]

    def table_label(self, view: TableView) -> str:
        """A table's word on the clock pages. A game is "playing" from its seating on, so
        before the wave's start it says "not started", as the clock above it does, instead
        of "playing" under a clock that has not started."""
        if self.state.status == Status.NOT_STARTED and view.status == TableStatus.PLAYING:
            return _("not started")
        return str(view.status.label)

    @property
    def labelled_tables(self) -> tuple[tuple[TableView, str], ...]:
        return tuple((view, self.table_label(view)) for view in self.tables)

    actions: tuple[ClockAction, ...]
    # The clock row's version (0 before the start), read with its start and end, before the
    # actions: the facts shown are never older than the version they are labelled with.
    version: int = 0
    # The wave's tables when ``tables`` was left empty (not listed), else None.
    table_count: int | None = None

    @property
    def tables_total(self) -> int:
        return len(self.tables) if self.table_count is None else self.table_count

    @property
    def round(self) -> Round:
        return self.wave.round

    @property
    def event(self) -> Event:
        return self.wave.round.event

    @property
    def next_announcement(self) -> Announcement | None:
        return next_announcement(self.schedule, remaining_s=self.state.remaining_s)

    @property
    def last_announcement(self) -> Announcement | None:
        if self.state.status == Status.NOT_STARTED:
            return None
        return last_announcement(self.schedule, remaining_s=self.state.remaining_s)

    @property
    def current_announcement(self) -> Announcement | None:
        """The call to show now: made within the last minute of play, or the time call."""
        last = self.last_announcement
        if last is None or self.state.status == Status.ENDED:
            return None
        if last.at_remaining_s == 0 or self.state.remaining_s > last.at_remaining_s - SHOW_S:
            return last
        return None


def _tables(wave: Wave, *, aliases: bool) -> tuple[TableView, ...]:
    tables = list(wave.tables.order_by("number"))
    if not aliases:
        return tuple(TableView(t, ()) for t in tables)
    seats = (
        Seat.objects.filter(table__in=tables).select_related("player").order_by("table", "position")
    )
    by_table: dict[int, list[str]] = {t.pk: [] for t in tables}
    for seat in seats:
        by_table[seat.table_id].append(seat.player.alias)
    return tuple(TableView(t, tuple(by_table[t.pk])) for t in tables)


def wave_clock(
    *, wave: Wave, now: datetime.datetime, listed: bool | None = True, aliases: bool = True
) -> WaveClock:
    """Everything about one wave's clock at ``now``. ``listed``: its tables one by one
    (with their players' aliases, unless not ``aliases``); False, only how many; None, one
    by one until the wave has ended (an ended wave's are all over: 250 of them at 2,000
    players, and a day's waves add up)."""
    clock = _clock_of(wave)
    facts = clock_facts(wave=wave)
    state = clock_state(facts, now=now)
    actions = tuple(clock.actions.select_related("by").order_by("at", "pk")) if clock else ()
    if listed is None:
        listed = state.status != Status.ENDED
    return WaveClock(
        wave=wave,
        facts=facts,
        state=state,
        schedule=round_announcements(round_=wave.round, duration_s=facts.duration_s),
        tables=_tables(wave, aliases=aliases) if listed else (),
        actions=actions,
        version=clock.version if clock else 0,
        table_count=None if listed else wave.tables.count(),
    )


def event_waves(*, event: Event) -> QuerySet[Wave]:
    return (
        Wave.objects.filter(round__event=event)
        .select_related("round__event", "clock")
        .order_by("round__number", "number")
    )


def event_clocks(*, event: Event, now: datetime.datetime) -> list[WaveClock]:
    """Every wave of the event with its clock, in playing order: the head judge's page,
    which lists the tables (no aliases) of the waves not ended yet."""
    return [
        wave_clock(wave=wave, now=now, listed=None, aliases=False)
        for wave in event_waves(event=event)
    ]


def hall_wave(*, event: Event) -> Wave | None:
    """The wave the hall display follows.

    The most recently started clock that has not ended; failing that, the next wave still
    to start (by round, then wave); failing that, the last one to end, so the display
    still shows the final result of the day.
    """
    waves = event_waves(event=event)
    live = waves.filter(clock__isnull=False, clock__ended_at__isnull=True)
    wave = live.order_by("-clock__started_at", "-pk").first()
    if wave is None:
        wave = waves.filter(clock__isnull=True).first()
    if wave is None:
        wave = waves.order_by("-clock__ended_at", "-pk").first()
    return wave


def wave_get(*, event: Event, pk: int) -> Wave:
    """One wave of ``event``; raises ``Wave.DoesNotExist`` for another event's wave."""
    return event_waves(event=event).get(pk=pk)


def round_list(*, event: Event) -> QuerySet[Round]:
    return Round.objects.filter(event=event).prefetch_related("announcements").order_by("number")


def game_over_undo_refusal(*, table: Table) -> str | None:
    """Why the game over of ``table`` can no longer be undone, or None if it can.

    Nothing irreversible on one tap: a game over tapped by mistake reopens the
    game until something is built on it, that is until the score sheet is first saved
    (version 0 is the empty sheet nobody typed into yet).
    """
    if table.status != TableStatus.FINISHED:
        return _("This table’s game is not marked over, so there is nothing to reopen.")
    if Table.objects.filter(pk=table.pk, sheet__version__gt=0).exists():
        return _(
            "The score sheet of this table has been saved since the game ended, so the game "
            "stays over. A judge corrects the sheet if play has to go on."
        )
    return None
