"""Shared by the simulation and demo tests: the rule book's points, recomputed by hand.

The points table is copied from Championship Rules (SCORING), not imported from the engine,
and places are recomputed here from each sheet's net worths.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from scoring.models import TieDecision
from tournament.models import Event, Round, Table

# Championship Rules, SCORING: points by the number of players left at the end, by place.
RULE_BOOK_POINTS = {
    1: [28],
    2: [25, 14],
    3: [22, 12, 6],
    4: [19, 10, 5, 3],
    5: [16, 8, 4, 2, 1],
}


def preliminary_rounds(event: Event) -> list[Round]:
    return list(event.rounds.filter(kind=Round.Kind.PRELIMINARY).order_by("number"))


def rule_book_totals(event: Event) -> dict[int, Decimal]:
    """Each player's points over the preliminaries, recomputed from the sheets.

    Survivors are placed by net worth, then unmortgaged property value (Championship Rules, TIE
    BREAKERS); players level on both take the head judge's recorded order.
    """
    totals: dict[int, Decimal] = defaultdict(Decimal)
    for table in Table.objects.filter(round__event=event, round__kind=Round.Kind.PRELIMINARY):
        report = table.sheet.report
        survivors = [p for p in report["players"] if not p["bankrupt"]]
        decisions = {
            tuple(sorted(d.players)): d.order
            for d in TieDecision.objects.filter(table=table).order_by("at", "pk")
        }

        def strength(p):
            return (p["net_worth"], p["unmortgaged_property_value"])

        ordered = sorted(survivors, key=strength, reverse=True)
        for group_strength in sorted({strength(p) for p in survivors}, reverse=True):
            group = [p["id"] for p in ordered if strength(p) == group_strength]
            if len(group) > 1:
                order = decisions[tuple(sorted(group))]
                first = next(i for i, p in enumerate(ordered) if p["id"] in group)
                by_id = {p["id"]: p for p in ordered}
                ordered[first : first + len(group)] = [by_id[pid] for pid in order]
        row = RULE_BOOK_POINTS[len(survivors)]
        for place, p in enumerate(ordered, start=1):
            totals[int(p["id"])] += Decimal(row[place - 1])
        for p in report["players"]:
            if p["bankrupt"]:
                totals[int(p["id"])] += 0
    return dict(totals)
