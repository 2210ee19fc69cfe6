"""Undoing a no-show while nothing has been built on it (see ``no_show_selectors``)."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from .models import Player, Seat
from .no_show_selectors import no_show_replacement, no_show_undo_refusal
from .numbering import renumber


@transaction.atomic
def player_undo_no_show(
    *, player: Player, by: AbstractBaseUser | None = None, now: datetime.datetime | None = None
) -> Player | None:
    """``player`` is seated again; the alternate who took the seat goes back to the head of
    the alternates, and hands back any seat of a round not started. Returns that alternate."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    refusal = no_show_undo_refusal(player=player)
    if refusal is not None:
        raise ValidationError(refusal)
    replacement = no_show_replacement(player=player)
    if replacement is not None:
        taken = Seat.objects.filter(player=player).values_list("round_id", flat=True)
        Seat.objects.filter(player=replacement, round__started_at__isnull=True).exclude(
            round_id__in=list(taken)
        ).update(player=player)
        replacement.status = Player.Status.ALTERNATE
        replacement.replaces = None
        replacement.save(update_fields=["status", "replaces"])
        others = list(
            Player.objects.filter(event=player.event, status=Player.Status.ALTERNATE)
            .exclude(pk=replacement.pk)
            .order_by("alternate_position")
        )
        renumber([replacement, *others], field="alternate_position")
    player.status = Player.Status.PLAYER
    player.status_reason = ""
    player.status_changed_by = by if by is not None and by.is_authenticated else None
    player.status_changed_at = now or timezone.now()
    player.save()
    return replacement
