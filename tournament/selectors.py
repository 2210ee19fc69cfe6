"""Read-side queries for tournaments.

Views and commands fetch data only through these functions, so query tuning
(select_related, filtering by visibility, ...) happens in one place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Count, Q, QuerySet

from tournament.models import Event, Player, Round, Table

if TYPE_CHECKING:
    pass

# People still in the event: they may check in and appear at the check-in desk.
ACTIVE_STATUSES = (Player.Status.PLAYER, Player.Status.ALTERNATE)
OUT_STATUSES = (Player.Status.NO_SHOW, Player.Status.WITHDRAWN, Player.Status.EJECTED)


def event_list() -> QuerySet[Event]:
    """All events, newest date first (the model's default ordering)."""
    return Event.objects.all()


def event_list_with_counts() -> QuerySet[Event]:
    """Events with the numbers an organizer scans first, counted in one query.

    Annotated as ``player_count`` (seated), ``alternate_count``, ``waiting_count`` (the
    waiting list) and ``checked_in_count`` (seated players and alternates who have checked
    in).
    """
    return event_list().annotate(
        player_count=Count("players", filter=Q(players__status=Player.Status.PLAYER)),
        alternate_count=Count("players", filter=Q(players__status=Player.Status.ALTERNATE)),
        waiting_count=Count("players", filter=Q(players__status=Player.Status.WAITING)),
        checked_in_count=Count(
            "players",
            filter=Q(players__status__in=ACTIVE_STATUSES, players__checked_in_at__isnull=False),
        ),
    )


def round_get(*, event: Event, number: int) -> Round:
    """Round ``number`` of ``event``; raises ``Round.DoesNotExist`` for any other."""
    return Round.objects.select_related("event").get(event=event, number=number)


def table_get(*, pk: int) -> Table:
    return Table.objects.select_related("round__event", "wave__round__event").get(pk=pk)
