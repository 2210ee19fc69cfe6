"""When a banker's score sheet may be submitted: one rule, for the server and the tablet.

The submission (``services.sheets.sheet_submit``) refuses a sheet for any of these
reasons; the sheet page says "ready to submit" only when none holds. The page hands the
same facts to the tablet (``sheet_rule`` in the page, read by static/js/sheet.js), whose
``sheetBlockers`` applies this rule, in this order, to what is in the fields at that
moment, so the tablet never offers a submission the server would refuse.

The facts:
- ``locked``: the sheet is signed; only a judge corrects it now.
- ``game_over``: the table's game is marked over (on the tablet: or a game over waits in its
  offline queue, which sends it before the sheet).
- ``empty``: nothing entered (``sheet_is_empty``).
- ``valid``: the rules engine found nothing wrong with exactly these entries; None on the
  tablet while the engine has not answered for them yet (offline, or typing).

The order is the order a banker deals with them, and the page names the first.
"""

from __future__ import annotations

from typing import Any

from tournament.models import Table

LOCKED = "locked"
INVALID = "invalid"
UNCHECKED = "unchecked"
EMPTY = "empty"
GAME_NOT_OVER = "game-not-over"
READY = "ready"

GAME_OVER_STATUSES = (Table.Status.FINISHED, Table.Status.SCORED)


def submit_blockers(*, locked: bool, game_over: bool, empty: bool, valid: bool | None) -> list[str]:
    """Every reason the submission would be refused now, first to deal with first; none
    means ready."""
    blockers = []
    if locked:
        blockers.append(LOCKED)
    if valid is None:
        blockers.append(UNCHECKED)
    elif not valid:
        blockers.append(INVALID)
    if empty:
        blockers.append(EMPTY)
    if not game_over:
        blockers.append(GAME_NOT_OVER)
    return blockers


def game_is_over(*, table_status: str) -> bool:
    return table_status in GAME_OVER_STATUSES


def sheet_is_empty(*, data: dict[str, Any]) -> bool:
    """Nothing entered on the sheet: no player with cash, bills or a bankruptcy, no deed
    owned. An untouched cash field is read as 0, so 0 everywhere is nothing entered."""

    def _entered(entry: dict[str, Any]) -> bool:
        bills = entry.get("bills")
        if not isinstance(bills, dict):
            bills = {}
        return bool(
            entry.get("cash") not in (None, "", 0)
            or any(count not in (None, "", 0) for count in bills.values())
            or entry.get("bankrupt")
        )

    entered = [e for e in data.get("players") or [] if isinstance(e, dict) and _entered(e)]
    owned = [
        h
        for h in data.get("properties") or []
        if isinstance(h, dict) and h.get("owner") not in (None, "")
    ]
    return not entered and not owned
