"""What a no-show would do, and whether it (or its undo) may happen now.

Championship Rules, PLAYER NO SHOW: "If a player is not seated at the official start time of any
round, the player abdicates his/her seat for the rest of the tournament to an alternate." So a
no-show is about the player's next game, in any round: it is refused before that game's wave has
officially started (its scheduled start, or its clock's start; round 1 before it is seated: the
event's start). Before the rounds are seated the next alternate takes the place at once; once
they are, Championship Rules, ALTERNATES ("Use of alternates is at the discretion of the Head
Judge") leaves the seat empty for the head judge's choice at the round's start
(``seating.vacancy_services``). An undo is allowed until the player's next game has started (a
wave's clock started since the no-show) and while the alternate who stepped in is still seated,
not ejected or withdrawn.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from tournament.models import Clock, Event, Player, Round, Seat, Table, Wave

# A game a banker has ended is played: a no-show can no longer be about it.
PLAYED = (Table.Status.FINISHED, Table.Status.SCORED)


def no_show_start(*, event: Event) -> datetime.datetime:
    """The official start: round 1's first scheduled wave, else the event's start time."""
    scheduled = (
        Round.objects.filter(event=event, number=1)
        .values_list("waves__scheduled_start", flat=True)
        .order_by("waves__number")
        .first()
    )
    return scheduled or event.starts_at


def wave_official_start(*, wave: Wave) -> datetime.datetime | None:
    """When ``wave`` officially started or starts: its clock's start, else its scheduled
    start (the head judge may call it on the round's start page), else for round 1 the
    event's start; None when a later round's wave has neither yet."""
    clock = Clock.objects.filter(wave=wave).values_list("started_at", flat=True).first()
    if clock is not None:
        return clock
    if wave.scheduled_start is not None:
        return wave.scheduled_start
    if wave.round.number == 1:
        return no_show_start(event=wave.round.event)
    return None


def next_game(*, player: Player) -> Seat | None:
    """The seat of ``player``'s next game: the first, in round order, not played yet (no
    clock, or a clock while the table still plays)."""
    seats = (
        Seat.objects.filter(player=player)
        .select_related("round__event", "table__wave__round__event")
        .order_by("round__number")
    )
    for seat_ in seats:
        started = Clock.objects.filter(wave_id=seat_.table.wave_id).exists()
        if not (started and seat_.table.status in PLAYED):
            return seat_
    return None


def no_show_refusal(*, player: Player, now: datetime.datetime | None = None) -> str | None:
    """Why ``player`` cannot be marked a no-show now, or None."""
    if player.status != Player.Status.PLAYER:
        return _("Only a seated player can be marked as a no-show.")
    now = now or timezone.now()
    if not Seat.objects.filter(player=player).exists():
        start = no_show_start(event=player.event)
        if now < start:
            return _(
                "Not before the start (%(start)s): until then a player who has not checked in "
                "may still arrive."
            ) % {"start": _when(start)}
        return None
    seat_ = next_game(player=player)
    if seat_ is None:
        return _("%(alias)s has played every game seated so far: no game is about to start.") % {
            "alias": player.alias
        }
    official = wave_official_start(wave=seat_.table.wave)
    if official is None:
        return _(
            "Not before the start of round %(round)s: it has no start time yet. The head "
            "judge calls it on the round's start page; no-shows can be marked from then."
        ) % {"round": seat_.round.number}
    if now < official:
        return _(
            "Not before the start of round %(round)s (%(start)s): until then %(alias)s may "
            "still take the seat."
        ) % {"round": seat_.round.number, "start": _when(official), "alias": player.alias}
    return None


def _when(moment: datetime.datetime) -> str:
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")


def no_show_waits_for_the_head_judge(*, event: Event) -> bool:
    """Once the rounds are seated, a no-show's seat waits for the head judge's choice at
    the round's start (Championship Rules, ALTERNATES) instead of going to the next alternate at
    once."""
    return Seat.objects.filter(round__event=event).exists()


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
    waits: bool = False

    @property
    def consequence(self) -> str:
        if self.waits:
            return _(
                "The seat stays empty until the head judge chooses at the round's start: "
                "fill it with the next alternate, leave the table short, or rebalance the "
                "tables."
            )
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
        waits=no_show_waits_for_the_head_judge(event=player.event),
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
    # Championship Rules: the seat is abdicated at the official start; until the player's
    # next game has started (a wave's clock since the no-show), a late arrival may still
    # have it back.
    clocks = Clock.objects.filter(wave__round__event=player.event)
    if player.status_changed_at is not None:
        clocks = clocks.filter(started_at__gte=player.status_changed_at)
    if clocks.exists():
        return _(
            "Play has started: the next game of %(alias)s began after the no-show, so the "
            "no-show stands."
        ) % {"alias": player.alias}
    replacement = no_show_replacement(player=player)
    if replacement is not None and replacement.status != Player.Status.PLAYER:
        return _("%(alias)s, who took the seat, is no longer in the event.") % {
            "alias": replacement.alias
        }
    return None
