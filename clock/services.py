"""Writes for the official clock and the end of each table's game.

Every control records a fact (``ClockAction``) with who did it and when, and counts it in
the clock's ``version``; nothing else is stored, because the time left is always
recomputed from the facts (``clock``). Each control first checks the clock's state at
``now`` and refuses an illegal move with a ``ValidationError`` whose message the head
judge reads, leaving everything unchanged.
``now`` is injectable so that tests can replay a round second by second; otherwise it is
read after the clock's row is locked, so that a control waiting on another one's lock
decides on the facts that one recorded (a time read before the lock would be older than
them, and ``clock_state`` would ignore them: two pauses, or removals past zero).

A control may carry the clock's ``version`` its page showed (``shown_version``). When the
clock has moved on since, and one of the changes since is the very change asked for (a
double tap, or two officials pressing the same button at once), it raises
``ClockAlreadyDone`` instead of applying it a second time.
"""

from __future__ import annotations

import datetime
import math

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clock.selectors import clock_facts, game_over_undo_refusal
from clock.timing import ClockState, Status, clock_state, table_transition_error
from seating.services import round_start
from tournament.formats import event_has_last_turn
from tournament.locks import event_lock
from tournament.models import Announcement, Clock, ClockAction, Round, Table, TableStatus, Wave


def _now(now: datetime.datetime | None) -> datetime.datetime:
    return now or timezone.now()


class ClockAlreadyDone(Exception):
    """The change asked for is already among the changes made since the page was drawn."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _already_done_message() -> str:
    return _(
        "Already done: this change was just made (a second tap, or another official at the "
        "same moment). The clock below is as it is now."
    )


def _repeats(*, clock: Clock, shown_version: int | None, kind: str, seconds: int = 0) -> bool:
    """Whether a change of ``kind`` (and ``seconds``) was made after ``shown_version``.

    Every change counts one in ``version`` and records one action, so the changes since
    the page was drawn are the newest ``version - shown_version`` actions.
    """
    if shown_version is None or clock.version <= shown_version:
        return False
    since = clock.actions.order_by("-pk")[: clock.version - shown_version]
    return any(a.kind == kind and a.seconds == seconds for a in since)


def _locked_clock(wave: Wave) -> Clock:
    try:
        return Clock.objects.select_for_update().select_related("wave__round__event").get(wave=wave)
    except Clock.DoesNotExist as exc:
        raise ValidationError(_("This wave’s clock has not started yet.")) from exc


def _live(
    *,
    wave: Wave,
    now: datetime.datetime | None,
    kind: str,
    seconds: int = 0,
    shown_version: int | None = None,
) -> tuple[Clock, ClockState, datetime.datetime]:
    """The locked clock, its state and the time of the change (read after the lock);
    refuses a clock that has not started or has ended, and a change already made."""
    clock = _locked_clock(wave)
    now = _now(now)
    if _repeats(clock=clock, shown_version=shown_version, kind=kind, seconds=seconds):
        raise ClockAlreadyDone(_already_done_message())
    state = clock_state(clock_facts(wave=clock.wave), now=now)
    if state.status == Status.ENDED:
        raise ValidationError(_("This wave’s clock has ended; it can no longer change."))
    return clock, state, now


def _log(
    *,
    clock: Clock,
    kind: str,
    at: datetime.datetime,
    by: User | None,
    seconds: int = 0,
    reason: str = "",
) -> ClockAction:
    """Record one change, and count it in the clock's version in the same transaction.

    Every change to a clock goes through here, so the version moves with every fact the
    pages show; F() keeps the count right however the row was read.
    """
    action = ClockAction.objects.create(
        clock=clock, kind=kind, at=at, by=by, seconds=seconds, reason=reason.strip()
    )
    Clock.objects.filter(pk=clock.pk).update(version=F("version") + 1)
    return action


def _require_reason(reason: str, message: str) -> None:
    if not reason.strip():
        raise ValidationError(message)


@transaction.atomic
def clock_start(
    *,
    wave: Wave,
    by: User | None = None,
    now: datetime.datetime | None = None,
    shown_version: int | None = None,
) -> Clock:
    """Start play at every table of the wave at once (Championship Rules: same start for each
    table).

    The round starts with its first wave: alternates fill the vacancies and the seats
    freeze (``round_start``). The length is copied from the event now, so editing the
    event later does not move a running clock.
    """
    # The event's lock before the wave's, in the order every seating write takes them, so a
    # start and a re-seat or an alternates change cannot wait on each other (a deadlock).
    event_id = Wave.objects.filter(pk=wave.pk).values_list("round__event_id", flat=True).first()
    if event_id is None:
        raise ValidationError(_("This wave was seated again; open the clock page anew."))
    event_lock(event_id=event_id)
    wave = Wave.objects.select_for_update().select_related("round__event").get(pk=wave.pk)
    now = _now(now)
    if Clock.objects.filter(wave=wave).exists():
        if shown_version is not None:
            # The page showed a clock not yet started: someone started it meanwhile.
            raise ClockAlreadyDone(_already_done_message())
        raise ValidationError(_("This wave’s clock has already started."))
    round_ = wave.round
    if not round_.has_started:
        round_start(round_=round_, now=now)
    clock = Clock.objects.create(
        wave=wave, duration_seconds=round_.event.round_minutes * 60, started_at=now
    )
    _log(clock=clock, kind=ClockAction.Kind.START, at=now, by=by)
    return clock


@transaction.atomic
def clock_pause(
    *,
    wave: Wave,
    reason: str,
    by: User | None = None,
    now: datetime.datetime | None = None,
    shown_version: int | None = None,
) -> ClockAction:
    """Stop the clock, e.g. for a rules dispute; the reason goes into the log."""
    _require_reason(reason, _("Give a reason for the pause."))
    clock, state, now = _live(
        wave=wave, now=now, kind=ClockAction.Kind.PAUSE, shown_version=shown_version
    )
    if state.status == Status.PAUSED:
        raise ValidationError(_("The clock is already paused."))
    if state.status == Status.TIME_UP:
        raise ValidationError(_("Time is already up; there is nothing left to pause."))
    return _log(clock=clock, kind=ClockAction.Kind.PAUSE, at=now, by=by, reason=reason)


@transaction.atomic
def clock_resume(
    *,
    wave: Wave,
    reason: str = "",
    by: User | None = None,
    now: datetime.datetime | None = None,
    shown_version: int | None = None,
) -> ClockAction:
    clock, state, now = _live(
        wave=wave, now=now, kind=ClockAction.Kind.RESUME, shown_version=shown_version
    )
    if state.status != Status.PAUSED:
        raise ValidationError(_("The clock is not paused, so it cannot be resumed."))
    return _log(clock=clock, kind=ClockAction.Kind.RESUME, at=now, by=by, reason=reason)


@transaction.atomic
def clock_adjust(
    *,
    wave: Wave,
    seconds: int,
    reason: str,
    by: User | None = None,
    now: datetime.datetime | None = None,
    shown_version: int | None = None,
) -> ClockAction:
    """Add (positive) or remove (negative) time, e.g. to make up for a late start.

    A removal never takes the clock below zero: one of more than is left removes what is
    left, so time is up; the action's ``seconds`` say what was removed. With time already
    up there is nothing to remove, and that is refused.
    """
    if seconds == 0:
        raise ValidationError(_("Enter the minutes to add or remove."))
    _require_reason(reason, _("Give a reason for changing the time."))
    clock, state, now = _live(
        wave=wave,
        now=now,
        kind=ClockAction.Kind.ADJUST,
        seconds=seconds,
        shown_version=shown_version,
    )
    if seconds < 0 and -seconds > state.remaining_s:
        if state.remaining_s <= 0:
            raise ValidationError(_("Time is already up; there is no time left to remove."))
        # Up to the next whole second, so that time is up at once: the round's length
        # becomes the whole seconds played, never less than zero.
        seconds = -math.ceil(state.remaining_s)
    return _log(
        clock=clock, kind=ClockAction.Kind.ADJUST, at=now, by=by, seconds=seconds, reason=reason
    )


@transaction.atomic
def clock_end(
    *,
    wave: Wave,
    reason: str = "",
    by: User | None = None,
    now: datetime.datetime | None = None,
    shown_version: int | None = None,
) -> Clock:
    """End the wave's play: early (every table done) or after time is up. Final."""
    clock, _state, now = _live(
        wave=wave, now=now, kind=ClockAction.Kind.END, shown_version=shown_version
    )
    clock.ended_at = now
    clock.save(update_fields=["ended_at"])
    _log(clock=clock, kind=ClockAction.Kind.END, at=now, by=by, reason=reason)
    return clock


# --- Custom announcements ---------------------------------------------------------------


class AnnouncementExists(Exception):
    """The same announcement (round, moment and text) is already there: a double tap."""

    def __init__(self, announcement: Announcement):
        super().__init__(announcement.pk)
        self.announcement = announcement


@transaction.atomic
def announcement_add(
    *, round_: Round, at_remaining_seconds: int, text: str, by: User | None = None
):
    """The organizer's own call (raffle, lunch, ...) at a time remaining in every wave.

    The same text at the same moment of the same round is never called twice: a second one
    (a double tap, two organizers at once) raises ``AnnouncementExists``. The round's row is
    locked first, so two at once cannot both find none.
    """
    text = text.strip()
    if not text:
        raise ValidationError(_("Write the announcement’s text."))
    duration = round_.event.round_minutes * 60
    if not 0 <= at_remaining_seconds < duration:
        raise ValidationError(
            ngettext(
                "Choose a time remaining between 0 and %(minutes)s minute.",
                "Choose a time remaining between 0 and %(minutes)s minutes.",
                round_.event.round_minutes,
            )
            % {"minutes": round_.event.round_minutes}
        )
    Round.objects.select_for_update().only("pk").get(pk=round_.pk)
    same = Announcement.objects.filter(
        round=round_, at_remaining_seconds=at_remaining_seconds, text=text
    ).first()
    if same is not None:
        raise AnnouncementExists(same)
    return Announcement.objects.create(
        round=round_, at_remaining_seconds=at_remaining_seconds, text=text, created_by=by
    )


def announcement_delete(*, announcement: Announcement) -> bool:
    """Remove it; False when it was already gone (a double tap, or another organizer)."""
    deleted, _by_model = Announcement.objects.filter(pk=announcement.pk).delete()
    return bool(deleted)


# --- The end of a table's game ----------------------------------------------------------


@transaction.atomic
def _table_move(
    *, table: Table, target: TableStatus, by: User | None, now: datetime.datetime | None
) -> Table:
    table = Table.objects.select_for_update().select_related("wave__round__event").get(pk=table.pk)
    now = _now(now)
    state = clock_state(clock_facts(wave=table.wave), now=now)
    error = table_transition_error(
        current=TableStatus(table.status),
        target=target,
        clock=state,
        last_turn=event_has_last_turn(event=table.wave.round.event),
    )
    if error:
        raise ValidationError(error)
    table.status_before = table.status
    table.status = target
    table.status_changed_at = now
    table.status_changed_by = by
    table.save(update_fields=["status", "status_before", "status_changed_at", "status_changed_by"])
    return table


def table_mark_last_turn(
    *, table: Table, by: User | None = None, now: datetime.datetime | None = None
) -> Table:
    """Time has been called: the banker announces the last turn (Championship Rules, TIMING).

    Play goes on until the player before the starting player has finished, so everyone
    has had the same number of turns; then the banker marks the game finished.
    """
    return _table_move(table=table, target=TableStatus.LAST_TURN, by=by, now=now)


def table_mark_finished(
    *, table: Table, by: User | None = None, now: datetime.datetime | None = None
) -> Table:
    """The game is over (last turn played, or only one player left): scores may be entered."""
    return _table_move(table=table, target=TableStatus.FINISHED, by=by, now=now)


def table_mark_scored(
    *, table: Table, by: User | None = None, now: datetime.datetime | None = None
) -> Table:
    """For the score-sheet workflow: every score of a finished table has been entered."""
    return _table_move(table=table, target=TableStatus.SCORED, by=by, now=now)


@transaction.atomic
def table_reopen_game(
    *, table: Table, by: User | None = None, now: datetime.datetime | None = None
) -> Table:
    """Undo a game over tapped by mistake: the table goes back to where it was."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    refusal = game_over_undo_refusal(table=table)
    if refusal:
        raise ValidationError(refusal)
    back = table.status_before or TableStatus.PLAYING
    if back not in (TableStatus.PLAYING, TableStatus.LAST_TURN):
        back = TableStatus.PLAYING
    table.status, table.status_before = back, ""
    table.status_changed_at = _now(now)
    table.status_changed_by = by
    table.save(update_fields=["status", "status_before", "status_changed_at", "status_changed_by"])
    return table
