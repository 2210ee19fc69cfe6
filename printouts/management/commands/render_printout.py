"""Render any printout to a file, through the code the background jobs run.

    python manage.py render_printout EVENT --form score-sheets --round 2 --out round-2.pdf

EVENT is the event's id. The form is built exactly as a job builds it (printouts.catalog);
nothing is queued or kept, and progress goes to standard error.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from printouts.catalog import FORMS, PrintRequest
from scoring.selectors import event_winner
from tournament.models import Event


class Command(BaseCommand):
    help = "Render a printout of an event to a PDF file, as the background jobs do."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event", type=int, help="the event's id")
        parser.add_argument("--form", required=True, choices=sorted(FORMS))
        parser.add_argument("--round", type=int, help="the round's number (round forms)")
        parser.add_argument(
            "--player", type=int, help="winner: the winner's id, checked (default: the winner)"
        )
        parser.add_argument("--public", action="store_true", help="assignments: aliases only")
        parser.add_argument("--wave", type=int, help="assignments: this wave only")
        parser.add_argument(
            "--base-url",
            default="",
            help="address the QR codes point to (default BOARDWALK_SITE_URL)",
        )
        parser.add_argument("--out", required=True, type=Path, help="the PDF file to write")

    def handle(self, *args, **options) -> None:
        form = FORMS[options["form"]]
        request = self._request(form, options)
        content = form.build(request, self._progress)
        out: Path = options["out"]
        # Written whole under a temporary name, then renamed: no half file on an interrupt.
        partial = out.with_name(f".{out.name}.partial")
        try:
            partial.write_bytes(content)
            partial.replace(out)
        except OSError as error:
            partial.unlink(missing_ok=True)
            raise CommandError(f"Cannot write {out}: {error}") from error
        self.stdout.write(f"{out}: {len(content):,} bytes")

    def _request(self, form, options) -> PrintRequest:
        event = Event.objects.filter(pk=options["event"]).first()
        if event is None:
            raise CommandError(f"No event with id {options['event']}.")
        round_ = player = None
        if form.needs_round:
            if options["round"] is None:
                raise CommandError(f"--round is required for {form.name}.")
            round_ = event.rounds.filter(number=options["round"]).first()
            if round_ is None:
                raise CommandError(f"{event.name} has no round {options['round']}.")
        if form.needs_player:
            player = self._winner(event, options["player"])
        base_url = options["base_url"] or settings.BOARDWALK_SITE_URL
        if form.needs_base_url and not base_url:
            raise CommandError(
                f"{form.name} prints a QR code: give --base-url https://your.site "
                "(or set BOARDWALK_SITE_URL)."
            )
        return PrintRequest(
            event=event,
            round=round_,
            player=player,
            public=options["public"],
            wave=options["wave"],
            base_url=base_url if form.needs_base_url else "",
        )

    def _winner(self, event: Event, player_pk: int | None):
        """The Winner Notification is the winner's alone (Tournament Kit), as on the printouts
        page."""
        winner = event_winner(event=event)
        sole = winner.player if winner else None
        if sole is None:
            raise CommandError(f"{event.name} has no winner yet: the final is not posted.")
        if player_pk is not None and player_pk != sole.pk:
            raise CommandError(
                f"Player {player_pk} did not win {event.name}; the winner is {sole.pk} "
                f"({sole.alias})."
            )
        return sole

    def _progress(self, done: int, total: int) -> None:
        self.stderr.write(f"{done} / {total}")
