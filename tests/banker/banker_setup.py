"""A seated, finished table of four, built through the services as on a tournament day.

Shared by the banker page tests and the browser tests of the score sheet.
"""

from __future__ import annotations

from clock.services import clock_end, clock_start, table_mark_finished
from seating.services import preseat_event
from tests.builders import an_event, registered_players, user_with
from tournament.models import Player, Round, Table
from tournament.roles import BANKER, JUDGE, ORGANIZER

ALIASES = ["Boot", "Car", "Hat", "Dog", "Ship", "Iron", "Cat", "Duck"]


def finished_tables(players: int = 4, *, table_size: int = 4) -> list[Table]:
    """Round 1 of an event seated by the engine at tables of ``table_size``, its wave
    played and every table finished."""
    event = an_event(
        name="Banker Cup",
        expected_players=players,
        table_size_min=table_size,
        table_size_max=table_size,
    )
    people = registered_players(
        event, count=players, checked_in=False, first_name="Real{n}", last_name="Name"
    )
    for index, player in enumerate(people):
        Player.objects.filter(pk=player.pk).update(alias=ALIASES[index])
    preseat_event(event=event, only_checked_in=False)
    round_1 = Round.objects.get(event=event, number=1)
    tables = list(Table.objects.filter(round=round_1).order_by("number"))
    for wave in {t.wave for t in tables}:
        clock_start(wave=wave)
    for table in tables:
        table_mark_finished(table=table)
    for wave in {t.wave for t in tables}:
        clock_end(wave=wave)
    return [Table.objects.get(pk=t.pk) for t in tables]


__all__ = ["BANKER", "JUDGE", "ORGANIZER", "finished_tables", "user_with"]
