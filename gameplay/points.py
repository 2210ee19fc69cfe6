"""Places and points at the end of a game.

Players still in the game are ranked by net worth; a tie goes to the higher unmortgaged
property value (Championship Rules, TIE BREAKERS). A tie that survives both is reported, never
broken: the tournament's judges decide it. Bankrupt players score nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class PointsTable:
    """Points by place, one row per number of players still in the game at the end."""

    name: str
    rows: Mapping[int, tuple[int, ...]]

    def points(self, *, remaining: int, place: int) -> int | None:
        row = self.rows.get(remaining)
        if row is None or not 1 <= place <= len(row):
            return None
        return row[place - 1]


# Championship Rules, SCORING: "Points are awarded based on the number of players remaining".
CHAMPIONSHIP_POINTS = PointsTable(
    name="championship",
    rows={
        1: (28,),
        2: (25, 14),
        3: (22, 12, 6),
        4: (19, 10, 5, 3),
        5: (16, 8, 4, 2, 1),
    },
)


@dataclass(frozen=True)
class Standing:
    """What ranking needs to know about one player at the table."""

    id: str
    bankrupt: bool
    net_worth: int
    unmortgaged_property_value: int
    out_order: int | None = None


@dataclass(frozen=True)
class Placing:
    id: str
    place: int | None
    points: int | None


@dataclass(frozen=True)
class TableResult:
    placings: tuple[Placing, ...]
    unresolved_ties: tuple[tuple[str, ...], ...]

    def placing(self, player_id: str) -> Placing:
        return next(p for p in self.placings if p.id == player_id)


def rank_table(standings: Sequence[Standing], *, table: PointsTable | None) -> TableResult:
    """Places for everyone and points from ``table`` (None: rank by assets, no points).

    Tied players share the best place of their tie and get no points until the tie is
    decided. Bankrupt players follow the survivors, the last one out first, when the order
    they went out is known; otherwise their place is left open.
    """
    remaining = [s for s in standings if not s.bankrupt]
    remaining.sort(key=_strength, reverse=True)
    placings: dict[str, Placing] = {}
    ties: list[tuple[str, ...]] = []
    index = 0
    while index < len(remaining):
        tied = [s for s in remaining[index:] if _strength(s) == _strength(remaining[index])]
        place = index + 1
        if len(tied) > 1:
            ties.append(tuple(sorted(s.id for s in tied)))
        for standing in tied:
            points = None
            if table is not None and len(tied) == 1:
                points = table.points(remaining=len(remaining), place=place)
            placings[standing.id] = Placing(standing.id, place, points)
        index += len(tied)

    bankrupt = [s for s in standings if s.bankrupt]
    known_order = all(s.out_order is not None for s in bankrupt)
    bankrupt.sort(key=lambda s: s.out_order or 0, reverse=True)
    for offset, standing in enumerate(bankrupt):
        out_place = len(remaining) + offset + 1 if known_order else None
        placings[standing.id] = Placing(standing.id, out_place, 0 if table is not None else None)

    return TableResult(
        placings=tuple(placings[s.id] for s in standings),
        unresolved_ties=tuple(ties),
    )


def _strength(standing: Standing) -> tuple[int, int]:
    return (standing.net_worth, standing.unmortgaged_property_value)
