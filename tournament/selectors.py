"""Read-side queries for tournaments.

Views and commands fetch data only through these functions, so query tuning
(select_related, filtering by visibility, ...) happens in one place.
"""

from django.db.models import QuerySet

from .models import Event


def event_list() -> QuerySet[Event]:
    """All events, newest date first (the model's default ordering)."""
    return Event.objects.all()
