"""Undoing a no-show until the player's next game has started (see ``no_show_selectors``)."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from players.alternates import alternates_in_order, alternates_renumber
from players.no_show_selectors import no_show_replacement, no_show_undo_refusal
from tournament.formats import event_is_knockout
from tournament.locks import event_lock
from tournament.models import Player, Round, Seat, Table


@transaction.atomic
def player_undo_no_show(
    *, player: Player, by: User | None = None, now: datetime.datetime | None = None
) -> Player | None:
    """``player`` is seated again; the alternate who took the seat goes back to the head of
    the alternates, and hands back any seat of a round not started. Returns that alternate."""
    # The event first, as every write on the alternates: a second tap finds it undone.
    event_lock(event_id=player.event_id)
    player = Player.objects.get(pk=player.pk)
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
        others = [
            p for p in alternates_in_order(event_id=player.event_id) if p.pk != replacement.pk
        ]
        alternates_renumber(event_id=player.event_id, order=[replacement, *others])
    player.status = Player.Status.PLAYER
    player.status_reason = ""
    player.status_changed_by = by if by is not None and by.is_authenticated else None
    player.status_changed_at = now or timezone.now()
    player.save()
    _seat_again(player=player)
    return replacement


def _seat_again(*, player: Player) -> None:
    """Give ``player`` back a seat in each round not started whose empty seat the head judge
    left or rebalanced away: at its smallest table, while that stays within the format."""
    event = player.event
    rounds = (
        Round.objects.filter(event=event, started_at__isnull=True, tables__isnull=False)
        .exclude(seats__player=player)
        .exclude(waves__clock__isnull=False)
        .distinct()
        .order_by("number")
    )
    for round_ in rounds:
        if event_is_knockout(event=event) and round_.number > 1:
            continue  # a knockout's later rounds hold those who won their way in
        table = (
            Table.objects.filter(round=round_)
            .annotate(size=Count("seats"))
            .order_by("size", "number")
            .first()
        )
        if table is None or table.size >= event.table_size_max:
            continue
        Seat.objects.create(round=round_, table=table, player=player, position=table.size + 1)
