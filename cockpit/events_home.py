"""The officials' home pages at any size: each event one row saying where its day stands.

An organizer's home listed every event with eleven buttons each, so a season of events
was thousands of pixels of links. Here an event is one row (name, date, format, where
its day stands, the next step) with one link, to its cockpit, which holds every other
page of the event. Events are grouped by day: today's first, then upcoming, then the
past ones, folded and the most recent first, with only a page of them read at a time.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _

from cockpit.plan import CURRENT, cockpit_plan
from cockpit.selectors import event_facts
from tournament.models import Event

# Past events shown before "show all": a season's regionals and a few more.
PAST_SHOWN = 12


@dataclass(frozen=True)
class EventRow:
    event: Event
    # Where the day stands ("Check-in", "Round 2", "Winner: ...") and the next step's
    # words, from the cockpit's own plan.
    stage: str
    next_step: str
    # A round is under way (its clock started) and the event has no winner yet: the
    # judges' desk keeps it at hand whatever its date says.
    in_play: bool = False


@dataclass(frozen=True)
class EventsByDay:
    today: tuple[EventRow, ...]
    upcoming: tuple[EventRow, ...]
    past: tuple[EventRow, ...]
    # Past events not read because only the most recent PAST_SHOWN were asked for.
    past_hidden: int

    @property
    def at_hand(self) -> tuple[EventRow, ...]:
        """Today's events, and any other with a round under way."""
        return self.today + tuple(r for r in self.upcoming + self.past if r.in_play)


def event_row(*, event: Event, now: datetime.datetime | None = None) -> EventRow:
    facts = event_facts(event=event, now=now)
    plan = cockpit_plan(facts)
    current = next((s for s in plan.steps if s.state == CURRENT), None)
    if facts.winner:
        stage = _("Winner: %(names)s") % {"names": ", ".join(facts.winner)}
    else:
        stage = current.label if current is not None else ""
    next_step = plan.next_action.label if plan.next_action is not None else _("Nothing left")
    in_play = not facts.winner and any(r.clock_started for r in facts.rounds)
    return EventRow(event=event, stage=stage, next_step=next_step, in_play=in_play)


def events_by_day(*, now: datetime.datetime | None = None, all_past: bool = False) -> EventsByDay:
    """Today's events, the upcoming ones (soonest first) and the past ones (latest
    first), each with where its day stands; only the latest PAST_SHOWN past events unless
    ``all_past``."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    events = Event.objects.all()
    past_events = events.filter(date__lt=today).order_by("-date", "-pk")
    past_count = past_events.count()
    if not all_past:
        past_events = past_events[:PAST_SHOWN]

    def rows(queryset) -> tuple[EventRow, ...]:
        return tuple(event_row(event=event, now=now) for event in queryset)

    past = rows(past_events)
    return EventsByDay(
        today=rows(events.filter(date=today).order_by("name", "pk")),
        upcoming=rows(events.filter(date__gt=today).order_by("date", "pk")),
        past=past,
        past_hidden=past_count - len(past),
    )
