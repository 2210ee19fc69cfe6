"""Whether the last re-seat of all rounds may still be undone.

Nothing irreversible on one tap: a re-seat tapped by mistake is undone while nothing has
been built on its tables, that is while none of its rounds has started and every one of
them still has exactly the seats the re-seat made (no judge's move, no alternate seated,
no one moved out since).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from seating.round_tables import round_tables
from tournament.models import Event, Round


def reseat_undo_rounds(*, event: Event) -> list[Round]:
    """The rounds the last re-seat replaced, each keeping the seating it had before."""
    return [
        round_
        for round_ in Round.objects.filter(event=event).order_by("number")
        if round_.seating_undo
    ]


def reseat_undo_refusal(*, event: Event) -> str | None:
    """Why the last re-seat can no longer be undone, or None if it can."""
    rounds = reseat_undo_rounds(event=event)
    if not rounds:
        return _("There is no re-seat of all rounds to undo.")
    for round_ in rounds:
        names = {"number": round_.number}
        if round_.has_started:
            return _("Round %(number)s has started since, so the new seating stands.") % names
        if round_tables(round_) != round_.seating_undo["after"]:
            return (
                _(
                    "Seats of round %(number)s have been changed since the re-seat, so the "
                    "new seating stands."
                )
                % names
            )
    return None
