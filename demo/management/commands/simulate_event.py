"""`manage.py simulate_event --format championship|club|junior --players N`: a played event.

For trying pages, printouts and load on a realistic event of any format: registration,
seating, every round scored from simulated games and posted, to the winner, all through the
real services (``demo.formats``), with the public pages released as the demo's are. A
championship plays its preliminary rounds and the final; a club event is the kit's
knockout, round by round to its six-player final; a junior event is one game. Unlike
``load_demo`` it always adds a new event.
"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from demo.event import demo_officials
from demo.formats import CLUB, JUNIOR, format_simulate, simulated_winner, simulation_error
from demo.simulation import ALTERNATES, FORMAT, MAX_ROUNDS, rounds_error
from tournament.models import Player, Round


class Command(BaseCommand):
    help = (
        "Create an event of the format with N places and three alternates, play it with the "
        "rules engine's simulator through every round to its winner, and release its public "
        "pages."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--format", choices=[FORMAT, CLUB, JUNIOR], default=FORMAT, help="the event's format"
        )
        parser.add_argument("--players", type=int, required=True, help="places (N players)")
        parser.add_argument("--seed", type=int, default=0, help="same seed, same event")
        parser.add_argument(
            "--rounds",
            type=int,
            default=None,
            help=f"a championship's preliminary rounds (1-{MAX_ROUNDS})",
        )
        parser.add_argument(
            "--no-final", action="store_true", help="stop before the final (posted rounds only)"
        )

    def handle(self, *args, **options) -> None:
        players: int = options["players"]
        final = not options["no_final"]
        error = rounds_error(rounds=options["rounds"]) or simulation_error(
            format=options["format"], players=players, rounds=options["rounds"], final=final
        )
        if error:
            raise CommandError(error)
        try:
            simulated = format_simulate(
                format=options["format"],
                players=players,
                seed=options["seed"],
                rounds=options["rounds"],
                final=final,
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
                f"{rounds} preliminary round{'' if rounds == 1 else 's'} posted."
            )
        )
        if simulated.final is not None:
            finalists = ", ".join(
                seat.player.alias
                for seat in simulated.final.seats.select_related("player").order_by(
                    "table__number", "position"
                )
            )
            self.stdout.write(f"Final: {finalists}.")
        winner = simulated_winner(event=event)
        if winner is not None:
            self.stdout.write(f"Winner: {winner.player.alias} (net worth {winner.net_worth}).")
