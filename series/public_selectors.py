"""What the public series pages read: aliases, ranks, statuses and event names only.

Every query names its columns (``values``), so a registered name is never loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from series.models import DIVISIONS, Entrant, Series, SeriesEvent
from series.selectors import champion_aliases


@dataclass(frozen=True)
class PublicRegional:
    name: str
    date: object
    division: str
    qualifiers: list[Mapping[str, Any]]


def public_qualifiers(*, series: Series) -> list[PublicRegional]:
    """Each regional with its qualifiers holding a place, by rank."""
    holding = list(
        Entrant.objects.filter(series=series, status=Entrant.Status.QUALIFIER)
        .order_by("rank", "pk")
        .values("source_id", "alias", "rank")
    )
    found = []
    for member in (
        SeriesEvent.objects.filter(series=series)
        .order_by("division", "event__date", "event__pk")
        .values("pk", "event__name", "event__date", "division")
    ):
        found.append(
            PublicRegional(
                name=member["event__name"],
                date=member["event__date"],
                division=str(dict(DIVISIONS)[member["division"]]),
                qualifiers=[e for e in holding if e["source_id"] == member["pk"]],
            )
        )
    return found


def public_entrants(*, series: Series) -> list[tuple[str, list[dict[str, Any]]]]:
    """Each final's list: qualifiers, invited and alternates (declined places are not shown)."""
    labels = dict(Entrant.Status.choices)
    order = {"qualifier": 0, "invited": 1, "alternate": 2}
    found = []
    for key, label in DIVISIONS:
        rows = list(
            Entrant.objects.filter(series=series, division=key)
            .exclude(status=Entrant.Status.DECLINED)
            .values(
                "pk",
                "alias",
                "status",
                "rank",
                "alternate_position",
                "source__event__name",
                "source__event__date",
            )
        )
        rows.sort(
            key=lambda r: (
                order[r["status"]],
                r["alternate_position"] or 0,
                r["source__event__date"].toordinal() if r["source__event__date"] else 0,
                r["rank"] or 0,
                r["pk"],
            )
        )
        shown = [{**row, "status_label": labels[row["status"]]} for row in rows]
        found.append((str(label), shown))
    return found


def public_champions(*, series: Series) -> list[tuple[str, tuple[str, ...]]]:
    return [(str(label), champion_aliases(series=series, division=key)) for key, label in DIVISIONS]
