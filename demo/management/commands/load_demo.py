"""`manage.py load_demo`: give a fresh install something to look at.

`make run` calls it on every start, so it must never duplicate or overwrite data:
it only acts on an empty events table. The demo is a played championship day, with a
played club knockout and a junior event beside it (``demo.event``); ``--unplayed`` makes
the championship alone and stops at registration and pre-seating.
"""

from django.core.management.base import BaseCommand, CommandParser

from demo.event import load_demo_event
from series.models import Series
from tournament.models import Event, Player, Round


class Command(BaseCommand):
    help = (
        "Create the demo events if there are no events yet: a championship of 40 players and "
        "3 alternates, three preliminary rounds played and posted, the final seated; a club "
        "knockout and a junior event, played to their winners; a small championship series "
        "(two regionals and two junior regionals into played finals)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--unplayed",
            action="store_true",
            help="only register and pre-seat, two weeks ahead (nothing played)",
        )

    def handle(self, *args, **options) -> None:
        event = load_demo_event(play=not options["unplayed"])
        if event is None:
            self.stdout.write("Events already exist; load_demo left the data alone.")
            return
        players = event.players.filter(status=Player.Status.PLAYER).count()
        alternates = event.players.filter(status=Player.Status.ALTERNATE).count()
        posted = event.rounds.filter(posting__isnull=False).count()
        final = event.rounds.filter(kind=Round.Kind.FINAL).exists()
        self.stdout.write(
            self.style.SUCCESS(
                f"Created demo event {event.name!r} on {event.date:%Y-%m-%d} with {players} "
                f"players and {alternates} alternates; "
                f"{posted} round{'' if posted == 1 else 's'} posted"
                + ("; the final is seated." if final else ".")
            )
        )
        others = Event.objects.exclude(pk=event.pk).order_by("pk")
        for other in others:
            self.stdout.write(f"Also played: {other.name!r} ({other.get_format_display()}).")
        for series in Series.objects.order_by("pk"):
            self.stdout.write(
                f"Series: {series.name!r}, its regionals qualifying into its Finals "
                f"(/organizer/series/{series.pk}/)."
            )
