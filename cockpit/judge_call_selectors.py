"""Reads for "Judge, please": the calls waiting, how long each has waited, a table's record."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils import timezone

from tournament.models import Event, JudgeCall, Table


@dataclass(frozen=True)
class WaitingCall:
    call: JudgeCall
    # Whole minutes since the table called (0 in the first minute).
    waited_minutes: int


def judge_calls_waiting(
    *, event: Event | None = None, now: datetime.datetime | None = None
) -> list[WaitingCall]:
    """The open calls, longest waiting first (of one event, or of every event)."""
    now = now or timezone.now()
    calls = JudgeCall.objects.filter(closed_at__isnull=True).select_related(
        "table__round__event", "taken_by"
    )
    if event is not None:
        calls = calls.filter(table__round__event=event)
    return [
        WaitingCall(
            call=call, waited_minutes=max(0, int((now - call.called_at).total_seconds() // 60))
        )
        for call in calls.order_by("called_at", "pk")
    ]


def table_judge_call(*, table: Table) -> JudgeCall | None:
    """The table's call still open, if any."""
    return (
        JudgeCall.objects.filter(table=table, closed_at__isnull=True)
        .select_related("taken_by")
        .first()
    )


def table_judge_calls(*, table: Table) -> QuerySet[JudgeCall]:
    """Every call of the table, oldest first: its record of what was asked and ruled."""
    return JudgeCall.objects.filter(table=table).select_related("taken_by", "closed_by")
