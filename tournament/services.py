"""Write-side operations for tournaments.

Every change goes through a service so validation runs the same way from the admin,
a management command or a future form, instead of trusting each caller.
"""

import datetime

from .models import Event


def event_create(
    *,
    name: str,
    organization: str,
    venue: str,
    date: datetime.date,
    start_time: datetime.time,
    edition: str = "classic-us",
    format: str = Event.Format.CHAMPIONSHIP,
    round_minutes: int = 90,
    preliminary_rounds: int = 3,
) -> Event:
    """Validate and save a new event; raises ValidationError on bad input."""
    event = Event(
        name=name,
        organization=organization,
        venue=venue,
        date=date,
        start_time=start_time,
        edition=edition,
        format=format,
        round_minutes=round_minutes,
        preliminary_rounds=preliminary_rounds,
    )
    event.full_clean()
    event.save()
    return event
