"""The alternates list kept dense: positions 1..n for the alternates, none for anyone else.

Championship Rules, ALTERNATES: alternates step in "in order", so their order is a list with no gaps
and no number held by someone who has left. Every write that changes it holds the event's
lock (``locks.event_lock``) and rewrites the list whole in the same transaction, clearing
a stray position first; a list left broken by an older version is therefore mended by
the next write, a round start included.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from tournament.locks import player_relock
from tournament.models import Player
from tournament.numbering import renumber


def alternates_in_order(*, event_id: int) -> list[Player]:
    """The event's alternates, first to step in first; one without a number comes last."""
    return list(
        Player.objects.filter(event_id=event_id, status=Player.Status.ALTERNATE).order_by(
            F("alternate_position").asc(nulls_last=True), "created_at", "pk"
        )
    )


def alternates_renumber(*, event_id: int, order: Sequence[Player] | None = None) -> None:
    """Number the alternates 1..n in ``order`` (default: their present order) and take the
    number away from anyone who is no longer an alternate. Call it holding the event lock."""
    Player.objects.filter(event_id=event_id, alternate_position__isnull=False).exclude(
        status=Player.Status.ALTERNATE
    ).update(alternate_position=None)
    if order is None:
        order = alternates_in_order(event_id=event_id)
    renumber(order, field="alternate_position")


@transaction.atomic
def alternate_move(*, player: Player, to_position: int) -> bool:
    """Reorder the alternate list, decided before the start (Championship Rules, ALTERNATES).

    ``to_position`` is where the organizer's page asked for: a second tap, or a second
    organizer asking the same, finds the player there already and changes nothing (False).
    """
    player_relock(player)
    if player.status != Player.Status.ALTERNATE:
        raise ValidationError(
            _("%(alias)s is no longer an alternate.") % {"alias": player.alias}, code="gone"
        )
    alternates = [p for p in alternates_in_order(event_id=player.event_id) if p.pk != player.pk]
    to_position = max(1, min(to_position, len(alternates) + 1))
    if player.alternate_position == to_position:
        return False
    alternates.insert(to_position - 1, player)
    alternates_renumber(event_id=player.event_id, order=alternates)
    player.refresh_from_db()
    return True
