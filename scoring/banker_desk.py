"""What a banker's landing page (/bank/) shows: their current table first, the rest folded.

Reads only. The current table is where the banker is needed now: a table whose clock is
running (its game on); else, at the latest event that still needs them, the earliest table
whose game is to play or whose sheet is not signed yet; failing both, the latest table.
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
    tables = list(tables_banked_by(user=user).select_related("wave__clock", "sheet")[:SHOWN])
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
    current = _current(views)
    return BankerDesk(current=current, older=[v for v in views if v is not current])


def _live(table: Table) -> bool:
    """The table's game is on: its wave's clock started and not ended."""
    clock = getattr(table.wave, "clock", None)
    return (
        table.status in (TableStatus.PLAYING, TableStatus.LAST_TURN)
        and clock is not None
        and clock.ended_at is None
    )


def _current(views: list[BankerTable]) -> BankerTable:
    live = [v for v in views if _live(v.table)]
    if live:
        return live[0]
    needing = [v for v in views if _needs_banker(v.table, getattr(v.table, "sheet", None))]
    if not needing:
        return views[0]
    event = needing[0].table.round.event_id
    return min(
        (v for v in needing if v.table.round.event_id == event),
        key=lambda v: (v.table.round.number, v.table.number),
    )
