"""Run inside the deployed site (``boardwalk shell -c``) by deploy/redteam.py: the events and
accounts the red team's reproductions need, and afterwards what the database says.

Not imported by Boardwalk: its text is handed to the installed ``boardwalk shell`` as the
README's wrapper runs it, so it sees exactly the deployed code. The first line it prints
that starts with ``REDTEAM`` is a JSON object.
"""

from __future__ import annotations

import datetime
import json
import os

from django.contrib.auth.models import Group, User
from django.utils import timezone

MODE = os.environ.get("REDTEAM_MODE", "setup")
PASSWORD = os.environ.get("REDTEAM_PASSWORD", "")
BORN = datetime.date(1990, 1, 1)


def account(name: str, role: str) -> int:
    user = User.objects.create_user(name, password=PASSWORD)
    user.groups.add(Group.objects.get(name=role))
    return user.pk


def event_with(name: str, *, players: int, extra: int = 0, fmt: str = "championship", **fields):
    from players.services import Registration, player_check_in, player_register
    from tournament.models import Player
    from tournament.services import event_create

    event = event_create(
        name=name,
        format=fmt,
        organization="Red team",
        venue="Hall",
        date=datetime.date(2031, 3, 1),
        start_time=datetime.time(10, 0),
        expected_players=players,
        **fields,
    )
    for n in range(players + extra):
        player = player_register(
            event=event,
            registration=Registration(
                first_name=f"P{n}",
                last_name="Red",
                date_of_birth=BORN,
                signature="x",
                eligibility_declared=True,
                citizenship_declared=True,
                family="",
            ),
            source=Player.Source.ON_THE_DAY,
        )
        player_check_in(player=player)
    return event


def setup() -> dict:
    from clock import services as clock_services
    from knockout.services import bracket_confirm
    from seating.services import preseat_event, round_publish, round_start
    from tournament.models import Player, Round, Table, Wave
    from tournament.roles import BANKER, HEAD_JUDGE, JUDGE, ORGANIZER

    users = {
        "org1": account("rt-org1", ORGANIZER),
        "org2": account("rt-org2", ORGANIZER),
        "judge": account("rt-judge", JUDGE),
        "banker": account("rt-banker", BANKER),
    }
    users["head"] = account("rt-head", HEAD_JUDGE)
    # Four seats and 34 alternates: 30 trials each withdraw alternate 1.
    alternates = event_with(
        "Alternates race", players=4, extra=34, alternates=40, table_size_max=4,
        preliminary_rounds=1,
    )  # fmt: skip
    # A round being played, its clock started: the clock's races and the banker's pages.
    clocked = event_with("Clock race", players=8, table_size_max=4, preliminary_rounds=2)
    preseat_event(event=clocked, only_checked_in=True, time_limit=2.0)
    round_1 = Round.objects.get(event=clocked, number=1)
    round_publish(round_=round_1)
    round_start(round_=round_1)
    wave = Wave.objects.get(round=round_1)
    clock_services.clock_start(wave=wave, by=None)
    table = Table.objects.filter(round=round_1).order_by("number").first()
    Table.objects.filter(pk=table.pk).update(banker_id=users["banker"])
    # Two club knockouts of 26: one confirmed (eight "seat round 1" at once), one not
    # (confirm racing seat round 1).
    seat_race = event_with("Seat race", players=26, fmt="club")
    bracket_confirm(event=seat_race, method="table_winners", by=None)
    confirm_race = event_with("Confirm race", players=26, fmt="club")
    # One more alternate event for the same key posted twice at once.
    twice = event_with("Same key", players=4, extra=3, table_size_max=4, preliminary_rounds=1)
    return {
        "users": users,
        "alternates": alternates.pk,
        "clock": {"event": clocked.pk, "wave": wave.pk, "table": table.pk},
        "seat_race": seat_race.pk,
        "confirm_race": confirm_race.pk,
        "twice": twice.pk,
        "twice_alternate": Player.objects.get(event=twice, alternate_position=1).pk,
        "eject_player": Player.objects.filter(event=twice, status=Player.Status.PLAYER)
        .order_by("pk")
        .first()
        .pk,
    }


def facts() -> dict:
    from clock.selectors import clock_facts
    from clock.timing import clock_state
    from tournament.models import (
        ClockAction,
        Event,
        OfficialWrite,
        Player,
        Round,
        Seat,
        Table,
        TabletHeartbeat,
        Wave,
    )

    ids = json.loads(os.environ["REDTEAM_IDS"])
    out: dict = {}
    alt = Player.objects.filter(event_id=ids["alternates"])
    out["alternates"] = list(
        alt.filter(alternate_position__isnull=False)
        .order_by("alternate_position")
        .values_list("alternate_position", flat=True)
    )
    out["alternates_withdrawn_holding_a_position"] = alt.filter(
        status=Player.Status.WITHDRAWN, alternate_position__isnull=False
    ).count()
    out["alternates_withdrawn"] = alt.filter(status=Player.Status.WITHDRAWN).count()
    wave = Wave.objects.get(pk=ids["clock"]["wave"])
    out["adjustments"] = list(
        ClockAction.objects.filter(clock__wave=wave, kind="adjust")
        .order_by("pk")
        .values_list("seconds", flat=True)
    )
    state = clock_state(clock_facts(wave=wave), now=timezone.now())
    out["clock"] = {
        "status": str(state.status),
        "remaining_s": state.remaining_s,
        "allotted_s": state.allotted_s,
        "elapsed_s": state.elapsed_s,
    }
    for key in ("seat_race", "confirm_race", "alternates"):
        rounds = Round.objects.filter(event_id=ids[key], number=1)
        out[f"{key}_round_1"] = {
            "round_1_tables": Table.objects.filter(round__in=rounds).count(),
            "round_1_seats": Seat.objects.filter(round__in=rounds).count(),
            "round_1_started": any(r.started_at for r in rounds),
            "round_1_published": any(r.assignments_published for r in rounds),
            "bracket_confirmed": bool(
                getattr(Event.objects.get(pk=ids[key]), "bracket_confirmed_at", None)
            ),
        }
    twice = Player.objects.get(pk=ids["twice_alternate"])
    out["twice"] = {
        "status": twice.status,
        "positions": list(
            Player.objects.filter(event_id=ids["twice"], alternate_position__isnull=False)
            .order_by("alternate_position")
            .values_list("alternate_position", flat=True)
        ),
    }
    out["heartbeats"] = TabletHeartbeat.objects.filter(table_id=ids["clock"]["table"]).count()
    out["official_writes"] = OfficialWrite.objects.count()
    out["players_in_import_event"] = Player.objects.filter(event_id=ids["twice"]).count()
    return out


print("REDTEAM " + json.dumps(setup() if MODE == "setup" else facts(), default=str))
