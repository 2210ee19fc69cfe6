"""Round 1 is a draw: the players are shuffled from a seed before the engine seats them.

The engine deals its first round from the order it is handed, and the roster comes in
registration order, so without a draw friends who register together meet first (in a
one-round knockout that decides the final). The seed is recorded on each round it seated,
so the draw can be shown and replayed, and the organizer may redraw round 1 until its
tables are published. Later rounds are the engine's as always: fewest rematches, families
apart (Championship Rules: "Players will play against different competitors in each round ...
members of the same family will not be seated together").
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import TypeVar

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.formats import event_is_knockout
from tournament.models import Player, Round, Seat

T = TypeVar("T")

# Seeds fit a PositiveBigIntegerField and are short enough to read out or type back.
DRAW_SEED_LIMIT = 10**9


def draw_seed_new() -> int:
    """A fresh seed for a draw nobody asked to repeat."""
    return secrets.randbelow(DRAW_SEED_LIMIT)


def draw_seed_or_new(seed: int | None) -> int:
    """The seed the organizer typed (to repeat a draw), else a fresh one."""
    return draw_seed_new() if seed is None else seed


def drawn(*, players: Sequence[T], seed: int) -> list[T]:
    """``players`` in the order the draw of ``seed`` gives: a permutation, the same for the
    same seed and players."""
    order = list(players)
    random.Random(f"round-draw/{seed}").shuffle(order)
    return order


def rounds_record_draw(*, rounds: Sequence[Round], seed: int) -> None:
    """Note on each round which draw seated it."""
    Round.objects.filter(pk__in=[r.pk for r in rounds]).update(draw_seed=seed)
    for round_ in rounds:
        round_.draw_seed = seed


def consecutive_registrant_tables(*, round_: Round) -> tuple[int, int]:
    """(tables seating two players who registered one after the other, tables) of
    ``round_``: dealt in registration order nearly every table does; drawn, few do."""
    order = {
        pk: index
        for index, pk in enumerate(
            Player.objects.filter(event=round_.event_id).order_by("pk").values_list("pk", flat=True)
        )
    }
    tables: dict[int, list[int]] = {}
    for table, player in Seat.objects.filter(round=round_).values_list("table_id", "player_id"):
        tables.setdefault(table, []).append(order[player])
    consecutive = sum(
        any(abs(a - b) == 1 for a in seated for b in seated) for seated in tables.values()
    )
    return consecutive, len(tables)


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
    # The seating services import this module; imported here to keep the two apart.
    from seating.services import preseat_event, round_seat_exact

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
