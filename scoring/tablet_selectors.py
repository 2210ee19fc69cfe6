"""Which tables' tablets the judges should worry about.

A tablet reports a heartbeat while it is online (``tablet_services.heartbeat_record``).
One not heard from for ``SILENT_AFTER`` while its table's game is still to be scored is
taken to be offline; one that last said it had actions waiting has not sent them yet.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import timezone

from tournament.models import Round, Table, TabletHeartbeat

# Tablets beat every 20 seconds; three missed beats is "not heard from".
SILENT_AFTER = datetime.timedelta(seconds=60)


@dataclass(frozen=True)
class TabletWorry:
    """One table's tablet that is silent or still has actions waiting."""

    table: Table
    last_heard: datetime.datetime
    silent_for: datetime.timedelta
    queued: int
    offline: bool
    offline_since: datetime.datetime | None

    @property
    def minutes_silent(self) -> int:
        return int(self.silent_for.total_seconds() // 60)


def round_tablet_worries(
    *, round_: Round, now: datetime.datetime | None = None
) -> list[TabletWorry]:
    """The tables of ``round_`` whose tablet is offline or has actions waiting, by number.

    A table is offline when its most recently heard tablet is silent (a second tablet that
    took over is the one that counts); its waiting actions are those of every tablet that
    has reported them and not since reported them sent, so a tablet that beats with an
    empty queue cannot hide another one's waiting actions. A scored table is done with its
    tablets and never listed.
    """
    now = now or timezone.now()
    beats = (
        TabletHeartbeat.objects.filter(table__round=round_)
        .exclude(table__status=Table.Status.SCORED)
        .select_related("table")
        .order_by("table__number", "-last_heard")
    )
    latest: dict[int, TabletHeartbeat] = {}
    queued: dict[int, int] = {}
    for beat in beats:
        latest.setdefault(beat.table_id, beat)
        queued[beat.table_id] = queued.get(beat.table_id, 0) + beat.queued
    worries = []
    for beat in latest.values():
        silent_for = max(now - beat.last_heard, datetime.timedelta(0))
        offline = silent_for > SILENT_AFTER
        if offline or queued[beat.table_id]:
            worries.append(
                TabletWorry(
                    table=beat.table,
                    last_heard=beat.last_heard,
                    silent_for=silent_for,
                    queued=queued[beat.table_id],
                    offline=offline,
                    offline_since=beat.offline_since,
                )
            )
    return worries
