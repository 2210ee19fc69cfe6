"""Time the judges' seat-change page at a 2,000-player round (median of 5, test client).

Run from the project root: ``PYTHONPATH=. python benchmarks/seat_change.py``. It makes a
throw-away test database (SQLite unless DATABASE_URL says otherwise), builds the round in
bulk (tests/seating/big_round.py) and asks for the page as a judge: the bare page, a
search by alias, and a swap's priced preview. Not a test: a number to compare before and
after a change.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
RUNS = 5


def main() -> None:
    django.setup()
    from django.contrib.auth.models import Group, User
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    setup_test_environment()
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        from tests.builders import an_event
        from tests.seating.big_round import big_round
        from tournament.models import Seat
        from tournament.roles import JUDGE

        event = an_event(name="Bench Cup")
        round_ = big_round(event)
        user = User.objects.create_user("bench-judge")
        user.groups.add(Group.objects.get(name=JUDGE))
        client = Client()
        client.force_login(user)
        url = reverse("seating:seating_change", kwargs={"pk": event.pk, "round_number": 1})
        a = Seat.objects.get(round=round_, table__number=1, position=1)
        b = Seat.objects.get(round=round_, table__number=2, position=1)
        cases = {
            "GET page": lambda: client.get(url),
            "GET search": lambda: client.get(url, {"find": a.player.alias[:6]}),
            "POST preview": lambda: client.post(
                url, {"player": a.player_id, "swap_with": b.player_id}
            ),
        }
        for label, ask in cases.items():
            ask()  # warm-up
            times, size = [], 0
            for _ in range(RUNS):
                start = time.perf_counter()
                response = ask()
                times.append(time.perf_counter() - start)
                size = len(response.content)
            print(
                f"{label:14} median {statistics.median(times) * 1000:7.0f} ms"
                f"  (min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f})"
                f"  {size / 1024:.0f} KiB  status {response.status_code}"
            )
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


if __name__ == "__main__":
    sys.path.insert(0, os.getcwd())
    main()
