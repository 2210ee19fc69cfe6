"""A table of four in play, for the offline tablet tests (issue #20)."""

from __future__ import annotations

import datetime

from tournament.clock_services import clock_end, clock_start
from tournament.models import Player, Round, Table
from tournament.seating_services import preseat_event
from tournament.services import Registration, event_create, player_register


def playing_table(*, time_up: bool = False) -> Table:
    """A table of four whose wave is running (or, ``time_up``, ended by the head judge)."""
    event = event_create(
        name="Offline Cup",
        organization="Club",
        venue="Hall",
        date=datetime.date(2031, 3, 1),
        start_time=datetime.time(10, 0),
        expected_players=4,
        table_size_min=4,
        table_size_max=4,
    )
    for index, alias in enumerate(["Boot", "Car", "Hat", "Dog"]):
        player = player_register(
            event=event,
            registration=Registration(
                first_name=f"Real{index}",
                last_name="Name",
                date_of_birth=datetime.date(1990, 1, 1),
                signature="x",
                eligibility_declared=True,
                citizenship_declared=True,
            ),
            source=Player.Source.ON_THE_DAY,
        )
        Player.objects.filter(pk=player.pk).update(alias=alias)
    preseat_event(event=event, only_checked_in=False)
    table = Table.objects.get(round=Round.objects.get(event=event, number=1))
    clock_start(wave=table.wave)
    if time_up:
        clock_end(wave=table.wave)
    return Table.objects.get(pk=table.pk)
