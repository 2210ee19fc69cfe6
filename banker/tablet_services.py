"""A banker tablet's heartbeat: the server's record of when it was last heard.

The tablet (``static/js/tablet.js``) reports every little while it is online, and at once
when the network comes back, with how many actions it still has waiting in its queue.
"""

from __future__ import annotations

import datetime

from django.utils import timezone

from tournament.models import Table, TabletHeartbeat

MAX_QUEUED = 10_000


def heartbeat_record(
    *,
    table: Table,
    device: str,
    queued: int,
    offline_since: datetime.datetime | None = None,
    now: datetime.datetime | None = None,
) -> TabletHeartbeat:
    """Keep this tablet's last word at ``table``: now, and its queue's length.

    ``device`` is the id the tablet's browser keeps for itself (cut to 64 characters);
    ``queued`` is clamped to 0..10,000; an ``offline_since`` in the future is dropped.
    """
    now = now or timezone.now()
    if offline_since is not None and offline_since > now:
        offline_since = None
    beat, _created = TabletHeartbeat.objects.update_or_create(
        table=table,
        device=device[:64],
        defaults={
            "queued": max(0, min(int(queued), MAX_QUEUED)),
            "offline_since": offline_since,
            "last_heard": now,
        },
    )
    return beat
