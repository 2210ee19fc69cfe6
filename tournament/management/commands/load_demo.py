"""`manage.py load_demo`: give a fresh install something to look at.

`make run` calls it on every start, so it must never duplicate or overwrite data:
it only acts on an empty events table.
"""

import datetime

from django.core.management.base import BaseCommand
from django.utils import timezone

from tournament.selectors import event_list
from tournament.services import event_create


class Command(BaseCommand):
    help = "Create one demo event if there are no events yet; otherwise do nothing."

    def handle(self, *args, **options) -> None:
        if event_list().exists():
            self.stdout.write("Events already exist; load_demo left the data alone.")
            return
        event = event_create(
            name="Boardwalk Demo Open",
            organization="Boardwalk Club",
            venue="Community Hall",
            date=timezone.localdate() + datetime.timedelta(days=14),
            start_time=datetime.time(10, 0),
            edition="classic-us",
            format="championship",
        )
        self.stdout.write(
            self.style.SUCCESS(f"Created demo event {event.name!r} on {event.date:%Y-%m-%d}.")
        )
