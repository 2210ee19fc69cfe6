"""The judges' round page at a glance: every table's places, and what still holds it up.

Reads only. For each table of a round: its progress (playing, entering scores, signed,
approved), the places with alias, net worth and points, and what blocks it in words ("waiting
for the banker's sheet", "needs 2 player signatures", "needs a judge's approval", "tie to
decide"). Places are the stored results (tie decisions applied) once the banker has signed;
on a submitted sheet, what the rules engine placed, marked as not signed yet.

A round may have 500 tables: the whole round is read in a few narrow queries (statuses,
ties) for its counts and the "still open" filter, then one page of tables in full, a fixed
number of queries whatever the round's size.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.core.paginator import Page, Paginator
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.models import ResultLine, SheetSignature, TableSheet, TieDecision
from scoring.selectors import TableProgress
from scoring.tie_breakers import format_points
from tournament.models import Clock, Round, Seat, Table

# Tables on one page of the round: a 2,000-player round has 500.
RESULTS_PAGE_SIZE = 50

_SIGNED = (TableSheet.Status.SIGNED, TableSheet.Status.APPROVED)
_OVER = (Table.Status.FINISHED, Table.Status.SCORED)


@dataclass(frozen=True)
class BoardPlace:
    place: int | None
    alias: str
    net_worth: int | None
    points: Decimal | None
    bankrupt: bool

    @property
    def points_text(self) -> str:
        return format_points(self.points)


@dataclass
class BoardRow:
    table_id: int
    number: int
    wave: int
    status: str
    open_ties: int
    # The facts the blockers are worded from (filled in for the page's rows).
    table: Table | None = None
    places: list[BoardPlace] = field(default_factory=list)
    # Places from a submitted sheet the players have not all signed yet.
    provisional: bool = False
    blockers: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ResultsBoard:
    page: Page
    table_count: int
    settled: int
    open_ties: int
    # Tables something still holds up (the "still open" filter's count).
    still_open: int
    only_open: bool

    @property
    def rows(self) -> list[BoardRow]:
        return list(self.page.object_list)


def _progress(*, table_status: str, sheet_status: str | None, version: int, started: bool) -> str:
    """Where the table stands. "entering" covers a finished game whose sheet is not signed
    yet, and any table whose banker has already started a sheet (during the last turn)."""
    if sheet_status == TableSheet.Status.APPROVED:
        return TableProgress.APPROVED
    if sheet_status == TableSheet.Status.SIGNED:
        return TableProgress.SIGNED
    if version > 0 or table_status in _OVER:
        return TableProgress.ENTERING
    if table_status == Table.Status.LAST_TURN:
        return TableProgress.LAST_TURN
    return TableProgress.PLAYING if started else TableProgress.NOT_STARTED


def _open_ties(round_: Round) -> dict[int, int]:
    """Per table, the ties the engine left on its signed sheet that no decision settles."""
    ties = TableSheet.objects.filter(table__round=round_, status__in=_SIGNED).values_list(
        "table_id", "report__unresolved_ties"
    )
    decided: dict[int, set[tuple[str, ...]]] = defaultdict(set)
    for table_id, players in TieDecision.objects.filter(table__round=round_).values_list(
        "table_id", "players"
    ):
        decided[table_id].add(tuple(sorted(str(p) for p in players)))
    open_ties = {}
    for table_id, unresolved in ties:
        groups = {tuple(sorted(str(p) for p in tie)) for tie in unresolved or []}
        open_ties[table_id] = len(groups - decided[table_id])
    return open_ties


def _round_rows(round_: Round) -> list[BoardRow]:
    started = set(Clock.objects.filter(wave__round=round_).values_list("wave_id", flat=True))
    ties = _open_ties(round_)
    narrow = (
        Table.objects.filter(round=round_)
        .order_by("wave__number", "number")
        .values_list(
            "pk", "number", "wave_id", "wave__number", "status", "sheet__status", "sheet__version"
        )
    )
    return [
        BoardRow(
            table_id=pk,
            number=number,
            wave=wave_number,
            status=_progress(
                table_status=status,
                sheet_status=sheet_status,
                version=version or 0,
                started=wave_id in started,
            ),
            open_ties=ties.get(pk, 0),
        )
        for pk, number, wave_id, wave_number, status, sheet_status, version in narrow
    ]


def _is_open(row: BoardRow) -> bool:
    return row.status != TableProgress.APPROVED or row.open_ties > 0


def results_board(
    *, round_: Round, page: int | str | None = 1, only_open: bool = False
) -> ResultsBoard:
    """One page of the round's tables with their places and blockers, and the round's counts."""
    rows = _round_rows(round_)
    shown = [r for r in rows if _is_open(r)] if only_open else rows
    page_obj = Paginator(shown, RESULTS_PAGE_SIZE).get_page(page)
    _fill(list(page_obj.object_list))
    return ResultsBoard(
        page=page_obj,
        table_count=len(rows),
        settled=sum(1 for r in rows if r.status in (TableProgress.SIGNED, TableProgress.APPROVED)),
        open_ties=sum(r.open_ties for r in rows),
        still_open=sum(1 for r in rows if _is_open(r)),
        only_open=only_open,
    )


# --- One page in full -------------------------------------------------------------------------


def _fill(rows: list[BoardRow]) -> None:
    """The page's tables, sheets, seats, results and signatures: five queries in all."""
    ids = [r.table_id for r in rows]
    tables = {
        t.pk: t
        for t in Table.objects.filter(pk__in=ids)
        .select_related("wave", "sheet")
        .defer("sheet__data")
    }
    aliases: dict[int, dict[str, str]] = defaultdict(dict)
    for seat in Seat.objects.filter(table_id__in=ids).select_related("player"):
        aliases[seat.table_id][str(seat.player_id)] = seat.player.alias
    results: dict[int, list[ResultLine]] = defaultdict(list)
    for line in ResultLine.objects.filter(table_id__in=ids).select_related("player"):
        results[line.table_id].append(line)
    signed: dict[int, set[str]] = defaultdict(set)
    banker_signed: set[int] = set()
    for table_id, player_id in SheetSignature.objects.filter(sheet__table_id__in=ids).values_list(
        "sheet__table_id", "player_id"
    ):
        if player_id is None:
            banker_signed.add(table_id)
        else:
            signed[table_id].add(str(player_id))
    for row in rows:
        row.table = tables[row.table_id]
        sheet = getattr(row.table, "sheet", None)
        report = (sheet.report or {}) if sheet is not None else {}
        if sheet is not None and sheet.is_locked:
            row.places = _stored_places(results[row.table_id])
        elif sheet is not None and sheet.status == TableSheet.Status.SUBMITTED:
            row.places = _reported_places(report, aliases[row.table_id])
            row.provisional = True
        row.blockers = _blockers(row, sheet, report, signed[row.table_id])


def _order(place: BoardPlace) -> tuple[Any, ...]:
    return (place.place is None, place.place or 0, -(place.net_worth or 0), place.alias)


def _stored_places(lines: list[ResultLine]) -> list[BoardPlace]:
    return sorted(
        (
            BoardPlace(
                place=line.place,
                alias=line.player.alias,
                net_worth=line.net_worth,
                points=line.points,
                bankrupt=line.bankrupt,
            )
            for line in lines
        ),
        key=_order,
    )


def _reported_places(report: dict[str, Any], aliases: dict[str, str]) -> list[BoardPlace]:
    places = []
    for entry in report.get("players") or []:
        if not isinstance(entry, dict):
            continue
        points = entry.get("points")
        places.append(
            BoardPlace(
                place=entry.get("place"),
                alias=aliases.get(str(entry.get("id")), "?"),
                net_worth=entry.get("net_worth"),
                points=None if points is None else Decimal(str(points)),
                bankrupt=bool(entry.get("bankrupt")),
            )
        )
    return sorted(places, key=_order)


def _blockers(
    row: BoardRow, sheet: TableSheet | None, report: dict[str, Any], signed: set[str]
) -> list[str]:
    """What still holds the table up, in the words a judge acts on; none once approved."""
    if row.status == TableProgress.NOT_STARTED:
        return [_("waiting for the clock to start")]
    if row.status in (TableProgress.PLAYING, TableProgress.LAST_TURN) or (
        row.table is not None and row.table.status not in _OVER
    ):
        return [_("game still being played")]
    if sheet is None or sheet.status == TableSheet.Status.DRAFT:
        return [_("waiting for the banker's sheet")]
    blockers = []
    if sheet.status == TableSheet.Status.SUBMITTED:
        remaining = {
            str(p.get("id"))
            for p in report.get("players") or []
            if isinstance(p, dict) and not p.get("bankrupt")
        }
        missing = len(remaining - signed)
        if missing:
            blockers.append(
                ngettext(
                    "needs %(count)s player signature",
                    "needs %(count)s player signatures",
                    missing,
                )
                % {"count": missing}
            )
        else:
            blockers.append(_("needs the banker's signature"))
    if row.open_ties:
        blockers.append(
            ngettext("tie to decide", "%(count)s ties to decide", row.open_ties)
            % {"count": row.open_ties}
        )
    if sheet.status == TableSheet.Status.SIGNED:
        blockers.append(_("needs a judge's approval"))
    return blockers
