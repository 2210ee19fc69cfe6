"""How the organizer's and judges' pages grow with the field: 40 players against 2,000.

Run from the project root: ``PYTHONPATH=. python benchmarks/growth.py``. It makes a
throw-away test database (SQLite unless DATABASE_URL says otherwise) holding two events,
40 and 2,000 players (``BENCH_GROWTH_SMALL``, ``BENCH_GROWTH_BIG``; ``BENCH_GROWTH_ONLY``
names pages to time, by part of their label), each with three
rounds seated, played and posted, written in bulk (as tests/spectator/big_event.py does);
then asks for every organizer and judge page of both as the organizer (test client): one
warm-up, the median of 5, the size, and how many times slower the big event's page is.
The goal: every page within 5 times. Not a test: numbers to compare before and after.
"""

from __future__ import annotations

import datetime
import os
import random
import statistics
import sys
import time
from decimal import Decimal

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
RUNS = 5
ROUNDS = 3
TABLE_SIZE = 4
GOAL = 5.0


def build(event, *, players: int) -> None:
    """``players`` checked in; ``ROUNDS`` rounds at tables of four in two waves, each
    played (the clocks ended, every sheet approved) and posted. Net worths all differ: no
    tie is left."""
    from django.utils import timezone

    from scoring.models import ResultLine, RoundPosting, TableSheet
    from tests.spectator.big_event import aliases
    from tournament.models import Clock, Player, Round, Seat, Table, Wave

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
    shuffler = random.Random(players)
    worth = 100_000
    for number in range(1, ROUNDS + 1):
        round_ = Round.objects.create(
            event=event, number=number, started_at=now, assignments_published=True
        )
        waves = Wave.objects.bulk_create(
            Wave(round=round_, number=n, scheduled_start=now) for n in (1, 2)
        )
        # Each wave's clock ran its 90 minutes and was ended, as at the end of a day.
        Clock.objects.bulk_create(
            Clock(
                wave=wave,
                duration_seconds=90 * 60,
                started_at=now - datetime.timedelta(hours=2),
                ended_at=now - datetime.timedelta(minutes=25),
            )
            for wave in waves
        )
        count = players // TABLE_SIZE
        per_wave = -(-count // 2)
        tables = Table.objects.bulk_create(
            Table(
                round=round_,
                wave=waves[i // per_wave],
                number=i + 1,
                status=Table.Status.FINISHED,
            )
            for i in range(count)
        )
        TableSheet.objects.bulk_create(
            TableSheet(table=t, status=TableSheet.Status.APPROVED, version=3) for t in tables
        )
        order = people[:]
        shuffler.shuffle(order)
        seats, lines = [], []
        for index, person in enumerate(order):
            table, position = tables[index // TABLE_SIZE], index % TABLE_SIZE + 1
            seats.append(Seat(round=round_, table=table, player=person, position=position))
            worth -= 1
            lines.append(
                ResultLine(
                    table=table,
                    player=person,
                    net_worth=worth,
                    unmortgaged_property_value=0,
                    place=position,
                    points=Decimal(TABLE_SIZE + 1 - position),
                )
            )
        Seat.objects.bulk_create(seats)
        ResultLine.objects.bulk_create(lines)
        RoundPosting.objects.create(round=round_, posted_at=now)


def pages(event) -> dict[str, str]:
    """Every page timed, or those whose label contains ``BENCH_GROWTH_ONLY``."""
    only = os.environ.get("BENCH_GROWTH_ONLY", "")
    return {label: url for label, url in _pages(event).items() if only in label}


def _pages(event) -> dict[str, str]:
    from django.urls import reverse

    pk = {"pk": event.pk}
    round_1 = {"pk": event.pk, "round_number": 1}
    return {
        "standings": reverse("scoring:standings", kwargs=pk),
        "results round 1": reverse("scoring:results_round", kwargs=round_1),
        "cockpit": reverse("cockpit:cockpit", kwargs=pk),
        "seating round 1": reverse("seating:seating", kwargs=pk) + "?round=1",
        "players": reverse("players:player_list", kwargs=pk),
        "check-in": reverse("players:check_in", kwargs=pk),
        "clock": reverse("clock:clock_control", kwargs=pk),
        "judges' desk": reverse("cockpit:judges_desk") + f"?event={event.pk}",
        "officials' home": reverse("cockpit:events_home"),
    }


def timed(client, url: str) -> tuple[float, int, int]:
    """Median milliseconds of ``RUNS`` after a warm-up, the size in bytes, the status."""
    client.get(url)
    times, size, status = [], 0, 0
    for _ in range(RUNS):
        start = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - start)
        size, status = len(response.content), response.status_code
    return statistics.median(times) * 1000, size, status


def main() -> None:
    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    setup_test_environment()
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        from tests.builders import an_event, user_with
        from tournament.roles import ORGANIZER

        small_n = int(os.environ.get("BENCH_GROWTH_SMALL", 40))
        big_n = int(os.environ.get("BENCH_GROWTH_BIG", 2000))
        small = an_event(name="Small Cup", expected_players=small_n)
        big = an_event(name="Big Cup", expected_players=big_n)
        client = Client()
        client.force_login(user_with(ORGANIZER, "bench-organizer"))
        # The small event's pages are timed before the big one exists: the officials' home
        # and the judges' desk list every event, so theirs grow by the big event's row.
        started = time.perf_counter()
        build(small, players=small_n)
        before = {label: timed(client, url) for label, url in pages(small).items()}
        build(big, players=big_n)
        print(f"built in {time.perf_counter() - started:.1f} s")
        print(f"{'page':18} {small_n:>6}p ms {'KiB':>6} {big_n:>6}p ms {'KiB':>6}  growth")
        worst = 0.0
        for label, big_url in pages(big).items():
            s_ms, s_size, s_status = before[label]
            b_ms, b_size, b_status = timed(client, big_url)
            growth = b_ms / s_ms if s_ms else float("inf")
            worst = max(worst, growth)
            flag = "" if growth <= GOAL else "  OVER"
            codes = "" if s_status == b_status == 200 else f"  status {s_status}/{b_status}"
            print(
                f"{label:18} {s_ms:9.0f} {s_size / 1024:6.0f} {b_ms:9.0f} {b_size / 1024:6.0f}"
                f"  x{growth:4.1f}{flag}{codes}"
            )
        print(f"worst growth x{worst:.1f} (goal x{GOAL:.0f})")
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


if __name__ == "__main__":
    sys.path.insert(0, os.getcwd())
    main()
