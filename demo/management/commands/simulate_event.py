"""`manage.py simulate_event --players N`: a whole championship of any size, played.

For trying pages, printouts and load on a realistic event: registration, seating, three
rounds scored from simulated games and posted, the final seated, all through the real
services (``demo.simulation``). Unlike ``load_demo`` it always adds a new event.
"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from demo.event import demo_officials
from demo.simulation import ALTERNATES, MAX_ROUNDS, event_simulate, players_error, rounds_error
from tournament.models import Player, Round


class Command(BaseCommand):
    help = (
        "Create a championship with N places and three alternates, play its preliminary "
        "rounds with the rules engine's simulator, post them and seat the final."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True, help="places (N players)")
        parser.add_argument("--seed", type=int, default=0, help="same seed, same event")
        parser.add_argument(
            "--rounds", type=int, default=None, help=f"preliminary rounds (1-{MAX_ROUNDS})"
        )
        parser.add_argument(
            "--no-final", action="store_true", help="stop after posting the last round"
        )

    def handle(self, *args, **options) -> None:
        players: int = options["players"]
        error = players_error(players=players) or rounds_error(rounds=options["rounds"])
        if error:
            raise CommandError(error)
        try:
            simulated = event_simulate(
                players=players,
                seed=options["seed"],
                rounds=options["rounds"],
                final=not options["no_final"],
                officials=demo_officials(logins=settings.DEBUG),
            )
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        event = simulated.event
        rounds = event.rounds.filter(kind=Round.Kind.PRELIMINARY, posting__isnull=False).count()
        alternates = event.players.filter(status=Player.Status.ALTERNATE).count()
        self.stdout.write(
            self.style.SUCCESS(
                f"Created {event.name!r} (event {event.pk}) on {event.date:%Y-%m-%d}: "
                f"{players} players, {alternates} of {ALTERNATES} alternates, "
                f"{rounds} rounds posted."
            )
        )
        if simulated.final is not None:
            finalists = ", ".join(
                seat.player.alias
                for seat in simulated.final.seats.select_related("player").order_by(
                    "table__number", "position"
                )
            )
            self.stdout.write(f"Final seated: {finalists}.")
