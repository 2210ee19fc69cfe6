"""Drawing round 1 again: a new seed, the same players at the same table sizes.

Beside the draw itself (``seating.draw``, which the seating services use to deal every
round) because drawing again re-seats through those services.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from seating.draw import draw_seed_or_new
from seating.services import preseat_event, round_seat_exact
from tournament.formats import event_is_knockout
from tournament.models import Player, Round


def redraw_refusal(*, round_: Round) -> str | None:
    """Why round 1 cannot be drawn again now, or None: only round 1, seated, not started
    and not published (the public has not seen its tables)."""
    if round_.number != 1 or round_.kind != Round.Kind.PRELIMINARY:
        return _("Only round 1 is drawn; later rounds are seated to avoid rematches.")
    if round_.has_started:
        return _("Round 1 has started; its draw stands.")
    if round_.assignments_published:
        return _("Round 1's tables are published; hide them before drawing again.")
    if not round_.seats.exists():
        return _("Round 1 is not seated yet.")
    return None


@transaction.atomic
def round_redraw(*, round_: Round, seed: int | None = None, time_limit: float = 10.0) -> Round:
    """Draw round 1 again with a new seed, the same players at the same table sizes.

    A pre-seated event seats its later rounds again too (they were built around round 1),
    unless one of them is published or started, which is refused.
    """
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    refusal = redraw_refusal(round_=round_)
    if refusal:
        raise ValidationError(refusal, code="no-redraw")
    event = round_.event
    seed = draw_seed_or_new(seed)
    seats = list(round_.seats.select_related("table").order_by("table__number", "position"))
    players = list(Player.objects.filter(pk__in=[s.player_id for s in seats]).order_by("pk"))
    if event_is_knockout(event=event):
        sizes: dict[int, int] = {}
        for seat in seats:
            sizes[seat.table.number] = sizes.get(seat.table.number, 0) + 1
        return round_seat_exact(
            event=event,
            number=1,
            players=players,
            sizes=list(sizes.values()),
            seed=seed,
            time_limit=time_limit,
        )
    later = Round.objects.filter(event=event, kind=Round.Kind.PRELIMINARY, number__gt=1)
    if later.exclude(started_at=None).exists() or later.filter(assignments_published=True):
        raise ValidationError(
            _("A later round is published or started; round 1 can no longer be drawn again."),
            code="no-redraw",
        )
    preseat_event(event=event, players=players, seed=seed, time_limit=time_limit)
    round_.refresh_from_db()
    return round_
