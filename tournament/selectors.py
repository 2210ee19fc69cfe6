"""Read-side queries for tournaments.

Views and commands fetch data only through these functions, so query tuning
(select_related, filtering by visibility, ...) happens in one place.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from .models import Event, Player

# People still in the event: they may check in and appear at the check-in desk.
ACTIVE_STATUSES = (Player.Status.PLAYER, Player.Status.ALTERNATE)
OUT_STATUSES = (Player.Status.NO_SHOW, Player.Status.WITHDRAWN, Player.Status.EJECTED)


def event_list() -> QuerySet[Event]:
    """All events, newest date first (the model's default ordering)."""
    return Event.objects.all()


def event_list_with_counts() -> QuerySet[Event]:
    """Events with the numbers an organizer scans first, counted in one query.

    Annotated as ``player_count`` (seated), ``alternate_count`` and ``checked_in_count``
    (seated players and alternates who have checked in).
    """
    return event_list().annotate(
        player_count=Count("players", filter=Q(players__status=Player.Status.PLAYER)),
        alternate_count=Count("players", filter=Q(players__status=Player.Status.ALTERNATE)),
        checked_in_count=Count(
            "players",
            filter=Q(players__status__in=ACTIVE_STATUSES, players__checked_in_at__isnull=False),
        ),
    )


def _event_players(*, event: Event) -> QuerySet[Player]:
    # select_related: age and flags read the event's date and thresholds for every row.
    return Player.objects.filter(event=event).select_related("event", "status_changed_by")


@dataclass(frozen=True)
class Roster:
    """An event's people as the organizer sees them: seated, waiting in order, and out."""

    seated: list[Player]
    alternates: list[Player]
    out: list[Player]
    empty_seats: int


def player_roster(*, event: Event) -> Roster:
    """Seated players by name, alternates by position (1 first), then everyone who left."""
    players = _event_players(event=event)
    seated = list(players.filter(status=Player.Status.PLAYER))
    alternates = list(players.filter(status=Player.Status.ALTERNATE).order_by("alternate_position"))
    out = list(players.filter(status__in=OUT_STATUSES).order_by("-status_changed_at"))
    return Roster(
        seated=seated,
        alternates=alternates,
        out=out,
        empty_seats=max(0, event.expected_players - len(seated)),
    )


def player_get(*, event: Event, pk: int) -> Player:
    """One person at ``event``; raises ``Player.DoesNotExist`` for another event's player."""
    return _event_players(event=event).get(pk=pk)


def player_search(*, event: Event, query: str) -> QuerySet[Player]:
    """The check-in desk's search: everyone still in the event matching every typed word.

    Each word must appear (case-insensitively) in the first name, last name or alias, so
    "ada love" finds Ada Lovelace and "lucky thim" finds "Lucky Thimble". An empty query
    lists everyone, seated players first, then the alternates in order.
    """
    players = _event_players(event=event).filter(status__in=ACTIVE_STATUSES)
    for word in query.strip().split():
        players = players.filter(
            Q(first_name__icontains=word) | Q(last_name__icontains=word) | Q(alias__icontains=word)
        )
    return players.order_by("-status", "alternate_position", "last_name", "first_name")


@dataclass(frozen=True)
class CheckInCounts:
    """How many of the expected people have arrived, seated players and alternates apart."""

    players_checked_in: int
    players: int
    alternates_checked_in: int
    alternates: int


def check_in_counts(*, event: Event) -> CheckInCounts:
    counts = Player.objects.filter(event=event).aggregate(
        players=Count("pk", filter=Q(status=Player.Status.PLAYER)),
        players_checked_in=Count(
            "pk", filter=Q(status=Player.Status.PLAYER, checked_in_at__isnull=False)
        ),
        alternates=Count("pk", filter=Q(status=Player.Status.ALTERNATE)),
        alternates_checked_in=Count(
            "pk", filter=Q(status=Player.Status.ALTERNATE, checked_in_at__isnull=False)
        ),
    )
    return CheckInCounts(**counts)
