"""What a banker's landing page (/bank/) shows, in the order the banker needs it.

Reads only. A banker's tables fall in three kinds: games to play or in play, finished games
whose score sheet is still the banker's job (not signed yet), and finished tables whose
sheet is signed. The page shows the table in play first (large, with its clock), then the
sheets waiting, and folds the finished tables away: after a season of events they are the
long list, and they are the one kind a banker no longer acts on.

The current table is where the banker is needed now: a table whose clock is running (its
game on); else the earliest sheet still to finish (the next game waits for it); else the
next game to play.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext

from scoring.models import TableSheet
from tournament.access import tables_banked_by
from tournament.models import Table, TableStatus

# The finished tables listed under the fold (all are counted); a season has a few dozen.
FINISHED_SHOWN = 50

_IN_PLAY = (TableStatus.PLAYING, TableStatus.LAST_TURN)
_SIGNED = (TableSheet.Status.SIGNED, TableSheet.Status.APPROVED)


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
    # The other games to play or in play, then the other sheets still to finish.
    playing: list[BankerTable] = field(default_factory=list)
    waiting: list[BankerTable] = field(default_factory=list)
    # Signed and done: folded on the page. ``finished_count`` counts them all.
    finished: list[BankerTable] = field(default_factory=list)
    finished_count: int = 0

    @property
    def empty(self) -> bool:
        return self.current is None and not self.finished_count


def _sheet_label(sheet: TableSheet | None) -> str:
    if sheet is None:
        return gettext("not started")
    return str(TableSheet.Status(sheet.status).label)


def _kind(table: Table) -> str:
    """ "playing" (game to play or on), "waiting" (game over, sheet not signed), "finished"."""
    if table.status in _IN_PLAY:
        return "playing"
    sheet = getattr(table, "sheet", None)
    if sheet is not None and sheet.status in _SIGNED:
        return "finished"
    return "waiting"


def _view(table: Table) -> BankerTable:
    return BankerTable(
        table=table,
        status_label=str(TableStatus(table.status).label),
        sheet_label=_sheet_label(getattr(table, "sheet", None)),
        sheet_next=_kind(table) == "waiting",
    )


def _live(table: Table) -> bool:
    """The table's game is on: its wave's clock started and not ended."""
    clock = getattr(table.wave, "clock", None)
    return table.status in _IN_PLAY and clock is not None and clock.ended_at is None


def _first_to_do(tables: list[Table]) -> list[Table]:
    """Earliest first within the latest event (its round, then its table), then the
    events before it, latest first: ``tables`` come latest event first."""
    return sorted(
        tables,
        key=lambda t: (
            -t.round.event.date.toordinal(),
            -t.round.event_id,
            t.round.number,
            t.number,
        ),
    )


def banker_desk(*, user: Any) -> BankerDesk:
    """The banker's tables: the current one apart, the rest by what they need."""
    tables = list(tables_banked_by(user=user).select_related("wave__clock", "sheet"))
    kinds: dict[str, list[Table]] = {"playing": [], "waiting": [], "finished": []}
    for table in tables:
        kinds[_kind(table)].append(table)
    playing = _first_to_do(kinds["playing"])
    waiting = _first_to_do(kinds["waiting"])
    live = [t for t in playing if _live(t)]
    current = next(iter(live or waiting or playing), None)
    return BankerDesk(
        current=_view(current) if current is not None else None,
        playing=[_view(t) for t in playing if t is not current],
        waiting=[_view(t) for t in waiting if t is not current],
        finished=[_view(t) for t in kinds["finished"][:FINISHED_SHOWN]],
        finished_count=len(kinds["finished"]),
    )
