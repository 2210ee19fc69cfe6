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
