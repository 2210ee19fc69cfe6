"""Write an event's results, standings and seating as CSV files, for the archive or the
federation.

The same rows as the organizer's CSV downloads (``scoring.selectors``), written by the same
writer (``players.csv_io.csv_write``, which defuses spreadsheet formulas), so a file
taken from the command line after the day and one downloaded during it agree; the seating
file (``seating.selectors.seating_csv_rows``) adds each table's order of play.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from players.csv_io import csv_write
from scoring import selectors
from scoring.exports import export_writers
from seating.selectors import seating_csv_rows
from tournament.models import Event, Round


class Command(BaseCommand):
    help = "Export an event's results per round, its standings and its seating as CSV files."

    def add_arguments(self, parser):
        parser.add_argument("event", type=int, help="the event's id (see /organizer/)")
        parser.add_argument("--out", default=".", help="folder for the files (created if missing)")
        parser.add_argument(
            "--posted-only",
            action="store_true",
            help="standings from posted rounds only, as the public sees them",
        )

    def handle(self, *args, event: int, out: str, posted_only: bool, **options):
        try:
            event_obj = Event.objects.get(pk=event)
        except Event.DoesNotExist:
            raise CommandError(f"No event with id {event}.") from None
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        for round_ in Round.objects.filter(event=event_obj).order_by("number"):
            path = folder / f"event-{event_obj.pk}-round-{round_.number}-results.csv"
            _write(path, selectors.results_csv_rows(round_=round_))
            written.append(path)
        suffix = "posted" if posted_only else "all"
        path = folder / f"event-{event_obj.pk}-standings-{suffix}.csv"
        _write(path, selectors.standings_csv_rows(event=event_obj, only_posted=posted_only))
        written.append(path)
        path = folder / f"event-{event_obj.pk}-seating.csv"
        _write(path, seating_csv_rows(event=event_obj))
        written.append(path)
        for writer in export_writers():
            written.extend(writer(event_obj, folder))
        for path in written:
            self.stdout.write(str(path))


def _write(path: Path, rows: Iterable[Iterable[Any]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv_write(rows=rows, stream=handle)
