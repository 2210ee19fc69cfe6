"""Whether a withdrawal or an ejection may still be undone.

Nothing irreversible on one tap: a withdrawal or an ejection tapped by mistake is undone
while nothing has been built on it. Something has been built on it once a round started
since (play went on without the player), a score sheet of the player's table was written
since, or the seat was given to an alternate (the seats are full again).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournament.models import Clock, Player, Round, Seat

UNDOABLE = (Player.Status.WITHDRAWN, Player.Status.EJECTED)


def _round_started_since(*, player: Player) -> Round | None:
    since = player.status_changed_at
    started = (
        Round.objects.filter(event=player.event, started_at__gte=since).order_by("number").first()
    )
    if started is not None:
        return started
    clock = (
        Clock.objects.filter(wave__round__event=player.event, started_at__gte=since)
        .select_related("wave__round")
        .order_by("started_at")
        .first()
    )
    return clock.wave.round if clock is not None else None


def leave_undo_refusal(*, player: Player) -> str | None:
    """Why the withdrawal or ejection of ``player`` can no longer be undone, or None."""
    names = {"alias": player.alias}
    if player.status not in UNDOABLE or not player.status_before:
        return _("There is no withdrawal or ejection of %(alias)s to undo.") % names
    if player.status_changed_at is not None:
        started = _round_started_since(player=player)
        if started is not None:
            return _(
                "Round %(number)s has started since: play went on without %(alias)s, "
                "so this stands."
            ) % {**names, "number": started.number}
        if Seat.objects.filter(
            player=player,
            table__sheet__version__gt=0,
            table__sheet__updated_at__gte=player.status_changed_at,
        ).exists():
            return (
                _("The score sheet of %(alias)s's table has been written since, so this stands.")
                % names
            )
    if player.status_before == Player.Status.PLAYER:
        seated = Player.objects.filter(event=player.event, status=Player.Status.PLAYER).count()
        if seated >= player.event.expected_players:
            return (
                _(
                    "The seat of %(alias)s has been given to an alternate since: there is no "
                    "seat to give back."
                )
                % names
            )
    return None


def leave_undo_consequence(*, player: Player) -> str:
    """What the undo does, in the organizer's words."""
    names = {"alias": player.alias}
    if player.status_before == Player.Status.PLAYER:
        return _("%(alias)s is a seated player again, in the seats still held.") % names
    if player.status_before == Player.Status.ALTERNATE:
        return _("%(alias)s is alternate %(position)s again; those behind move down.") % {
            **names,
            "position": player.alternate_position_before or 1,
        }
    if player.status_before == Player.Status.WAITING:
        return _("%(alias)s is back on the waiting list, at their registration's place.") % names
    return ""
