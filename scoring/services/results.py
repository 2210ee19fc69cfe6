"""Result lines: written only from the rules engine's report on a signed sheet.

Rewritten on a judge's correction or a tie decision, so nobody types a place or a point by
hand.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from gameplay import PointsTable
from scoring.models import ResultLine, TableSheet
from scoring.selectors import tie_decision_for
from tournament.formats import event_points_table


def _points(value: int | None) -> Decimal | None:
    return None if value is None else Decimal(value)


def tie_outcome(
    *,
    tie: tuple[str, ...],
    order: list[str] | None,
    share_points: bool,
    report: dict[str, Any],
    points_table: PointsTable | None,
) -> dict[str, tuple[int | None, Decimal | None]]:
    """Places and points for a tied group, as a head judge decided it.

    The group ties for the places starting at the shared place the engine gave it. In
    ``order`` they take those places one by one with their points; sharing keeps the shared
    place and gives everyone the average of those places' points, to the cent, half up
    (two sharing first of four: (19 + 10) / 2 = 14.50; three: 34 / 3 = 11.33).
    """
    players = {str(p["id"]): p for p in report["players"]}
    first = players[tie[0]]["place"]
    remaining = sum(1 for p in report["players"] if not p["bankrupt"])
    places = list(range(first, first + len(tie)))

    def points(place: int) -> Decimal | None:
        if points_table is None:
            return None
        return _points(points_table.points(remaining=remaining, place=place))

    if share_points:
        values = [value for value in (points(place) for place in places) if value is not None]
        if points_table is None or len(values) < len(places):
            return {pid: (first, None) for pid in tie}
        shared = (sum(values, Decimal(0)) / len(values)).quantize(
            Decimal("0.01"), rounding=ROUND_HALF_UP
        )
        return {pid: (first, shared) for pid in tie}
    assert order is not None
    return {pid: (place, points(place)) for pid, place in zip(order, places, strict=True)}


def write_results(*, sheet: TableSheet) -> None:
    """One ``ResultLine`` per player from the engine's report, with tie decisions applied.

    Every player has only their own line: an alternate who stepped in scores their own
    games and inherits nothing (Championship Rules, ALTERNATES SCORING).
    """
    table = sheet.table
    report = sheet.report
    outcome = {str(p["id"]): (p["place"], _points(p["points"])) for p in report["players"]}
    points_table = event_points_table(event=table.round.event)
    for tie in report.get("unresolved_ties", []):
        decision = tie_decision_for(table=table, tie=tuple(tie))
        if decision is not None:
            outcome.update(
                tie_outcome(
                    tie=tuple(sorted(tie)),
                    order=decision.order,
                    share_points=decision.share_points,
                    report=report,
                    points_table=points_table,
                )
            )
    ResultLine.objects.filter(table=table).delete()
    ResultLine.objects.bulk_create(
        ResultLine(
            table=table,
            player_id=int(p["id"]),
            bankrupt=p["bankrupt"],
            net_worth=p["net_worth"],
            unmortgaged_property_value=p["unmortgaged_property_value"],
            place=outcome[str(p["id"])][0],
            points=outcome[str(p["id"])][1],
        )
        for p in report["players"]
    )
