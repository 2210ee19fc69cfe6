"""The event's row lock: the one lock every official's write on an event takes first.

Two officials acting on the same event at the same moment (two organizers on the
alternates, a double tap on "seat round 1", a bracket confirmed while round 1 is being
seated) must take turns, and the second must decide on what the first left, not on what
its page showed. So each of those writes begins by locking the event's row, then reads
and decides. One lock taken first, always the same, also means no two of them can wait
on each other in opposite orders (a deadlock): rows of rounds, waves, clocks and players
are only locked after it.
"""

from __future__ import annotations

from django.db import transaction

from tournament.models import Event, Player


def event_lock(*, event_id: int) -> Event:
    """The event, its row locked until the surrounding transaction ends.

    Called inside ``transaction.atomic``; taking it again in the same transaction is free.
    On SQLite, which has no row locks, the write transaction serialises the same writes.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("event_lock outside a transaction would be released at once")
    return Event.objects.select_for_update().get(pk=event_id)


def player_relock(player: Player) -> None:
    """Lock ``player``'s event, then read ``player`` again in place: a second official's
    tap, or one sent twice, is decided on what the first one left, not on the page."""
    event_lock(event_id=player.event_id)
    player.refresh_from_db()
