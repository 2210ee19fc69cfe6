"""Two tablets submitting the same sheet at the same moment: exactly one wins.

This needs real row locks, so it runs on PostgreSQL only (CI runs the suite there too);
SQLite locks the whole database file and cannot show the race.
"""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import connection

from scoring.models import SheetRevision, TableSheet
from scoring.services.sheets import SheetConflict, sheet_save_draft, sheet_submit
from tests.builders import players_with_aliases
from tests.scoring.scoring_helpers import make_round, sheet_data, table_of
from tournament.services import event_create


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_submissions_cannot_both_win():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL row locks (SELECT ... FOR UPDATE); SQLite cannot race")
    import datetime

    event = event_create(
        name="Race Cup",
        organization="Club",
        venue="Hall",
        date=datetime.date(2030, 4, 20),
        start_time=datetime.time(9, 30),
    )
    boot, car, hat, dog = players_with_aliases(
        event, aliases=["Boot", "Car", "Hat", "Dog"]
    ).values()
    table = table_of(make_round(event, 1, [[boot, car, hat, dog]]), 1)
    draft = sheet_data({boot: 100, car: 200, hat: 300, dog: 400})
    sheet_save_draft(table=table, data=draft, expected_version=0, by=None)

    versions = [
        sheet_data({boot: 3000, car: 2000, hat: 1500, dog: 1000}),
        sheet_data({boot: 1000, car: 1500, hat: 2000, dog: 3000}),
    ]
    barrier = threading.Barrier(2)
    outcomes: list[object] = [None, None]

    def submit(index: int) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[index] = sheet_submit(
                table=table,
                data=versions[index],
                expected_version=1,
                submission_key=uuid.uuid4(),
                by=None,
            )
        except Exception as error:
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    winners = [o for o in outcomes if isinstance(o, TableSheet)]
    losers = [o for o in outcomes if isinstance(o, SheetConflict)]
    assert (len(winners), len(losers)) == (1, 1), outcomes
    sheet = TableSheet.objects.get()
    assert (sheet.status, sheet.version) == ("submitted", 2)
    assert sheet.data == winners[0].data
    # The loser is told what the winner saved, so nothing is lost silently.
    assert losers[0].current_version == 2
    assert losers[0].current_data == sheet.data
    assert losers[0].changes
    assert SheetRevision.objects.count() == 1
