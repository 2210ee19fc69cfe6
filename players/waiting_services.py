"""The waiting list: registrants beyond the places and the event's alternates.

Championship Rules, ALTERNATES: "three alternate positions will be secured". Whoever registers after
those are taken waits (``services.registration_place``), is told so, is never seated, checked in
or shown publicly, and moves up only when the organizer promotes them: to a free place, or
to the end of the alternates. A promotion can be undone while nothing depends on it.
"""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from players.selectors import promotion_target, waiting_return_refusal
from players.services import next_alternate_position, renumber_alternates, renumber_waiting_list
from tournament.models import Event, Player


def _stamp(player: Player, by: User | None, now: datetime.datetime | None) -> None:
    player.status_changed_by = by if by is not None and by.is_authenticated else None
    player.status_changed_at = now or timezone.now()


@transaction.atomic
def waiting_promote(
    *, player: Player, by: User | None = None, now: datetime.datetime | None = None
) -> Player:
    """Take ``player`` off the waiting list: a free place, or the end of the alternates.

    Who made the change and when is recorded (``status_changed_by``/``_at``), which is also
    what offers the undo on the organizer's page.
    """
    # Lock the event row, as registration does, so a promotion and a registration cannot
    # both take the last place.
    event = Event.objects.select_for_update().get(pk=player.event_id)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.status != Player.Status.WAITING:
        raise ValidationError(_("%(alias)s is not on the waiting list.") % {"alias": player.alias})
    player.status = promotion_target(event=event)
    player.alternate_position = (
        next_alternate_position(event) if player.status == Player.Status.ALTERNATE else None
    )
    player.waiting_position = None
    _stamp(player, by, now)
    player.save()
    renumber_waiting_list(event=event)
    renumber_alternates(event)
    player.refresh_from_db()
    return player


@transaction.atomic
def waiting_return(
    *, player: Player, by: User | None = None, now: datetime.datetime | None = None
) -> Player:
    """Put a player or an alternate back on the waiting list, at the place their
    registration gives them (the undo of ``waiting_promote``)."""
    event = Event.objects.select_for_update().get(pk=player.event_id)
    player = Player.objects.select_for_update().get(pk=player.pk)
    refusal = waiting_return_refusal(player=player)
    if refusal:
        raise ValidationError(refusal)
    was = player.status
    player.status = Player.Status.WAITING
    player.alternate_position = None
    player.waiting_position = None  # renumbering gives the place of their registration
    _stamp(player, by, now)
    player.save()
    renumber_waiting_list(event=event)
    if was == Player.Status.ALTERNATE:
        renumber_alternates(event)
    player.refresh_from_db()
    return player
