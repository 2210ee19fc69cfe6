"""The Finals' entrants as CSV for ``export_results`` (registered in apps.py)."""

from __future__ import annotations

from pathlib import Path

from players.csv_io import csv_write
from series import selectors
from series.models import JUNIOR, SENIOR, Series
from tournament.models import Event

HEADER = ["Alias", "Qualified from", "Qualifying rank", "Status"]


def entrants_csv_rows(*, series: Series, division: str) -> list[list[str]]:
    """Every entrant: alias, the source event's id, the qualifying rank, the status."""
    rows = [HEADER]
    for entrant in selectors.entrants_ordered(series=series, division=division):
        rows.append(
            [
                entrant.alias,
                str(entrant.source.event_id) if entrant.source else "",
                str(entrant.rank) if entrant.rank is not None else "",
                entrant.status,
            ]
        )
    return rows


def entrants_export(event: Event, folder: Path) -> list[Path]:
    """``event-<id>-entrants.csv`` when the event is a series' Finals (or juniors' final)."""
    written = []
    for division, field in ((SENIOR, "finals"), (JUNIOR, "junior_finals")):
        for series in Series.objects.filter(**{field: event}):
            path = folder / f"event-{event.pk}-entrants.csv"
            with path.open("w", newline="", encoding="utf-8") as handle:
                csv_write(rows=entrants_csv_rows(series=series, division=division), stream=handle)
            written.append(path)
    return written
