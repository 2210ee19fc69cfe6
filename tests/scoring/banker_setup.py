"""A seated, finished table of four, built through the services as on a tournament day.

Shared by the banker page tests and the browser tests of the score sheet.
"""

from __future__ import annotations

import datetime

from django.contrib.auth.models import Group, User

from tournament.clock_services import clock_end, clock_start, table_mark_finished
from tournament.models import Player, Round, Table
from tournament.roles import BANKER, JUDGE, ORGANIZER
from tournament.seating_services import preseat_event
from tournament.services import Registration, event_create, player_register

ALIASES = ["Boot", "Car", "Hat", "Dog", "Ship", "Iron", "Cat", "Duck"]


def finished_tables(players: int = 4) -> list[Table]:
    """Round 1 of an event seated by the engine, its wave played and every table finished."""
    event = event_create(
        name="Banker Cup",
        organization="Club",
        venue="Hall",
        date=datetime.date(2031, 3, 1),
        start_time=datetime.time(10, 0),
        expected_players=players,
        table_size_min=4,
        table_size_max=4,
    )
    for index in range(players):
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


def user_with(role: str | None, name: str) -> User:
    user = User.objects.create_user(name, password="pw")
    if role:
        user.groups.add(Group.objects.get(name=role))
    return user


__all__ = ["BANKER", "JUDGE", "ORGANIZER", "finished_tables", "user_with"]
