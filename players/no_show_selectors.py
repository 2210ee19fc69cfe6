"""What a no-show would do, and whether it (or its undo) may happen now.

Championship Rules, NO-SHOWS: a player not seated at the official start gives up the seat, and the
next alternate in order takes it. So a no-show is refused before the start, the page asking
to confirm names the alternate who takes the seat, and an undo is allowed while nothing
has been built on it: no round has started (no clock, no score sheet) and the alternate
who stepped in is still seated, not ejected or withdrawn.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from tournament.models import Clock, Event, Player, Round


def no_show_start(*, event: Event) -> datetime.datetime:
    """The official start: round 1's first scheduled wave, else the event's start time."""
    scheduled = (
        Round.objects.filter(event=event, number=1)
        .values_list("waves__scheduled_start", flat=True)
        .order_by("waves__number")
        .first()
    )
    return scheduled or event.starts_at


def no_show_refusal(*, player: Player, now: datetime.datetime | None = None) -> str | None:
    """Why ``player`` cannot be marked a no-show now, or None."""
    if player.status != Player.Status.PLAYER:
        return _("Only a seated player can be marked as a no-show.")
    start = no_show_start(event=player.event)
    if (now or timezone.now()) < start:
        return _(
            "Not before the start (%(start)s): until then a player who has not checked in "
            "may still arrive."
        ) % {"start": formats.date_format(timezone.localtime(start), "DATETIME_FORMAT")}
    return None


def next_alternate(*, event: Event) -> Player | None:
    return (
        Player.objects.filter(event=event, status=Player.Status.ALTERNATE)
        .order_by("alternate_position")
        .first()
    )


@dataclass(frozen=True)
class NoShowPreview:
    player: Player
    alternate: Player | None
    refusal: str | None

    @property
    def consequence(self) -> str:
        if self.alternate is None:
            return _("No alternate is waiting: %(alias)s's seat stays empty.") % {
                "alias": self.player.alias
            }
        return _("Alternate %(position)s, %(alias)s (%(name)s), takes the seat.") % {
            "position": self.alternate.alternate_position,
            "alias": self.alternate.alias,
            "name": self.alternate.full_name,
        }


def no_show_preview(*, player: Player, now: datetime.datetime | None = None) -> NoShowPreview:
    return NoShowPreview(
        player=player,
        alternate=next_alternate(event=player.event),
        refusal=no_show_refusal(player=player, now=now),
    )


@dataclass(frozen=True)
class NotHere:
    """The check-in desk's list at the start: seated players of the starting wave who have
    not checked in (one tap each marks them), and those already marked, with their undo
    while it is allowed."""

    started: bool
    start: datetime.datetime
    absent: tuple[Player, ...]
    marked: tuple[tuple[Player, str | None], ...]  # (no-show, why the undo is refused)


def not_here_at_the_start(*, event: Event, now: datetime.datetime | None = None) -> NotHere:
    start = no_show_start(event=event)
    first_wave = (
        Round.objects.filter(event=event, number=1)
        .values_list("waves__pk", flat=True)
        .order_by("waves__number")
        .first()
    )
    absent = Player.objects.filter(
        event=event, status=Player.Status.PLAYER, checked_in_at__isnull=True
    )
    if first_wave is not None:
        # Round 1 is seated: only the starting wave's players are due now.
        absent = absent.filter(seats__table__wave_id=first_wave).distinct()
    marked = Player.objects.filter(event=event, status=Player.Status.NO_SHOW).order_by(
        "status_changed_at", "pk"
    )
    started = (now or timezone.now()) >= start
    desk_used = Player.objects.filter(event=event, checked_in_at__isnull=False).exists()
    if not (started and desk_used):
        # Before the start everyone may still come; and a desk nobody checked in at yet
        # would list the whole field: the list waits for both (as the cockpit's step).
        absent = absent.none()
    return NotHere(
        started=started,
        start=start,
        absent=tuple(absent.order_by("alias", "pk")),
        marked=tuple((player, no_show_undo_refusal(player=player)) for player in marked),
    )


def no_show_replacement(*, player: Player) -> Player | None:
    """The alternate who took ``player``'s seat, if any."""
    return Player.objects.filter(event=player.event, replaces=player).order_by("-pk").first()


def no_show_undo_refusal(*, player: Player) -> str | None:
    """Why the no-show of ``player`` can no longer be undone, or None."""
    if player.status != Player.Status.NO_SHOW:
        return _("%(alias)s is not a no-show.") % {"alias": player.alias}
    event = player.event
    if (
        Round.objects.filter(event=event, started_at__isnull=False).exists()
        or Clock.objects.filter(wave__round__event=event).exists()
    ):
        return _("Play has started: the seat has been played, so the no-show stands.")
    replacement = no_show_replacement(player=player)
    if replacement is not None and replacement.status != Player.Status.PLAYER:
        return _("%(alias)s, who took the seat, is no longer in the event.") % {
            "alias": replacement.alias
        }
    return None
