"""A 2,000-player round seated and not started, written in bulk, for the seat-change page.

The public pages' builder (tests/spectator/big_event.py) plays and posts its round; a seat
change needs a round not yet started, so this writes the same players and tables (500
tables of four in two waves) and stops there. Seconds, not the minutes of a simulation.
"""

from __future__ import annotations

import datetime

from django.utils import timezone

from tests.spectator.big_event import PLAYERS, TABLE_SIZE, WAVES, aliases
from tournament.models import Event, Player, Round, Seat, Table, Wave


def big_round(event: Event, *, players: int = PLAYERS) -> Round:
    """Round 1 of ``event`` with ``players`` players at tables of four, seat order = pk
    order (table 1 holds the first four), not started."""
    now = timezone.now()
    Player.objects.bulk_create(
        Player(
            event=event,
            first_name=f"First{n}",
            last_name=f"Last{n}",
            date_of_birth=datetime.date(1990, 1, 1),
            signature="Signed",
            signed_at=now,
            alias=alias,
            checked_in_at=now,
        )
        for n, alias in enumerate(aliases(players))
    )
    people = list(Player.objects.filter(event=event).order_by("pk"))
    round_ = Round.objects.create(event=event, number=1)
    waves = Wave.objects.bulk_create(
        Wave(round=round_, number=n, scheduled_start=now) for n in range(1, WAVES + 1)
    )
    count = players // TABLE_SIZE
    per_wave = -(-count // WAVES)
    tables = Table.objects.bulk_create(
        Table(round=round_, wave=waves[index // per_wave], number=index + 1)
        for index in range(count)
    )
    Seat.objects.bulk_create(
        Seat(round=round_, table=tables[i // TABLE_SIZE], player=p, position=i % TABLE_SIZE + 1)
        for i, p in enumerate(people)
    )
    return round_
