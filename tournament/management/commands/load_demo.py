"""`manage.py load_demo`: give a fresh install something to look at.

`make run` calls it on every start, so it must never duplicate or overwrite data:
it only acts on an empty events table.
"""

from django.core.management.base import BaseCommand

from tournament.demo import load_demo_event


class Command(BaseCommand):
    help = "Create the demo event and its players if there are no events yet."

    def handle(self, *args, **options) -> None:
        event = load_demo_event()
        if event is None:
            self.stdout.write("Events already exist; load_demo left the data alone.")
            return
        players = event.players.filter(status="player").count()
        alternates = event.players.filter(status="alternate").count()
        self.stdout.write(
            self.style.SUCCESS(
                f"Created demo event {event.name!r} on {event.date:%Y-%m-%d} with {players} "
                f"players and {alternates} alternates."
            )
        )
