"""Rounds, tables and score sheets built the way a hall would fill them in (scoring tests).

Sheets here hold cash only (no deeds), so each player's net worth is simply the cash
written down and every expected number can be checked by hand.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Sequence

from django.utils import timezone

from scoring.models import TableSheet
from scoring.services.sheets import sheet_approve, sheet_submit
from scoring.services.signatures import sheet_sign
from tournament.models import Clock, Player, Round, Seat, Table, Wave


def make_round(
    event,
    number: int,
    tables: Sequence[Sequence[Player]],
    *,
    tables_per_wave: int = 0,
    finished: bool = True,
) -> Round:
    """A started round whose games are over: every table "finished", each wave's clock on."""
    round_ = Round.objects.create(event=event, number=number, started_at=timezone.now())
    per_wave = tables_per_wave or len(tables)
    waves: dict[int, Wave] = {}
    for index, players in enumerate(tables):
        wave_number = index // per_wave + 1
        if wave_number not in waves:
            waves[wave_number] = Wave.objects.create(round=round_, number=wave_number)
            Clock.objects.create(
                wave=waves[wave_number],
                duration_seconds=90 * 60,
                started_at=timezone.now() - datetime.timedelta(minutes=95),
            )
        table = Table.objects.create(
            round=round_,
            wave=waves[wave_number],
            number=index + 1,
            status=Table.Status.FINISHED if finished else Table.Status.PLAYING,
        )
        for position, player in enumerate(players, start=1):
            Seat.objects.create(round=round_, table=table, player=player, position=position)
    return round_


def sheet_data(cash: dict[Player, int], bankrupt: Sequence[Player] = ()) -> dict:
    """A cash-only sheet; bankrupt players go out in the order given (first out first)."""
    players = [{"id": str(p.pk), "bankrupt": False, "cash": amount} for p, amount in cash.items()]
    players += [
        {"id": str(p.pk), "bankrupt": True, "cash": 0, "out_order": order}
        for order, p in enumerate(bankrupt, start=1)
    ]
    return {"edition": "classic-us", "players": players, "properties": []}


def table_of(round_: Round, number: int) -> Table:
    return Table.objects.get(round=round_, number=number)


def play(
    table: Table,
    cash: dict[Player, int],
    bankrupt: Sequence[Player] = (),
    *,
    by=None,
    approve: bool = True,
):
    """Submit a valid sheet and have every player, then the banker, sign it; then a judge
    approves it (a championship posts only approved sheets), unless ``approve`` is off."""
    sheet = TableSheet.objects.filter(table=table).first()
    sheet = sheet_submit(
        table=table,
        data=sheet_data(cash, bankrupt),
        expected_version=sheet.version if sheet else 0,
        submission_key=uuid.uuid4(),
        by=by,
    )
    for player in [*cash, *bankrupt]:
        sheet_sign(sheet=sheet, player=player, initials=player.alias[:3], by=by)
    sheet_sign(sheet=sheet, initials="BNK", by=by)
    sheet.refresh_from_db()
    if approve:
        sheet = sheet_approve(sheet=sheet, by=by)
    return sheet


def posted_back(form) -> dict[str, str]:
    """An unbound form's fields as the browser would post them back: checked boxes as "on",
    empty fields and unchecked boxes left out."""
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value is None or value is False:
            continue
        data[name] = "on" if value is True else str(value)
    return data
