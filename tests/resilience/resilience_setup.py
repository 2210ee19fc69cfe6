"""Events for the resilience tests, built through the services as on a tournament day.

Shared by the restart test (``seed_restart_event`` runs in a child process against the
server's own database file) and the PostgreSQL burst test (in the test's database).
"""

from __future__ import annotations

import datetime

from django.contrib.auth.models import Group, User

from banker.links import banker_link_issue
from clock.services import clock_end, clock_start, table_mark_finished
from seating.services import preseat_event
from tests.builders import event_with_players
from tournament.models import Event, Round, Table
from tournament.roles import HEAD_JUDGE


def seated_event(*, players: int, tables_per_wave: int = 0, name: str = "Resilience Open") -> Event:
    """An event of ``players`` registered people, every preliminary round pre-seated."""
    event = event_with_players(
        players=players,
        checked_in=False,
        name=name,
        date=datetime.date(2031, 5, 10),
        table_size_min=4,
        table_size_max=4,
        preliminary_rounds=1,
        tables_per_wave=tables_per_wave,
        first_name="Player{n}",
        last_name="Tester",
        signature="{first_name} {last_name}",
    )
    preseat_event(event=event, only_checked_in=False, time_limit=2.0)
    return event


def round_one_tables(event: Event) -> list[Table]:
    round_1 = Round.objects.get(event=event, number=1)
    return list(Table.objects.filter(round=round_1).select_related("wave").order_by("number"))


def finish_round_one(event: Event) -> list[Table]:
    """Round 1 played: every wave's clock started, every table finished, clocks ended."""
    tables = round_one_tables(event)
    waves = {t.wave_id: t.wave for t in tables}
    for wave in waves.values():
        clock_start(wave=wave)
    for table in tables:
        table_mark_finished(table=table)
    for wave in waves.values():
        clock_end(wave=wave)
    return round_one_tables(event)


def banker_links(tables: list[Table]) -> dict[int, str]:
    """A private link (the key on the table card) for each table, by table pk."""
    return {t.pk: banker_link_issue(table=t, by=None).key for t in tables}


def user_in(role: str, username: str, password: str) -> User:
    user = User.objects.create_user(username, password=password)
    user.groups.add(Group.objects.get(name=role))
    return user


def seed_restart_event() -> dict:
    """The restart test's hall: 16 players, four tables in two waves, nothing started yet."""
    event = seated_event(players=16, tables_per_wave=2)
    tables = round_one_tables(event)
    keys = banker_links(tables)
    user_in(HEAD_JUDGE, "headjudge", "resilience-pw")
    return {
        "event": event.pk,
        "waves": sorted({t.wave_id for t in tables}),
        "tables": [
            {
                "pk": t.pk,
                "number": t.number,
                "wave": t.wave_id,
                "key": keys[t.pk],
                "players": list(t.seats.order_by("position").values_list("player_id", flat=True)),
            }
            for t in tables
        ],
        "head_judge": ["headjudge", "resilience-pw"],
    }
