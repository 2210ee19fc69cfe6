"""Undoing a withdrawal or an ejection while nothing has been built on it
(see ``leave_selectors``)."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from players.alternates import alternates_in_order, alternates_renumber
from players.leave_selectors import leave_undo_refusal
from players.services import renumber_waiting_list
from tournament.locks import event_lock
from tournament.models import Player


@transaction.atomic
def player_undo_leave(
    *, player: Player, by: User | None = None, now: datetime.datetime | None = None
) -> Player:
    """``player`` is back as before: seated, at their place among the alternates, or on the
    waiting list. Raises ValidationError with the reason once something was built on it."""
    # The event first, as every write on the alternates: a second tap finds it undone.
    event_lock(event_id=player.event_id)
    player = Player.objects.select_related("event").get(pk=player.pk)
    refusal = leave_undo_refusal(player=player)
    if refusal is not None:
        raise ValidationError(refusal)
    before = player.status_before
    player.status = before
    player.status_before = ""
    player.status_reason = ""
    player.status_changed_by = by if by is not None and by.is_authenticated else None
    player.status_changed_at = now or timezone.now()
    player.save()
    if before == Player.Status.ALTERNATE:
        others = [p for p in alternates_in_order(event_id=player.event_id) if p.pk != player.pk]
        place = max(1, min(player.alternate_position_before or 1, len(others) + 1))
        others.insert(place - 1, player)
        alternates_renumber(event_id=player.event_id, order=others)
    else:
        alternates_renumber(event_id=player.event_id)
    if before == Player.Status.WAITING:
        renumber_waiting_list(event=player.event)
    player.refresh_from_db()
    return player
