"""`manage.py simulate_event --format championship|club|junior --players N`: a played event.

For trying pages, printouts and load on a realistic event of any format: registration,
seating, every round scored from simulated games and posted, to the winner, all through the
real services (``demo.formats``), with the public pages released as the demo's are. A
championship plays its preliminary rounds and the final; a club event is the kit's
knockout, round by round to its six-player final; a junior event is one game. Unlike
``load_demo`` it always adds a new event.

``--series N`` plays a championship season instead (``demo.series_simulation``): N regional
championships of ``--players`` places and N junior regionals, their qualifiers invited and
answering (one declined place passed on), the Finals and juniors' final seated and played;
with ``--no-final`` it stops once every qualifier is invited, before anyone answers.

With a mail server set (``EMAIL_HOST``) every registration is emailed its confirmation and
every Finals qualifier their invitation, as on a real day: the same services queue them, and
the command sends them before it ends (no worker needs to run).
"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from demo.event import demo_officials
from demo.formats import (
    CLUB,
    JUNIOR,
    format_simulate,
    knockout_story,
    simulated_winner,
    simulation_error,
)
from demo.series_simulation import series_error, series_simulate
from demo.simulation import ALTERNATES, FORMAT, MAX_ROUNDS, rounds_error
from mail.models import Message
from mail.services import mail_flush, mail_unavailable
from players.registration_mail import KIND as CONFIRMATION
from scoring.models import StandingsTieDecision
from scoring.tie_breakers import TIE_BREAKERS
from seating.draw import consecutive_registrant_tables
from series.invitation_mail import KIND as INVITATION
from series.models import JUNIOR as JUNIOR_DIVISION
from series.models import SENIOR, Entrant
from series.selectors import HOLDING
from tournament.formats import SENIOR_AGE
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
        parser.add_argument(
            "--series",
            type=int,
            default=None,
            metavar="N",
            help="a season: N regional championships and N junior regionals into the Finals",
        )

    def handle(self, *args, **options) -> None:
        first = Message.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        if options["series"] is not None:
            self._series(options)
        else:
            self._event(options)
        self._mail(after=first)

    def _mail(self, *, after: int) -> None:
        """Send what the simulation queued, and say what it was."""
        reason = mail_unavailable()
        if reason:
            self.stdout.write(f"No email sent: {reason}")
            return
        mail_flush()
        made = Message.objects.filter(pk__gt=after)
        counts = {kind: made.filter(kind=kind).count() for kind in (CONFIRMATION, INVITATION)}
        sent = made.filter(status=Message.Status.SENT).count()
        self.stdout.write(
            f"Emails: {counts[CONFIRMATION]} registration confirmations, "
            f"{counts[INVITATION]} Finals invitations; {sent} of {made.count()} sent to "
            f"{settings.EMAIL_HOST}:{settings.EMAIL_PORT}."
        )

    def _event(self, options) -> None:
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
        if event.bracket:
            for line in knockout_story(event=event):
                self.stdout.write(line)
        first = event.rounds.filter(number=1).first()
        if first is not None:
            together, tables = consecutive_registrant_tables(round_=first)
            self.stdout.write(
                f"Round 1 drawn with seed {first.draw_seed}: {together} of {tables} tables seat "
                f"two players who registered one after the other."
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

    def _series(self, options) -> None:
        if options["format"] != FORMAT or options["rounds"] is not None:
            raise CommandError("--series plays championships with their own rounds and finals.")
        error = series_error(regionals=options["series"], players=options["players"])
        if error:
            raise CommandError(error)
        simulated = series_simulate(
            regionals=options["series"],
            players=options["players"],
            seed=options["seed"],
            officials=demo_officials(logins=settings.DEBUG),
            play_finals=not options["no_final"],
        )
        series = simulated.series
        self.stdout.write(
            self.style.SUCCESS(
                f"Created series {series.name!r} (series {series.pk}): "
                f"{len(simulated.regionals)} regionals of {options['players']} players and "
                f"{len(simulated.junior_regionals)} junior regionals, all posted."
            )
        )
        for division, finals in (
            (SENIOR, simulated.finals),
            (JUNIOR_DIVISION, simulated.junior_finals),
        ):
            places = Entrant.objects.filter(
                series=series, division=division, status__in=HOLDING
            ).count()
            waiting = Entrant.objects.filter(
                series=series, division=division, status__in=HOLDING, response="pending"
            ).count()
            self.stdout.write(
                f"{finals.name} (event {finals.pk}): {places} entrants, {waiting} not answered yet."
            )
            if division == JUNIOR_DIVISION:
                # Championship Rules: "1 junior competitor from each will progress", whatever their
                # age by then.
                sixteen = [
                    p.alias
                    for p in Player.objects.filter(event=finals).select_related("event")
                    if p.age_at_event >= SENIOR_AGE
                ]
                self.stdout.write(
                    f"  {SENIOR_AGE} or over on the Finals day, registered from their regionals: "
                    f"{', '.join(sixteen) or 'nobody'}."
                )
            winner = simulated_winner(event=finals)
            if winner is not None:
                self.stdout.write(f"  Winner: {winner.player.alias}.")
        # Championship Rules: the cut is by "Point scores (not net worth)": a regional ranks by
        # points, then games won, then the head judge, who decided these ties (drawn by lot here).
        regionals = simulated.regionals
        decided = StandingsTieDecision.objects.filter(event__in=regionals).count()
        orders = sorted(
            {", then ".join(str(TIE_BREAKERS[k].label) for k in e.tie_breakers) for e in regionals}
        )
        self.stdout.write(
            f"Regionals ranked by {'; '.join(orders)}, then the head judge: "
            f"{decided} standings ties decided by the head judge."
        )
        if simulated.declined is not None and simulated.passed_to is not None:
            self.stdout.write(
                f"Declined: {simulated.declined.alias}; the place passed to "
                f"{simulated.passed_to.alias} (rank {simulated.passed_to.rank})."
            )
