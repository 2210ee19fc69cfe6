"""A table of four in play, for the offline tablet tests."""

from __future__ import annotations

from clock.services import clock_end, clock_start
from seating.services import preseat_event
from tests.builders import an_event, players_with_aliases
from tournament.models import Round, Table


def playing_table(*, time_up: bool = False) -> Table:
    """A table of four whose wave is running (or, ``time_up``, ended by the head judge)."""
    event = an_event(name="Offline Cup", expected_players=4, table_size_min=4, table_size_max=4)
    players_with_aliases(
        event, aliases=["Boot", "Car", "Hat", "Dog"], first_name="Real{n}", last_name="Name"
    )
    preseat_event(event=event, only_checked_in=False)
    table = Table.objects.get(round=Round.objects.get(event=event, number=1))
    clock_start(wave=table.wave)
    if time_up:
        clock_end(wave=table.wave)
    return Table.objects.get(pk=table.pk)
