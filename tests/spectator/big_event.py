"""A 2,000-player championship for the public pages' size tests, written in bulk.

Simulating a day of 2,000 players takes many minutes (benchmarks/pages.py); the public
pages only read players' aliases, seats, result lines and the round's posting, so those
rows are written directly with ``bulk_create``, in seconds. Round 1 is seated at 500
tables of four in two waves, published, played and posted; every page is then released.
The points are those of a four-player table by place (1st 4, 2nd 3, 3rd 2, 4th 1), and no
two players share a net worth, so no tie is left for the head judge.
"""

from __future__ import annotations

import datetime
import random
from decimal import Decimal

from django.utils import timezone

from scoring.models import ResultLine, RoundPosting
from spectator.services import release_set
from tournament.models import Event, Player, Round, Seat, Table, Wave

PLAYERS = 2000
TABLE_SIZE = 4
WAVES = 2

_WORDS = (
    "Lucky", "Boot", "Iron", "Racing", "Silver", "Thimble", "Scottie", "Top", "Hat",
    "Wheel", "Barrow", "Cannon", "Horse", "Rider", "Boardwalk", "Park", "Place", "Baltic",
    "Marvin", "Gardens", "Reading", "Railroad", "Water", "Works", "Free", "Parking",
)  # fmt: skip


def aliases(count: int, *, seed: int = 1) -> list[str]:
    """``count`` different aliases, as players pick them: two words and a number."""
    chooser = random.Random(seed)
    made: list[str] = []
    seen: set[str] = set()
    while len(made) < count:
        alias = f"{chooser.choice(_WORDS)} {chooser.choice(_WORDS)} {chooser.randint(1, 999)}"
        if alias not in seen:
            seen.add(alias)
            made.append(alias)
    return made


def big_event(event: Event, *, players: int = PLAYERS) -> list[str]:
    """Round 1 of ``event`` seated, played and posted for ``players`` players, every public
    page released; the aliases in seat order (table 1's four first)."""
    now = timezone.now()
    names = aliases(players)
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
        for n, alias in enumerate(names)
    )
    people = list(Player.objects.filter(event=event).order_by("pk"))
    round_ = Round.objects.create(event=event, number=1, started_at=now, assignments_published=True)
    waves = Wave.objects.bulk_create(
        Wave(round=round_, number=n, scheduled_start=now) for n in range(1, WAVES + 1)
    )
    count = players // TABLE_SIZE
    per_wave = -(-count // WAVES)
    tables = Table.objects.bulk_create(
        Table(
            round=round_,
            wave=waves[index // per_wave],
            number=index + 1,
            status=Table.Status.FINISHED,
        )
        for index in range(count)
    )
    seats, lines = [], []
    for index, person in enumerate(people):
        table = tables[index // TABLE_SIZE]
        position = index % TABLE_SIZE + 1
        seats.append(Seat(round=round_, table=table, player=person, position=position))
        lines.append(
            ResultLine(
                table=table,
                player=person,
                net_worth=10_000 - index,
                unmortgaged_property_value=0,
                place=position,
                points=Decimal(TABLE_SIZE + 1 - position),
            )
        )
    Seat.objects.bulk_create(seats)
    ResultLine.objects.bulk_create(lines)
    RoundPosting.objects.create(round=round_, posted_at=now)
    release_set(
        event=event,
        pages={
            "home": True,
            "tables": True,
            "results": True,
            "standings": True,
            "final": True,
            "winner": True,
        },
        by=None,
    )
    return [person.alias for person in people]
