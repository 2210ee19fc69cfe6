"""Extra files ``export_results`` writes for an event, handed down by the apps above.

scoring may not import them (docs/architecture.md), so an app registers a writer here when
Django starts (series/apps.py: the Finals' entrants). A writer gets the event and the folder
and returns the paths it wrote (none when the event is not its business).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tournament.models import Event

ExportWriter = Callable[[Event, Path], list[Path]]

_WRITERS: list[ExportWriter] = []


def export_register(writer: ExportWriter) -> None:
    """Add a writer (once: registering the same one again changes nothing)."""
    if writer not in _WRITERS:
        _WRITERS.append(writer)


def export_writers() -> tuple[ExportWriter, ...]:
    return tuple(_WRITERS)
