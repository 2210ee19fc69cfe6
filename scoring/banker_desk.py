"""What a banker's landing page (/bank/) shows: their current table first, the rest folded.

Reads only. The current table is the one still needing the banker: the latest table whose
game is on, or over with its sheet not yet signed; failing that, the latest table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from tournament.access import tables_banked_by
from tournament.clock import TableStatus, table_status_label
from tournament.models import Table

from .models import TableSheet

# How many of a banker's tables the page lists (a long day has a handful).
SHOWN = 20


@dataclass(frozen=True)
class BankerTable:
    table: Table
    status_label: str
    sheet_label: str
    # The game is over and the sheet is the banker's next job.
    sheet_next: bool


@dataclass(frozen=True)
class BankerDesk:
    current: BankerTable | None
    older: list[BankerTable]


def _sheet_label(sheet: TableSheet | None) -> str:
    if sheet is None:
        return gettext("not started")
    return str(TableSheet.Status(sheet.status).label)


def _needs_banker(table: Table, sheet: TableSheet | None) -> bool:
    if table.status in (TableStatus.PLAYING, TableStatus.LAST_TURN):
        return True
    return sheet is None or sheet.status in (TableSheet.Status.DRAFT, TableSheet.Status.SUBMITTED)


def banker_desk(*, user: Any) -> BankerDesk:
    """The banker's tables, the current one apart (latest event and round first)."""
    tables = list(tables_banked_by(user=user).select_related("wave", "sheet")[:SHOWN])
    views = []
    for table in tables:
        sheet = getattr(table, "sheet", None)
        views.append(
            BankerTable(
                table=table,
                status_label=str(table_status_label(TableStatus(table.status))),
                sheet_label=_sheet_label(sheet),
                sheet_next=table.status in (TableStatus.FINISHED, TableStatus.SCORED)
                and _needs_banker(table, sheet),
            )
        )
    if not views:
        return BankerDesk(current=None, older=[])
    needing = [v for v in views if _needs_banker(v.table, getattr(v.table, "sheet", None))]
    current = needing[0] if needing else views[0]
    return BankerDesk(current=current, older=[v for v in views if v is not current])
