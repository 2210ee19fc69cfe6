"""Read-side queries for players: the roster, searches, check-in counts, the waiting list."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.paginator import Page, Paginator
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext as _

from tournament.models import Event, Player, Seat
from tournament.selectors import ACTIVE_STATUSES, OUT_STATUSES

if TYPE_CHECKING:
    pass

# People listed at once on the player list; the search finds the others.
ROSTER_PAGE_SIZE = 100


def event_players(*, event: Event) -> QuerySet[Player]:
    # select_related: age and flags read the event's date and thresholds for every row.
    return Player.objects.filter(event=event).select_related("event", "status_changed_by")


@dataclass(frozen=True)
class Roster:
    """An event's people as the organizer sees them: seated, alternates in order, the
    waiting list in order, and out.

    ``seated`` is one page of the seated players (``seated_page``, a Django ``Page``, says
    which; ``seated_count`` counts them all), so a 2,000-player event's list stays quick;
    ``query`` narrows every list to the people matching each word typed. ``returnable``
    holds the players and alternates on show whom the organizer promoted from the waiting
    list and who may still go back to it (``waiting_return_refusal``).
    """

    seated: list[Player]
    alternates: list[Player]
    waiting: list[Player]
    out: list[Player]
    empty_seats: int
    free_alternates: int
    returnable: frozenset[int]
    seated_count: int = 0
    seated_page: Page | None = None
    query: str = ""


def _matching(players: QuerySet[Player], query: str) -> QuerySet[Player]:
    """Everyone whose first name, last name or alias holds each typed word."""
    for word in query.strip().split()[:8]:
        players = players.filter(
            Q(first_name__icontains=word) | Q(last_name__icontains=word) | Q(alias__icontains=word)
        )
    return players


def player_roster(*, event: Event, query: str = "", page: int | str | None = 1) -> Roster:
    """Seated players by name (one page of them), alternates by position (1 first), the
    waiting list by position, then everyone who left; all narrowed to ``query``."""
    everyone = event_players(event=event).annotate(
        seated=Exists(Seat.objects.filter(player=OuterRef("pk")))
    )
    players = _matching(everyone, query)
    seated_all = players.filter(status=Player.Status.PLAYER).order_by(
        "last_name", "first_name", "pk"
    )
    paginator = Paginator(seated_all, ROSTER_PAGE_SIZE)
    seated_page = paginator.get_page(page)
    seated = list(seated_page.object_list)
    alternates = list(players.filter(status=Player.Status.ALTERNATE).order_by("alternate_position"))
    waiting = list(players.filter(status=Player.Status.WAITING).order_by("waiting_position"))
    out = list(players.filter(status__in=OUT_STATUSES).order_by("-status_changed_at"))
    # An official's status change on someone still in the event is a promotion from the
    # waiting list: leaving the event is the only other one, and it takes them out.
    promoted = [p for p in seated + alternates if p.status_changed_at is not None]
    seated_total, alternates_total = paginator.count, len(alternates)
    if query.strip():  # the event's numbers, not the search's
        seated_total = everyone.filter(status=Player.Status.PLAYER).count()
        alternates_total = everyone.filter(status=Player.Status.ALTERNATE).count()
    return Roster(
        seated=seated,
        alternates=alternates,
        waiting=waiting,
        out=out,
        empty_seats=max(0, event.expected_players - seated_total),
        free_alternates=max(0, event.alternates - alternates_total),
        returnable=frozenset(
            p.pk for p in promoted if waiting_return_refusal(player=p, seated=p.seated) is None
        ),
        seated_count=seated_total,
        seated_page=seated_page,
        query=query.strip(),
    )


def promotion_target(*, event: Event) -> str:
    """Where a promotion from the waiting list puts someone now: ``PLAYER`` if a place is
    free, otherwise ``ALTERNATE`` (at the end of the alternates)."""
    players = Player.objects.filter(event=event, status=Player.Status.PLAYER).count()
    if players < event.expected_players:
        return Player.Status.PLAYER
    return Player.Status.ALTERNATE


def waiting_return_refusal(*, player: Player, seated: bool | None = None) -> str | None:
    """Why ``player`` cannot go back to the waiting list, or None if they can.

    Something depends on a place once its holder is seated in a round (the tables were
    drawn with them) or has taken a no-show's place; until then the move is undone freely.
    ``seated`` may be passed by a caller that already knows (the roster annotates it).
    """
    if player.status not in (Player.Status.PLAYER, Player.Status.ALTERNATE):
        return _("Only a player or an alternate can go back to the waiting list.")
    if player.replaces_id is not None:
        return _("%(alias)s has taken someone's place; that cannot be undone here.") % {
            "alias": player.alias
        }
    if seated is None:
        seated = player.seats.exists()
    if seated:
        return _("%(alias)s is seated in a round; change the seating first.") % {
            "alias": player.alias
        }
    return None


def player_get(*, event: Event, pk: int) -> Player:
    """One person at ``event``; raises ``Player.DoesNotExist`` for another event's player."""
    return event_players(event=event).get(pk=pk)


def player_search(*, event: Event, query: str) -> QuerySet[Player]:
    """The check-in desk's search: everyone still in the event (and its no-shows) matching
    every typed word.

    Each word must appear (case-insensitively) in the first name, last name or alias, so
    "ada love" finds Ada Lovelace and "lucky thim" finds "Lucky Thimble". An empty query
    lists everyone, seated players first, then the alternates in order.
    """
    # No-shows too: one who walks in is found, marked, with the undo beside them.
    desk = (*ACTIVE_STATUSES, Player.Status.NO_SHOW)
    players = _matching(event_players(event=event).filter(status__in=desk), query)
    return players.order_by("-status", "alternate_position", "last_name", "first_name", "pk")


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
